"""Instructions per unit from two callgrind profiles of the same work done N and 2N times: their
difference over N, so that start-up cancels out; then the functions that cost the most per unit.
Used by scripts/page-instructions and scripts/worker-instructions.
Usage: callgrind_diff.py FIRST.out SECOND.out N TOP LABEL"""
import re
import subprocess
import sys


def costs(path):
    text = subprocess.run(["callgrind_annotate", "--threshold=100", path],
                          capture_output=True, text=True, check=True).stdout
    total = int(re.search(r"([\d,]+) \(100.0%\)\s+PROGRAM TOTALS", text).group(1).replace(",", ""))
    each = {m.group(2): int(m.group(1).replace(",", ""))
            for m in re.finditer(r"^\s*([\d,]+) \(\s*[\d.]+%\)\s+(.+?)\s+\[", text, re.M)}
    return total, each


def main():
    first, second, count, top, label = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
    (total_a, a), (total_b, b) = costs(first), costs(second)
    print(f"{label}: {(total_b - total_a) / count:,.0f}")
    rows = sorted(((b[name] - a.get(name, 0)) / count, name) for name in b)
    for cost, name in reversed(rows[-top:]):
        print(f"{cost:8,.0f}  {name[:140]}")


main()
