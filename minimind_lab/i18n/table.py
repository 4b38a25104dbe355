"""Monospace tables that line up in both languages.

A terminal or a notebook's output area gives a CJK (wide or full-width) character two columns and
a Latin letter one, while Python's ``format`` pads by counting characters: a Chinese label padded
with ``f"{label:<20}"`` pushes the rest of its line to the right. Every table a lesson prints is
built here, so the columns line up in English and in Chinese alike::

    print(text_table([tr("model"), tr("loss")], [[tr("no MLP"), "0.31"], ["SwiGLU", "0.12"]]))
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from . import tr

__all__ = ["display_width", "pad", "table_text", "text_table"]


def display_width(text: str) -> int:
    """The columns ``text`` takes in a monospace font: two for a wide (CJK) character, else one."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def pad(text: str, width: int, align: str = "<") -> str:
    """``text`` padded with spaces to ``width`` display columns: ``align`` is ``"<"`` (left),
    ``">"`` (right) or ``"^"`` (centred). Text wider than ``width`` comes back unchanged."""
    if align not in ("<", ">", "^"):
        raise ValueError(f"align must be '<', '>' or '^', got {align!r}")
    room = max(0, width - display_width(text))
    if align == "<":
        return text + " " * room
    if align == ">":
        return " " * room + text
    return " " * (room // 2) + text + " " * (room - room // 2)


class _TableLabel(str):
    """A label whose format width counts a wide character as two columns, so ``f"{label:<44}"``
    lines up in Chinese as in English."""

    def __format__(self, spec: str) -> str:
        found = re.fullmatch(r"(.?[<>^])?(\d+)", spec)
        if not found:
            return format(str(self), spec)
        extra = display_width(self) - len(self)
        return format(str(self), f"{found[1] or ''}{max(0, int(found[2]) - extra)}")


def table_text(text: str, /, **fields: object) -> str:
    """``tr(text, **fields)`` that pads by display width inside an f-string's format spec, for a
    line of a table written by hand (``f"{table_text('seed'):<12}{value:>8.3f}"``)."""
    return _TableLabel(tr(text, **fields))


def text_table(
    header: Sequence[object], rows: Sequence[Sequence[object]], align: str = "", gap: int = 2
) -> str:
    """``rows`` under ``header`` as monospace text, padded by display width.

    Each column is as wide as its widest entry; ``align`` has one ``"<"``, ``">"`` or ``"^"`` per
    column (default: the first column left, the others right, as numbers read best); columns are
    ``gap`` spaces apart. Entries are written with ``str``, so pass numbers already formatted to
    the digits they should show. Raises ``ValueError`` when a row's length differs from the
    header's or ``align`` does not give one character per column.
    """
    lines = [[str(cell) for cell in header], *([str(cell) for cell in row] for row in rows)]
    columns = len(lines[0])
    if columns == 0:
        raise ValueError("text_table needs at least one column, got an empty header")
    for i, line in enumerate(lines[1:]):
        if len(line) != columns:
            raise ValueError(f"row {i} has {len(line)} entries; the header has {columns}")
    align = align or "<" + ">" * (columns - 1)
    if len(align) != columns or set(align) - {"<", ">", "^"}:
        raise ValueError(
            f"align must give one of '<', '>', '^' per column ({columns}), got {align!r}"
        )
    if gap < 1:
        raise ValueError(f"gap must be at least 1 space, got {gap!r}")
    widths = [max(display_width(line[i]) for line in lines) for i in range(columns)]
    text = []
    for line in lines:
        cells = [pad(cell, width, a) for cell, width, a in zip(line, widths, align, strict=True)]
        text.append((" " * gap).join(cells).rstrip())
    return "\n".join(text)
