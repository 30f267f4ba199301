"""Reads the benchmark rows (NAME, req/s, p50, p99, non-2xx/3xx, errors, round) and sums up each
name over its rounds: the median round's figures, and its rates as ratios to the ceiling and to
/healthz measured in the same round (the machine's speed drifts between rounds)."""
import statistics
from dataclasses import dataclass


@dataclass
class Summary:
    name: str
    rate: float
    p50: str
    p99: str
    bad: int
    errors: int
    rounds: int
    vs_ceiling: float
    vs_health: list  # one ratio per round that also measured /healthz


def load(path):
    rows = [line.rstrip("\n").split("\t") for line in open(path) if line.strip()]
    by_round = {}
    for name, rate, _p50, _p99, _bad, _errors, round_ in rows:
        by_round.setdefault(round_, {})[name] = float(rate)
    ceiling_name = rows[0][0]
    health_name = next((r[0] for r in rows if "healthz" in r[0]), None)
    # Figures measured once, outside the rounds, compare with the median of the rounds.
    medians = {name: statistics.median(rates) for name, rates in _rates_by_name(rows).items()}
    summaries = []
    for name in dict.fromkeys(r[0] for r in rows):
        mine = [r for r in rows if r[0] == name]
        median = sorted(mine, key=lambda r: float(r[1]))[len(mine) // 2]
        vs_ceiling, vs_health = [], []
        for r in mine:
            baseline = by_round[r[6]] if r[6] != "-" else medians
            vs_ceiling.append(float(r[1]) / baseline[ceiling_name])
            if health_name and health_name in baseline:
                vs_health.append(float(r[1]) / baseline[health_name])
        summaries.append(
            Summary(name, float(median[1]), median[2], median[3], sum(int(r[4]) for r in mine),
                    sum(int(r[5]) for r in mine), len(mine), statistics.median(vs_ceiling), vs_health))
    return summaries


def _rates_by_name(rows):
    rates = {}
    for r in rows:
        rates.setdefault(r[0], []).append(float(r[1]))
    return rates
