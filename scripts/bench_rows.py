"""Reads the benchmark rows (NAME, req/s, p50, p99, non-2xx/3xx, errors, round, and the serving
process's CPU microseconds per request or "-") and sums up each
name over its rounds: the median round's figures, and its rates as ratios to the baselines
measured in the same round (the machine's speed drifts between rounds). A round's baselines are
its rows named with "ceiling" (nginx alone), "limit" (a C responder with no library), "floor" (the
C libfcgi responder) and "healthz"."""
import statistics
from dataclasses import dataclass

BASELINES = ("ceiling", "limit", "floor", "healthz")


@dataclass
class Summary:
    name: str
    rate: float
    p50: str
    p99: str
    bad: int
    errors: int
    rounds: int
    ratios: dict  # baseline -> one ratio per round that measured that baseline
    cpu_rounds: list  # the serving process's CPU time per request in each round that measured it, lowest first

    @property
    def cpu_us(self):
        """The median round's CPU time per request, or "-" when none was measured."""
        return f"{self.cpu_rounds[len(self.cpu_rounds) // 2]:.1f}" if self.cpu_rounds else "-"

    @property
    def cpu_cell(self):
        """The median CPU time, with its lowest and highest rounds when there were several."""
        if len(self.cpu_rounds) < 2:
            return self.cpu_us
        return f"{self.cpu_us} ({self.cpu_rounds[0]:.1f}–{self.cpu_rounds[-1]:.1f})"


def load(path):
    rows = [line.rstrip("\n").split("\t") for line in open(path) if line.strip()]
    rows = [r + ["-"] * (8 - len(r)) for r in rows]
    by_round = {}
    for name, rate, _p50, _p99, _bad, _errors, round_, _cpu in rows:
        by_round.setdefault(round_, {})[name] = float(rate)
    # Figures measured once, outside the rounds (round "-"), compare with the median of the
    # numbered rounds.
    numbered = [r for r in rows if r[6].isdigit()]
    medians = {name: statistics.median(rates) for name, rates in _rates_by_name(numbered).items()}
    summaries = []
    for name in dict.fromkeys(r[0] for r in rows):
        mine = [r for r in rows if r[0] == name]
        median = sorted(mine, key=lambda r: float(r[1]))[len(mine) // 2]
        ratios = {}
        for r in mine:
            round_rates = medians if r[6] == "-" else by_round[r[6]]
            for baseline in BASELINES:
                base = next((rate for n, rate in round_rates.items() if baseline in n), None)
                if base:
                    ratios.setdefault(baseline, []).append(float(r[1]) / base)
        cpu = sorted(float(r[7]) for r in mine if r[7].replace(".", "", 1).isdigit())
        summaries.append(
            Summary(name, float(median[1]), median[2], median[3], sum(int(r[4]) for r in mine),
                    sum(int(r[5]) for r in mine), len(mine), ratios,
                    cpu))
    return summaries


def ratio(summary, baseline):
    """The median ratio to a baseline, or None when no round measured it."""
    values = summary.ratios.get(baseline)
    return statistics.median(values) if values else None


def _rates_by_name(rows):
    rates = {}
    for r in rows:
        rates.setdefault(r[0], []).append(float(r[1]))
    return rates
