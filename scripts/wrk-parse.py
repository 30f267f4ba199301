"""Reads wrk --latency output on stdin; prints NAME, req/s, p50 ms, p99 ms, non-2xx/3xx, errors."""
import re
import sys


def ms(text):
    value, unit = re.match(r"([\d.]+)(us|ms|s)", text).groups()
    return float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]


out = sys.stdin.read()
rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
p50 = ms(re.search(r"^\s+50%\s+(\S+)", out, re.M).group(1))
p99 = ms(re.search(r"^\s+99%\s+(\S+)", out, re.M).group(1))
bad = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
error_count = sum(int(n) for n in errors.groups()) if errors else 0
print(f"{sys.argv[1]}\t{rate:.0f}\t{p50:.2f}\t{p99:.2f}\t{int(bad.group(1)) if bad else 0}\t{error_count}")
