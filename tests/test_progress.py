"""The long commands' progress: bars with the time left in a terminal, counted lines elsewhere."""

from __future__ import annotations

import io
import re

import pytest

from minimind_lab._progress import Progress


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_without_a_terminal_each_finished_job_prints_one_counted_line_with_the_time_left() -> None:
    log = io.StringIO()
    with Progress(3, "groups", slots=2, stream=log) as progress:
        progress.start(0, "full h=8", 10, "pass")  # no bar drawn: nothing printed
        progress.step(0, 5)
        for name in ("a", "b", "c"):
            progress.finish(f"group {name} done")
    lines = log.getvalue().splitlines()
    assert len(lines) == 3
    pattern = r"\[(\d)/3 groups, \d+:\d\d so far, about \d+:\d\d left\] group (\w) done"
    assert [re.fullmatch(pattern, line).groups() for line in lines] == [  # type: ignore[union-attr]
        ("1", "a"),
        ("2", "b"),
        ("3", "c"),
    ]


def test_in_a_terminal_it_draws_an_overall_bar_and_one_per_slot() -> None:
    screen = _Terminal()
    with Progress(2, "groups", slots=1, stream=screen) as progress:
        progress.start(0, "full h=8: scan", 4, "pass")
        progress.step(0, 4)
        progress.finish("full h=8 done")
    text = screen.getvalue()
    assert "groups:" in text and "full h=8: scan" in text and "pass" in text
    assert "full h=8 done" in text and "[1/2 groups" not in text  # a bar, not counted lines


@pytest.mark.parametrize(("total", "slots"), [(-1, 0), (2.5, 0), (True, 0), (3, -1)])
def test_bad_counts_are_refused(total: object, slots: object) -> None:
    with pytest.raises(ValueError, match="must be a non-negative integer"):
        Progress(total, "jobs", slots=slots, stream=io.StringIO())  # type: ignore[arg-type]
