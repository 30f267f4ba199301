"""Writes the rates as a gnuplot data file: index, rate as % of the ceiling, quoted name."""
import sys

rows = [line.rstrip("\n").split("\t") for line in open(sys.argv[1]) if line.strip()]
ceiling = float(rows[0][1])
with open(sys.argv[2], "w") as out:
    for index, row in enumerate(rows):
        out.write(f'{index} {100 * float(row[1]) / ceiling:.1f} "{row[0]}"\n')
