"""Instructions per unit from two callgrind profiles of the same work done N and 2N times: their
difference over N, so that start-up cancels out; then how many times per unit memory was taken
from malloc and objects were retained and released (the calls the profile records, counted the
same way); then the functions that cost the most per unit.
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


# Calls per unit counted for these functions, by their names in the profile.
COUNTED = {"allocations": ("malloc", "calloc", "realloc"), "retains": ("swift_retain",),
           "releases": ("swift_release",)}


def calls(path):
    """How many calls the profile records into each function named in COUNTED."""
    wanted = {name: kind for kind, names in COUNTED.items() for name in names}
    ids, callee, counted = {}, None, dict.fromkeys(COUNTED, 0)
    with open(path, errors="replace") as profile:
        for line in profile:
            named = re.match(r"^(c?fn)=\((\d+)\)(?: (.*))?", line)
            if named:
                kind, ident, name = named.groups()
                if name:
                    ids[ident] = name.strip()
                if kind == "cfn":
                    callee = wanted.get(ids.get(ident))
                continue
            made = re.match(r"^calls=(\d+)", line)
            if made and callee:
                counted[callee] += int(made.group(1))
    return counted


def main():
    first, second, count, top, label = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
    (total_a, a), (total_b, b) = costs(first), costs(second)
    print(f"{label}: {(total_b - total_a) / count:,.0f}")
    calls_a, calls_b = calls(first), calls(second)
    print(", ".join(f"{kind} {(calls_b[kind] - calls_a[kind]) / count:,.1f}" for kind in COUNTED) + " per request")
    rows = sorted(((b[name] - a.get(name, 0)) / count, name) for name in b)
    for cost, name in reversed(rows[-top:]):
        print(f"{cost:8,.0f}  {name[:140]}")


main()
