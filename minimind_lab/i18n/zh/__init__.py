"""The Chinese catalogue: English text → Chinese text, one module per lesson plus ``common``.

Each module defines ``ZH: dict[str, str]``. A key is the English exactly as the package passes it
to ``tr`` or ``tr_noop``; a value keeps the key's ``{fields}`` (same names and formats, any
order). ``tests/test_i18n.py`` checks that every marked text has an entry, that no entry is
unused, and that the fields match. Terms follow the glossary (``notebooks/GLOSSARY.md``).
"""

from __future__ import annotations

from importlib import import_module

#: The modules merged into ``CATALOG``: ``common`` (shared labels) and one per lesson.
MODULES: tuple[str, ...] = (
    "common",
    "figures",
    "l01_attention",
    "l02_collapse",
    "l03_activations",
    "l04_width",
    "l05_gating",
    "l06_sizing",
    "l07_feedforward",
    "l08_memory",
    "l09_capacity",
    "l10_moe",
)


def _merge() -> dict[str, str]:
    catalog: dict[str, str] = {}
    for name in MODULES:
        for english, chinese in import_module(f"{__name__}.{name}").ZH.items():
            if catalog.get(english, chinese) != chinese:
                raise ValueError(
                    f"{english!r} has two translations: {catalog[english]!r} and {chinese!r} "
                    f"(in {name}); keep one, in common.py if lessons share it"
                )
            catalog[english] = chinese
    return catalog


CATALOG: dict[str, str] = _merge()
