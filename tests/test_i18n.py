"""The language switch and the Chinese catalogue (``minimind_lab.i18n``).

Every text the package marks for translation (``tr("...")``, ``tr_noop("...")``) has a Chinese
entry with the same ``{fields}``, no entry is left over, and each widget builds in Chinese with
every label found and every glyph in the fonts. The figures in Chinese are rendered and compared
in ``tests/test_figures.py``.
"""

from __future__ import annotations

import ast
import io
import string
import warnings
from pathlib import Path

import matplotlib
import pytest
from matplotlib.figure import Figure

from minimind_lab import i18n
from minimind_lab.i18n import (
    LANGUAGES,
    MissingTranslationWarning,
    cjk_font_path,
    get_language,
    language,
    set_language,
    tr,
    tr_noop,
)
from minimind_lab.i18n.zh import CATALOG, MODULES
from minimind_lab.lessons.registry import LESSONS
from minimind_lab.widgets import all_widgets

PACKAGE = Path(i18n.__file__).resolve().parents[1]
MARKERS = ("tr", "tr_noop")


def _marked_texts() -> dict[str, list[str]]:
    """Every literal passed to ``tr``/``tr_noop`` in the package → where (``file:line``)."""
    found: dict[str, list[str]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        if "i18n" in path.parts:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            name = getattr(node.func, "id", getattr(node.func, "attr", None))
            first = node.args[0]
            if name in MARKERS and isinstance(first, ast.Constant) and isinstance(first.value, str):
                where = f"{path.relative_to(PACKAGE.parent)}:{node.lineno}"
                found.setdefault(first.value, []).append(where)
    return found


def _fields(text: str) -> list[tuple[str, str, str]]:
    return sorted(
        (name, conversion or "", spec or "")
        for _, name, spec, conversion in string.Formatter().parse(text)
        if name is not None
    )


@pytest.fixture(autouse=True)
def _english_afterwards():
    """Each test leaves the process in English, as it found it."""
    yield
    set_language("en")


def test_every_marked_text_has_a_chinese_entry() -> None:
    missing = {text: where for text, where in _marked_texts().items() if text not in CATALOG}
    assert not missing, "no Chinese for:\n" + "\n".join(
        f"  {where[0]}: {text!r}" for text, where in sorted(missing.items(), key=lambda i: i[1])
    )


def test_no_catalogue_entry_is_left_unused() -> None:
    unused = sorted(set(CATALOG) - set(_marked_texts()))
    assert not unused, f"entries no tr/tr_noop call marks (remove them): {unused}"


def test_each_translation_keeps_the_fields_of_its_english() -> None:
    wrong = {e: c for e, c in CATALOG.items() if _fields(e) != _fields(c)}
    assert not wrong, f"fields differ between English and Chinese: {wrong}"


def test_no_translation_is_blank() -> None:
    # A label that Chinese writing keeps as it is (a code name, a symbol) may equal its key, and
    # one may differ only in punctuation (a full-width colon).
    blank = [e for e, c in CATALOG.items() if e.strip() and not c.strip()]
    assert not blank, f"blank translations: {blank}"


def test_the_catalogue_has_one_module_per_lesson_and_the_shared_ones() -> None:
    topics = {f"l{entry.number}_{entry.topic}" for entry in LESSONS}
    assert set(MODULES) == topics | {"common", "figures"}


def test_tr_fills_fields_after_the_lookup_and_leaves_braces_without_fields() -> None:
    assert tr("{n} steps, accuracy {acc:.2f}", n=3, acc=0.5) == "3 steps, accuracy 0.50"
    assert tr("a set {x}") == "a set {x}"
    assert tr_noop("plain MLP") == "plain MLP"
    with language("zh"):
        assert tr("Nothing drawn: {message}", message="m") == "未能绘制：m"
    with pytest.raises(TypeError, match="tr translates a str, got int"):
        tr(3)  # type: ignore[arg-type]


def test_a_missing_translation_warns_and_shows_the_english() -> None:
    with language("zh"), pytest.warns(MissingTranslationWarning, match="no Chinese for 'zzz'"):
        assert tr("zzz") == "zzz"


@pytest.mark.parametrize("bad", ["fr", "EN", "", None, 1])
def test_an_unknown_language_is_refused_by_name(bad: object) -> None:
    with pytest.raises(ValueError, match=r"unknown language .*expected one of en, zh"):
        set_language(bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown language"):
        with language(bad):  # type: ignore[arg-type]
            pass
    assert get_language() == "en"


def test_language_restores_the_language_and_the_fonts() -> None:
    before = list(matplotlib.rcParams["font.family"])
    with language("zh"):
        assert get_language() == "zh"
        assert "Noto Sans CJK SC" in matplotlib.rcParams["font.family"]
    assert get_language() == "en" and matplotlib.rcParams["font.family"] == before
    set_language("zh")
    set_language("en")
    assert matplotlib.rcParams["font.family"] == before
    with matplotlib.rc_context({"font.family": ["serif"]}):  # a learner's own choice
        set_language("en")
        assert matplotlib.rcParams["font.family"] == ["serif"]
    assert LANGUAGES == ("en", "zh")


def test_the_cjk_font_comes_from_a_package_and_draws_every_glyph() -> None:
    path = cjk_font_path()
    assert path.is_file() and "mpl_font" in path.parts, path
    for fmt in ("png", "svg"):
        with language("zh"), warnings.catch_warnings():
            warnings.simplefilter("error")  # matplotlib warns "Glyph ... missing from font(s)"
            fig = Figure(figsize=(3, 1))
            fig.text(0.1, 0.5, "门控分支 gate − 8/3 ≈ 2.67 ∂y/∂x")
            fig.savefig(io.BytesIO(), format=fmt)
    with warnings.catch_warnings(record=True) as caught:  # the control: English fonts lack it
        warnings.simplefilter("always")
        fig = Figure(figsize=(3, 1))
        fig.text(0.1, 0.5, "门控")
        fig.savefig(io.BytesIO(), format="png")
    assert any("missing from font" in str(w.message) for w in caught)


def test_the_english_edition_draws_with_matplotlibs_default_font() -> None:
    """English figures stay byte-identical: no font setting leaks from a Chinese run."""
    with language("zh"):
        pass
    assert matplotlib.rcParams["font.family"] == matplotlib.rcParamsDefault["font.family"]


@pytest.mark.slow
@pytest.mark.parametrize("name", list(all_widgets()))
def test_each_widget_builds_in_chinese_with_every_label_translated(name: str) -> None:
    _, builder = all_widgets()[name]
    with language("zh"), warnings.catch_warnings():
        warnings.simplefilter("error", MissingTranslationWarning)
        warnings.filterwarnings("error", message="Glyph .* missing from font")
        plot = builder()
        assert plot.last_error is None, plot.last_error
        assert bytes(plot.image.value).startswith(b"\x89PNG")
        summary = plot.text.value
    assert any("\u4e00" <= ch <= "\u9fff" for ch in summary), (
        f"{name}: its summary is not in Chinese: {summary[:200]!r}"
    )
