"""Turns the benchmark rows into a Markdown table with ratios to the ceiling and to /healthz."""
import statistics
import sys

from bench_rows import load

rows = load(sys.argv[1])
rss_kb, connections, seconds = int(sys.argv[2]), sys.argv[3], sys.argv[4]
rss_pages_kb = int(sys.argv[5]) if len(sys.argv) > 5 else rss_kb
micro = sys.argv[6] if len(sys.argv) > 6 else ""
rounds = max(r.rounds for r in rows)

print(f"Benchmark: wrk, 2 threads, {connections} connections, {seconds} s each, loopback, same machine.")
print(f"Rows measured in {rounds} interleaved rounds show the median round; ratios are the median of")
print("each round's ratio to the ceiling and /healthz of that round, with their range.\n")
print("| what | req/s | p50 ms | p99 ms | vs ceiling | vs /healthz | non-2xx/3xx | socket errors |")
print("|---|---:|---:|---:|---:|---:|---:|---:|")
for r in rows:
    vs_health = "-"
    if r.vs_health:
        vs_health = f"{statistics.median(r.vs_health):.0%}"
        if len(r.vs_health) > 1:
            vs_health += f" ({min(r.vs_health):.0%}–{max(r.vs_health):.0%})"
    rate = f"{r.rate:.0f}" if r.rate >= 100 else f"{r.rate:.1f}"
    print(f"| {r.name} | {rate} | {r.p50} | {r.p99} | {r.vs_ceiling:.0%} | {vs_health} | {r.bad} | {r.errors} |")
print(f"\nWorker RSS: {rss_pages_kb / 1024:.1f} MB after the page runs, {rss_kb / 1024:.1f} MB at the end.")
if micro:
    print(f"\nMicro-benchmarks (one thread, in-process): {micro}")
