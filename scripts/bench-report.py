"""Turns the benchmark rows into a Markdown table with ratios to the ceiling, the FastCGI floor
and /healthz measured in the same round."""
import os
import statistics
import sys

from bench_rows import load

rows = load(sys.argv[1])
rss_kb, connections, seconds = int(sys.argv[2]), sys.argv[3], sys.argv[4]
rss_pages_kb = int(sys.argv[5]) if len(sys.argv) > 5 else rss_kb
micro = sys.argv[6] if len(sys.argv) > 6 else ""
tokens = sys.argv[7] if len(sys.argv) > 7 else ""
instructions = sys.argv[8] if len(sys.argv) > 8 else ""
spread_path = sys.argv[9] if len(sys.argv) > 9 else ""
rounds = max(r.rounds for r in rows)


def report_spread(path):
    """How far the limit's and the logged-in page's CPU per request move over the paired rounds,
    and the user and system time apart; then, where the rounds were timed, the page's rate over the
    limit's in the same round and both p99s."""
    cpu = {"limit": {}, "page": {}}
    # Each round's rate and p99 (ms), in runs that recorded them.
    rate, p99 = {"limit": {}, "page": {}}, {"limit": {}, "page": {}}
    for line in open(path):
        fields = line.split()
        round_, side, user, system = fields[:4]
        cpu[side][round_] = (float(user), float(system))
        if len(fields) >= 6:
            rate[side][round_], p99[side][round_] = float(fields[4]), float(fields[5])
    paired = sorted(set(cpu["limit"]) & set(cpu["page"]), key=int)
    if len(paired) < 4:
        return
    print(f"\nCPU per request from round to round, {len(paired)} rounds each, the limit then the logged-in "
          "page one after the other (µs: median, lowest–highest; highest over lowest; the middle half, upper "
          "quartile over lower):")
    for side, name in (("page", "the logged-in page"), ("limit", "the limit")):
        parts = [("user+system", [sum(cpu[side][r]) for r in paired]),
                 ("system", [cpu[side][r][1] for r in paired]), ("user", [cpu[side][r][0] for r in paired])]
        print(f"- {name}: " + "; ".join(
            f"{label} {statistics.median(v):.1f} ({min(v):.1f}–{max(v):.1f}) {spread(v):.2f}x, {middle_half(v):.2f}x"
            for label, v in parts))
    over = sorted(sum(cpu["page"][r]) / sum(cpu["limit"][r]) for r in paired if sum(cpu["limit"][r]) > 0)
    print(f"- the page over the limit in the same round {statistics.median(over):.2f}x ({over[0]:.2f}–{over[-1]:.2f}).")
    timed = [r for r in paired if r in rate["page"] and r in rate["limit"] and rate["limit"][r] > 0]
    if len(timed) >= 4:
        rates = sorted(rate["page"][r] / rate["limit"][r] for r in timed)
        page_p99, limit_p99 = sorted(p99["page"][r] for r in timed), sorted(p99["limit"][r] for r in timed)
        print(f"- the same rounds timed: the page's rate {statistics.median(rates):.0%} of the limit's in the same "
              f"round ({rates[0]:.0%}–{rates[-1]:.0%}); p99 the page {statistics.median(page_p99):.2f} ms "
              f"({page_p99[0]:.2f}–{page_p99[-1]:.2f}), the limit {statistics.median(limit_p99):.2f} ms "
              f"({limit_p99[0]:.2f}–{limit_p99[-1]:.2f}).")


