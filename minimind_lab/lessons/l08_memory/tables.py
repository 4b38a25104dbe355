"""The lesson's printed tables and lines, in the notebook's language.

A Chinese label is two columns wide per character, so a table padded with ``f"{label:<16}"``
breaks its columns in the Chinese edition. The notebook prints every table with ``text_table``
(each column as wide as its widest entry) and pads a label inside a line with ``pad``; both come
from ``minimind_lab.i18n.table``, the one helper every lesson uses; ``padded`` pads a column of
labels to the widest of them. ``listing`` joins the items of a printed line with the language's
own comma. The labels come from ``kind_label``,
``model_label`` and ``knockout_label`` (``plots/l08_memory.py``).
"""

from __future__ import annotations

from collections.abc import Iterable

from ...i18n import tr, tr_noop
from ...i18n.table import display_width, pad, text_table

__all__ = ["listing", "pad", "padded", "text_table"]

#: The separators a printed line uses between its items, as the catalogue knows them.
_SEPARATORS = {",": tr_noop(", "), ";": tr_noop("; ")}


def listing(items: Iterable[object], sep: str = ",") -> str:
    """``items`` as one printed line, joined by a comma (``sep=","``, ``"a, b"``; ``"a，b"`` in
    Chinese) or a semicolon (``sep=";"``). Raises ``ValueError`` for another ``sep``."""
    if sep not in _SEPARATORS:
        raise ValueError(f"sep must be one of {', '.join(map(repr, _SEPARATORS))}, got {sep!r}")
    return tr(_SEPARATORS[sep]).join(str(item) for item in items)


def padded(labels: Iterable[str], align: str = "<") -> list[str]:
    """``labels`` padded to the display width of the widest (a CJK character counts two
    columns), so the text printed after them starts in one column in either language."""
    labels = [str(label) for label in labels]
    width = max(map(display_width, labels), default=0)
    return [pad(label, width, align) for label in labels]
