"""Summaries of repeated timings: median, spread, percentiles (plain Python, no numpy needed)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0..100) of ``values`` by linear interpolation (numpy's default)."""
    if not values:
        raise ValueError("percentile of an empty sequence")
    if not 0 <= q <= 100:
        raise ValueError(f"q must be in [0, 100], got {q!r}")
    ordered = sorted(values)
    position = (len(ordered) - 1) * q / 100
    low, high = math.floor(position), math.ceil(position)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


@dataclass(frozen=True)
class Summary:
    """Repeated measurements of one quantity (seconds, or a dimensionless ratio)."""

    n: int
    median: float
    p95: float
    q1: float
    q3: float
    minimum: float
    maximum: float

    @property
    def iqr(self) -> float:
        """Interquartile range ``q3 - q1``."""
        return self.q3 - self.q1

    def as_dict(self) -> dict[str, float]:
        """The fields as a plain dict (for JSON)."""
        return {
            "n": self.n,
            "median": self.median,
            "p95": self.p95,
            "q1": self.q1,
            "q3": self.q3,
            "min": self.minimum,
            "max": self.maximum,
        }


def summarize(values: Sequence[float]) -> Summary:
    """Median, p95, quartiles and range of ``values`` (at least one value)."""
    if not values:
        raise ValueError("cannot summarize zero measurements")
    return Summary(
        n=len(values),
        median=percentile(values, 50),
        p95=percentile(values, 95),
        q1=percentile(values, 25),
        q3=percentile(values, 75),
        minimum=min(values),
        maximum=max(values),
    )


def fmt_seconds(seconds: float) -> str:
    """A duration with a unit that keeps 3 significant-ish digits: ``12.3 s``, ``45.6 ms``."""
    if seconds >= 1:
        return f"{seconds:.2f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.1f} ms"
    return f"{seconds * 1e6:.0f} µs"


def fmt_ms(seconds: float) -> str:
    """A duration in milliseconds, one decimal."""
    return f"{seconds * 1e3:.1f}"