def report_same_answer(path):
    """The logged-in page against the limit sending the page's own answer, round by round: what
    the worker costs beside what nginx and wrk spend on the answer's size."""
    rounds = {}
    for line in open(path):
        fields = line.rstrip("\n").split("\t") + ["-"] * 8
        name, rate, round_, cpu = fields[0], fields[1], fields[6], fields[7]
        if not round_.isdigit():
            continue
        if name == "GET / logged in":
            rounds.setdefault(round_, {})["page"] = (float(rate), cpu)
        elif name.startswith("C responder, no library, the logged-in page's"):
            rounds.setdefault(round_, {})["same"] = (float(rate), cpu)
            label = name
    paired = [r for r in rounds.values() if "page" in r and "same" in r]
    if not paired:
        return
    rates = sorted(r["page"][0] / r["same"][0] for r in paired)
    cpus = sorted(float(r["page"][1]) / float(r["same"][1]) for r in paired
                  if r["page"][1] != "-" and r["same"][1] != "-" and float(r["same"][1]) > 0)
    text = (f"\nThe logged-in page against the limit sending the page's own answer ({label.rsplit(' ', 2)[-2]} "
            f"bytes, against its 1.6 KB page), same rounds: {statistics.median(rates):.0%} of its rate "
            f"({rates[0]:.0%}–{rates[-1]:.0%})")
    if cpus:
        text += f", {statistics.median(cpus):.2f}x its CPU per request ({cpus[0]:.2f}–{cpus[-1]:.2f})"
    print(text + ".")


def spread(values):
    return max(values) / min(values) if min(values) > 0 else float("nan")


def middle_half(values):
    lower, _, upper = statistics.quantiles(values, n=4)
    return upper / lower if lower > 0 else float("nan")


def cell(summary, baseline):
    values = summary.ratios.get(baseline)
    if not values:
        return "-"
    values = sorted(values)
    text = f"{values[len(values) // 2]:.0%}"
    if len(values) > 1:
        text += f" ({values[0]:.0%}–{values[-1]:.0%})"
    return text


print(f"Benchmark: wrk, 2 threads, {connections} connections unless named, {seconds} s each, loopback, same machine.")
print(f"The worker at LOG_LEVEL={os.environ.get('WORKER_LOG_LEVEL', 'warning')} (info, production's default, logs a line per request).")
print(f"Rows measured in {rounds} interleaved rounds show the median round; ratios are the median of")
print("each round's ratio to the baselines of that round (nginx alone: the ceiling; a C responder")
print("with no library behind the same nginx: the limit; a C libfcgi responder: the floor), with")
print("their range. CPU µs/req: the serving process's user+system time (/proc) over the requests")
print("wrk completed, median round (the worker's for the worker's rows), with its lowest and highest rounds.\n")
print("| what | req/s | p50 ms | p99 ms | vs ceiling | vs limit | vs floor | vs /healthz | CPU µs/req "
      "| non-2xx/3xx | socket errors |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
for r in rows:
    rate = f"{r.rate:.0f}" if r.rate >= 100 else f"{r.rate:.1f}"
    print(f"| {r.name} | {rate} | {r.p50} | {r.p99} | {cell(r, 'ceiling')} | {cell(r, 'limit')} | "
          f"{cell(r, 'floor')} | {cell(r, 'healthz')} | {r.cpu_cell} | {r.bad} | {r.errors} |")
by_name = {r.name: r for r in rows}
with_apps, without = by_name.get("GET / logged in"), by_name.get("GET / logged in, no mini apps")
if with_apps and without and with_apps.cpu_us != "-" and without.cpu_us != "-":
    print(f"\nMini apps (make run's two) against none, same machine and rounds: the logged-in page's worker "
          f"CPU {float(with_apps.cpu_us) / float(without.cpu_us) - 1:+.1%}, its rate {with_apps.rate / without.rate - 1:+.1%}.")
report_same_answer(sys.argv[1])
if spread_path:
    report_spread(spread_path)
if instructions:
    print(f"\nInstructions per request (callgrind, the worker through nginx; the same on any machine of this kind): {instructions}")
print(f"\nWorker RSS: {rss_pages_kb / 1024:.1f} MB after the page runs, {rss_kb / 1024:.1f} MB at the end.")
if micro:
    print(f"\nMicro-benchmarks (one thread, in-process): {micro}")
if tokens:
    print(f"\nLogout tokens refused at /backchannel-logout (one thread, in-process; each against the forged small one): {tokens}")
