"""Turns the benchmark rows into a Markdown table with ratios to the ceiling and to /healthz."""
import sys

rows = [line.rstrip("\n").split("\t") for line in open(sys.argv[1]) if line.strip()]
rss_kb, connections, seconds = int(sys.argv[2]), sys.argv[3], sys.argv[4]
rss_pages_kb = int(sys.argv[5]) if len(sys.argv) > 5 else rss_kb
micro = sys.argv[6] if len(sys.argv) > 6 else ""
ceiling = float(rows[0][1])
health = next((float(r[1]) for r in rows if "healthz" in r[0]), None)

print(f"Benchmark: wrk, 2 threads, {connections} connections, {seconds} s each, loopback, same machine.\n")
print("| what | req/s | p50 ms | p99 ms | vs ceiling | vs /healthz | non-2xx/3xx | socket errors |")
print("|---|---:|---:|---:|---:|---:|---:|---:|")
for name, rate, p50, p99, bad, errors in rows:
    vs_health = f"{float(rate) / health:.0%}" if health else "-"
    print(f"| {name} | {rate} | {p50} | {p99} | {float(rate) / ceiling:.0%} | {vs_health} | {bad} | {errors} |")
print(f"\nWorker RSS: {rss_pages_kb / 1024:.1f} MB after the page runs, {rss_kb / 1024:.1f} MB at the end.")
if micro:
    print(f"\nMicro-benchmarks (one thread, in-process): {micro}")
