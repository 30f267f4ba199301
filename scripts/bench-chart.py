"""Writes the rates as a gnuplot data file: index, rate as % of the library-free limit, quoted name."""
import sys

from bench_rows import load, ratio

with open(sys.argv[2], "w") as out:
    for index, row in enumerate(load(sys.argv[1])):
        share = ratio(row, "limit")
        if share is not None:
            out.write(f'{index} {100 * share:.1f} "{row.name}"\n')
