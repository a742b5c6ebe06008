"""Statistics of many solves: the Wilson interval of a share, exact quantiles, a constant-memory
histogram of times and its SVG picture. Kept apart from solving (as Solvitaire keeps its
binomial intervals apart from its solver), so a survey and the HTTP service's latency figures
use the same pieces.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Sequence

from halfmoon.solver.errors import InputError

Z95 = 1.959963984540054  # the 97.5% point of the standard normal distribution


# -- statistics ----------------------------------------------------------------------------


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a binomial share; (0, 1) when there are no trials."""
    if trials == 0:
        return 0.0, 1.0
    if not 0 <= successes <= trials:
        raise InputError(f"wilson: {successes} successes out of {trials} trials")
    p = successes / trials
    z2 = z * z
    denominator = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denominator
    lo = 0.0 if successes == 0 else max(0.0, centre - half)
    hi = 1.0 if successes == trials else min(1.0, centre + half)
    return lo, hi


def quantile(ordered: Sequence[float], q: float) -> float:
    """The q-quantile of sorted values, interpolated linearly between neighbours (numpy's default)."""
    if not ordered:
        return 0.0
    position = q * (len(ordered) - 1)
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


@dataclass
class TimeHistogram:
    """Solve times in logarithmic bins (10 per decade, 0.1 ms … 1000 s): constant memory.

    For pictures and live figures: its quantiles are read as the upper edge of their bin, so
    they are approximate (at most 26% high); min, max and mean are exact.
    """

    per_decade: int = 10
    low_exponent: int = -4
    high_exponent: int = 3
    counts: list[int] = field(default_factory=list)
    n: int = 0
    total: float = 0.0
    minimum: float = math.inf
    maximum: float = 0.0

    def __post_init__(self) -> None:
        if not self.counts:
            self.counts = [0] * ((self.high_exponent - self.low_exponent) * self.per_decade + 2)

    def edge(self, index: int) -> float:
        """Upper edge of bin `index` (bin 0 holds everything below the lowest edge)."""
        return 10.0 ** (self.low_exponent + index / self.per_decade)

    def add(self, seconds: float) -> None:
        seconds = max(0.0, seconds)
        self.n += 1
        self.total += seconds
        self.minimum = min(self.minimum, seconds)
        self.maximum = max(self.maximum, seconds)
        if seconds <= 0:
            index = 0
        else:
            index = math.ceil((math.log10(seconds) - self.low_exponent) * self.per_decade - 1e-9)
            index = min(max(index, 0), len(self.counts) - 1)
        self.counts[index] += 1

    def quantile(self, q: float) -> float:
        if self.n == 0:
            return 0.0
        target = q * self.n
        running = 0
        for index, count in enumerate(self.counts):
            running += count
            if running >= target and count:
                return min(self.edge(index), self.maximum)
        return self.maximum

    def summary(self) -> dict[str, float]:
        """Count, mean, min, max and total (exact), and the quantiles read from the bins, labelled approximate."""
        if self.n == 0:
            return {"n": 0}
        return {
            "n": self.n,
            "mean": round(self.total / self.n, 6),
            "min": round(self.minimum, 6),
            "p50_approx": round(self.quantile(0.5), 6),
            "p90_approx": round(self.quantile(0.9), 6),
            "p99_approx": round(self.quantile(0.99), 6),
            "max": round(self.maximum, 6),
            "total": round(self.total, 3),
        }

    def bins(self) -> list[tuple[float, float, int]]:
        """(low edge, high edge, count) of every non-empty bin, for pictures."""
        return [
            (0.0 if i == 0 else self.edge(i - 1), self.edge(i), c) for i, c in enumerate(self.counts) if c
        ]


def histogram_svg(times: TimeHistogram, title: str, width: int = 640, height: int = 320) -> str:
    """A self-contained SVG bar chart of the solve-time histogram (log-scale time axis)."""
    bins = times.bins()
    left, right, top, bottom = 56, 16, 36, 44
    plot_w, plot_h = width - left - right, height - top - bottom
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" font-size="11">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        f'<text x="{width / 2}" y="20" text-anchor="middle" font-size="13">{_xml(title)}</text>',
    ]
    if bins:
        first = max(1, min(i for i, c in enumerate(times.counts) if c))
        last = max(i for i, c in enumerate(times.counts) if c)
        slots = last - first + 2
        peak = max(c for _, _, c in bins)
        bar_w = plot_w / slots
        for index in range(first - 1, last + 1):
            count = times.counts[index]
            if not count:
                continue
            x = left + (index - first + 1) * bar_w
            h = plot_h * count / peak
            parts.append(f'<rect x="{x:.1f}" y="{top + plot_h - h:.1f}" width="{max(bar_w - 1, 1):.1f}" height="{h:.1f}"'
                         f' fill="#4a7ab5"><title>{count} deals</title></rect>')
        for index in range(first - 1, last + 1):
            exponent = times.low_exponent + index / times.per_decade
            if float(exponent).is_integer():
                x = left + (index - first + 2) * bar_w
                parts.append(f'<line x1="{x:.1f}" y1="{top + plot_h}" x2="{x:.1f}" y2="{top + plot_h + 4}" stroke="black"/>')
                parts.append(f'<text x="{x:.1f}" y="{top + plot_h + 16}" text-anchor="middle">{10.0 ** exponent:g} s</text>')
        parts.append(f'<text x="{left - 6}" y="{top + 4}" text-anchor="end">{peak}</text>')
    parts += [
        f'<line x1="{left}" y1="{top + plot_h}" x2="{left + plot_w}" y2="{top + plot_h}" stroke="black"/>',
        f'<line x1="{left}" y1="{top}" x2="{left}" y2="{top + plot_h}" stroke="black"/>',
        f'<text x="{left}" y="{top + plot_h / 2}" transform="rotate(-90 {left - 40} {top + plot_h / 2})"'
        f' text-anchor="middle">deals</text>',
        f'<text x="{left + plot_w / 2}" y="{height - 8}" text-anchor="middle">solve time (log scale,'
        f' {times.per_decade} bins per decade)</text>',
        "</svg>",
    ]
    return "\n".join(parts) + "\n"


def _xml(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
