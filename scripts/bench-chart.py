"""Writes the rates as a gnuplot data file: index, rate as % of the ceiling, quoted name."""
import sys

from bench_rows import load

with open(sys.argv[2], "w") as out:
    for index, row in enumerate(load(sys.argv[1])):
        out.write(f'{index} {100 * row.vs_ceiling:.1f} "{row.name}"\n')
