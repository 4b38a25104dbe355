"""Progress for the long commands (the lesson sweeps, the figures): bars with the time left in a
terminal, plain lines elsewhere.

``Progress`` keeps one overall bar (finished jobs out of all, with tqdm's estimate of the time
left) and one bar per slot, a slot being a job in flight (a worker process's current group). When
the stream is not a terminal (a log file, CI) no bar is drawn: each finished job prints one line
with its count, the time so far and the estimated time left, so a log stays readable.
"""

from __future__ import annotations

import sys
import time
from typing import IO

from tqdm import tqdm  # type: ignore[import-untyped]

__all__ = ["Progress"]


def _clock(seconds: float) -> str:
    minutes, seconds = divmod(int(round(seconds)), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}"


class Progress:
    """An overall bar over ``total`` jobs and ``slots`` bars for the jobs in flight.

    ``stream``: where to draw (standard error by default, so standard output keeps the results);
    ``bars``: draw bars (default: when ``stream`` is a terminal). Use as a context manager.
    """

    def __init__(
        self,
        total: int,
        what: str,
        slots: int = 0,
        stream: IO[str] | None = None,
        bars: bool | None = None,
    ) -> None:
        if isinstance(total, bool) or not isinstance(total, int) or total < 0:
            raise ValueError(f"total must be a non-negative integer, got {total!r}")
        if isinstance(slots, bool) or not isinstance(slots, int) or slots < 0:
            raise ValueError(f"slots must be a non-negative integer, got {slots!r}")
        self.total, self.what, self.done = total, what, 0
        self.stream = stream if stream is not None else sys.stderr
        self.bars = self.stream.isatty() if bars is None else bars
        self._start = time.perf_counter()
        self._overall: tqdm | None = None
        self._slots: list[tqdm] = []
        if self.bars:
            self._overall = tqdm(total=total, desc=what, unit="job", file=self.stream, position=0)
            self._slots = [
                tqdm(total=1, desc="waiting", file=self.stream, position=i + 1, leave=False)
                for i in range(slots)
            ]

    def start(self, slot: int, label: str, steps: int, unit: str = "step") -> None:
        """Slot ``slot`` begins a stage of ``steps`` steps (each a ``unit``) called ``label``."""
        if self.bars:
            bar = self._slots[slot]
            bar.unit = unit
            bar.reset(total=steps)
            bar.set_description_str(label)

    def step(self, slot: int, done: int) -> None:
        """Slot ``slot`` has finished ``done`` steps of its stage."""
        if self.bars:
            bar = self._slots[slot]
            bar.update(done - bar.n)

    def finish(self, line: str) -> None:
        """One job finished; ``line`` says what it gave (printed above the bars, or alone)."""
        self.done += 1
        if self._overall is not None:
            self._overall.update(1)
            tqdm.write(line, file=self.stream)
            return
        elapsed = time.perf_counter() - self._start
        left = elapsed / self.done * (self.total - self.done)
        print(
            f"[{self.done}/{self.total} {self.what}, {_clock(elapsed)} so far, "
            f"about {_clock(left)} left] {line}",
            file=self.stream,
            flush=True,
        )

    def close(self) -> None:
        for bar in self._slots:
            bar.close()
        if self._overall is not None:
            self._overall.close()

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
