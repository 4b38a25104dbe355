"""The lessons' two languages: English (``"en"``, the default) and Chinese (``"zh"``).

A notebook chooses its language once, in its first code cell (``set_language("zh")`` in
``notebooks/zh/``); every label a plot or widget draws, and every line the package prints for a
lesson, then goes through ``tr``::

    ax.set_xlabel(tr("hidden size h"))
    print(tr("accuracy {acc:.2f} after {steps} steps", acc=acc, steps=steps))

``tr`` returns the English text as written in English, and the catalogue's translation
(``minimind_lab.i18n.zh``) in Chinese; ``fields`` are filled in after the lookup, so a translation
may put them in another order. A label chosen at run time (a dict key, a model's name) is marked
where it is written with ``tr_noop`` so the catalogue test finds it, and translated where it is
drawn with ``tr(name)``. A text with no translation is drawn in English with a
``MissingTranslationWarning`` (the tests turn that warning into an error).

Chinese figures need a CJK font: ``set_language("zh")`` adds Noto Sans CJK SC, which the
``mpl-font`` package installs, behind DejaVu Sans (matplotlib's default), so Latin letters, digits
and mathematical signs look as they do in the English figures and only CJK characters fall back
to Noto.
"""

from __future__ import annotations

import importlib.util
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

__all__ = [
    "LANGUAGES",
    "MissingTranslationWarning",
    "cjk_font_path",
    "get_language",
    "language",
    "set_language",
    "tr",
    "tr_noop",
]

#: The languages a lesson can be read in.
LANGUAGES: tuple[str, ...] = ("en", "zh")
#: The CJK font's family name, and where the ``mpl-font`` package keeps the file.
CJK_FAMILY = "Noto Sans CJK SC"
_CJK_FONT_PACKAGE = "mpl_font"
_CJK_FONT_FILE = ("fonts", "noto", "NotoSansCJKsc-Regular.otf")
#: matplotlib's default sans-serif first: Latin text renders as in the English figures.
_LATIN_FAMILY = "DejaVu Sans"

_current = "en"


class MissingTranslationWarning(UserWarning):
    """A text drawn or printed in Chinese had no entry in the catalogue (shown in English)."""


def _check_language(lang: object) -> str:
    if not isinstance(lang, str) or lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; expected one of {', '.join(LANGUAGES)}")
    return lang


def cjk_font_path() -> Path:
    """The Noto Sans CJK SC font file that ``mpl-font`` installs (found without importing it:
    its ``__init__`` imports pyplot). Raises ``RuntimeError`` naming the package if missing."""
    spec = importlib.util.find_spec(_CJK_FONT_PACKAGE)
    locations = list(spec.submodule_search_locations or []) if spec else []
    for location in locations:
        path = Path(location).joinpath(*_CJK_FONT_FILE)
        if path.is_file():
            return path
    raise RuntimeError(
        "Chinese figures need the Noto Sans CJK SC font from the mpl-font package, which is not "
        "installed; run `pip install mpl-font` (python3 run.py installs it)"
    )


def _use_cjk_font() -> None:
    """Register the CJK font with matplotlib (once) and put it behind the Latin font."""
    import matplotlib
    from matplotlib import font_manager

    path = cjk_font_path()
    if not any(entry.fname == str(path) for entry in font_manager.fontManager.ttflist):
        font_manager.fontManager.addfont(str(path))
    # Glyph fallback walks ``font.family`` itself (a generic name such as "sans-serif" is not
    # expanded into a fallback list), so both fonts are named there.
    matplotlib.rcParams["font.family"] = [_LATIN_FAMILY, CJK_FAMILY]


def set_language(lang: str) -> None:
    """Make ``lang`` (``"en"`` or ``"zh"``) the language of every label, widget and printed line
    from now on; for ``"zh"`` also set up the CJK font. An unknown name raises ``ValueError``."""
    global _current
    lang = _check_language(lang)
    if lang == "zh":
        _use_cjk_font()
    else:
        import matplotlib

        # Undo only what Chinese set: a learner's own font choice (matplotlibrc) stays.
        if list(matplotlib.rcParams["font.family"]) == [_LATIN_FAMILY, CJK_FAMILY]:
            matplotlib.rcParams["font.family"] = matplotlib.rcParamsDefault["font.family"]
    _current = lang


def get_language() -> str:
    """The language ``tr`` translates into now (``"en"`` until ``set_language`` is called)."""
    return _current


@contextmanager
def language(lang: str) -> Iterator[None]:
    """``set_language(lang)`` for the ``with`` block; the language and matplotlib's font
    settings are restored afterwards (the figures command renders each edition in one)."""
    import matplotlib

    global _current
    lang = _check_language(lang)
    before = _current
    with matplotlib.rc_context():
        try:
            set_language(lang)
            yield
        finally:
            _current = before


def tr(text: str, /, **fields: object) -> str:
    """``text`` in the current language, with ``fields`` filled in by ``str.format``.

    ``text`` is the English, which is also the catalogue's key. Without ``fields`` the text is
    returned as it is (braces and all), so plain labels need no escaping.
    """
    if not isinstance(text, str):
        raise TypeError(f"tr translates a str, got {type(text).__name__}: {text!r}")
    out = text
    if _current != "en":
        from .zh import CATALOG

        found = CATALOG.get(text)
        if found is None:
            warnings.warn(
                f"no Chinese for {text!r}; shown in English (add it to minimind_lab/i18n/zh/)",
                MissingTranslationWarning,
                stacklevel=2,
            )
        else:
            out = found
    return out.format(**fields) if fields else out


def tr_noop(text: str) -> str:
    """Mark ``text`` for the catalogue without translating it now: for labels chosen at run
    time and translated where they are drawn (``tr(name)``). Returns ``text`` unchanged."""
    return text
