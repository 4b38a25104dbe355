"""The two editions of every lesson: ``notebooks/NN_x.ipynb`` and its Chinese twin
``notebooks/zh/NN_x.ipynb`` run the same code, cell for cell.

The twin has the same cells in the same order (types and metadata: tags, hidden flags), and each
code cell equal to its English one once comments and the text of string literals are set aside:
what may differ is a literal a reader sees, and a translated literal must contain Chinese (or be
the language choice itself, ``"en"`` → ``"zh"``). A format template keeps its replacement fields
(``{acc:.3f}``) and an f-string its expressions and format specs, in any order, so both editions
print the same digits. Everything else (a name, a number, a call, a data string such as
``"silu"``) must be equal, so the editions cannot drift apart. Strict nbval runs both editions.
"""

from __future__ import annotations

import ast
import json
import re
import string
import unicodedata
from pathlib import Path

import pytest
from IPython.core.inputtransformer2 import TransformerManager

from minimind_lab.lessons.registry import LESSONS
from tests.test_notebooks import _cells, _source

ROOT = Path(__file__).resolve().parents[1]
PAIRS = [
    (ROOT / "notebooks" / entry.notebook, ROOT / "notebooks" / "zh" / entry.notebook)
    for entry in LESSONS
]
#: What the stored outputs of a lesson must never show: a label drawn without its translation,
#: or a glyph missing from every font.
FORBIDDEN_OUTPUT = ("MissingTranslationWarning", "missing from font")


def has_cjk(text: str) -> bool:
    """Whether ``text`` holds a CJK ideograph."""
    return any("\u4e00" <= ch <= "\u9fff" or "\u3400" <= ch <= "\u4dbf" for ch in text)


def _template_fields(text: str) -> list[str] | None:
    """The ``str.format`` fields of ``text``, sorted; ``None`` if it is no valid template."""
    try:
        parsed = list(string.Formatter().parse(text))
    except ValueError:
        return None
    return sorted(f"{n}!{c}:{s}" for _, n, s, c in parsed if n is not None)


class _Masked(ast.NodeTransformer):
    """Replaces each string literal by a placeholder and keeps its text in ``texts``; an
    f-string becomes its sorted expressions (with conversions and format specs)."""

    def __init__(self) -> None:
        self.texts: list[str] = []

    def visit_Constant(self, node: ast.Constant) -> ast.AST:
        if isinstance(node.value, str):
            self.texts.append(node.value)
            return ast.copy_location(ast.Constant(value="<text>"), node)
        return node

    def visit_JoinedStr(self, node: ast.JoinedStr) -> ast.AST:
        fields, literal = [], []
        for value in node.values:
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                literal.append(value.value)
            elif isinstance(value, ast.FormattedValue):
                inner = value.value
                if isinstance(inner, ast.Constant) and isinstance(inner.value, str):
                    # A text placed with a format spec (a table header, f"{'closed':>13}"):
                    # its text may be translated, its spec may not.
                    self.texts.append(inner.value)
                    value = ast.FormattedValue(
                        ast.Constant("<text>"), value.conversion, value.format_spec
                    )
                fields.append(ast.dump(value))
        fields.sort()
        self.texts.append("".join(literal))
        return ast.copy_location(ast.Constant(value="<f-string: " + " | ".join(fields) + ">"), node)


def masked(code: str) -> tuple[str, list[str]]:
    """``code``'s syntax tree with string texts set aside (comments never reach it), and the
    texts in order. IPython's ``%magics`` are turned into Python first."""
    python = TransformerManager().transform_cell(code)
    tree = ast.parse(python)
    masker = _Masked()
    return ast.dump(masker.visit(tree)), masker.texts


def text_may_differ(english: str, chinese: str) -> str | None:
    """``None`` if ``chinese`` may stand for ``english`` in a twin's code; else why not."""
    if english == chinese or (english, chinese) == ("en", "zh"):
        return None
    if not has_cjk(chinese):
        return f"{english!r} became {chinese!r}: a translated string must contain Chinese"
    if _template_fields(english) != _template_fields(chinese):
        return f"{english!r} → {chinese!r}: the format fields differ"
    return None


def _comparable_metadata(cell: dict) -> dict:
    """A cell's metadata with the uncompared cell's reason kept as present or not: its text is
    written in the edition's language."""
    metadata = dict(cell.get("metadata", {}))
    if "uncompared_because" in metadata:
        metadata["uncompared_because"] = bool(metadata["uncompared_because"])
    return metadata


def twin_differences(english_cells: list[dict], chinese_cells: list[dict]) -> list[str]:
    """Every way the Chinese cells differ from the English beyond the language (empty: twins)."""
    problems = []
    if len(english_cells) != len(chinese_cells):
        return [f"{len(english_cells)} cells in English, {len(chinese_cells)} in Chinese"]
    for i, (en, zh) in enumerate(zip(english_cells, chinese_cells, strict=True)):
        if en["cell_type"] != zh["cell_type"]:
            problems.append(f"cell {i}: {en['cell_type']} in English, {zh['cell_type']} in Chinese")
            continue
        if _comparable_metadata(en) != _comparable_metadata(zh):
            problems.append(f"cell {i}: other metadata {en.get('metadata')} → {zh.get('metadata')}")
        if en["cell_type"] != "code":
            continue
        (en_tree, en_texts), (zh_tree, zh_texts) = masked(_source(en)), masked(_source(zh))
        if en_tree != zh_tree:
            problems.append(f"cell {i}: the code differs, not only its text:\n{_source(zh)}")
            continue
        for english, chinese in zip(en_texts, zh_texts, strict=True):
            why = text_may_differ(english, chinese)
            if why:
                problems.append(f"cell {i}: {why}")
    return problems


def _skip_if_missing(path: Path) -> None:
    if not path.is_file():
        pytest.skip("the twin test reports the missing notebook")


@pytest.mark.parametrize(("english", "chinese"), PAIRS, ids=lambda p: p.name[:2])
def test_each_lesson_has_a_chinese_twin_with_the_same_code(english: Path, chinese: Path) -> None:
    assert chinese.is_file(), f"{chinese.relative_to(ROOT)} is missing"
    problems = twin_differences(_cells(english), _cells(chinese))
    assert not problems, f"{chinese.name} is not {english.name}'s twin:\n" + "\n".join(problems)


@pytest.mark.parametrize(("english", "chinese"), PAIRS, ids=lambda p: p.name[:2])
def test_each_edition_chooses_its_language_first(english: Path, chinese: Path) -> None:
    _skip_if_missing(chinese)
    for path, lang in ((english, "en"), (chinese, "zh")):
        first = next(c for c in _cells(path) if c["cell_type"] == "code")
        assert f'set_language("{lang}")' in _source(first), f"{path}: first cell must choose {lang}"


@pytest.mark.parametrize(("english", "chinese"), PAIRS, ids=lambda p: p.name[:2])
def test_the_chinese_prose_is_chinese_and_links_the_english(english: Path, chinese: Path) -> None:
    _skip_if_missing(chinese)
    for i, (en, zh) in enumerate(zip(_cells(english), _cells(chinese), strict=True)):
        if en["cell_type"] != "markdown":
            continue
        prose = sum(ch.isalpha() for ch in _source(en))
        assert prose < 40 or has_cjk(_source(zh)), f"{chinese.name} cell {i} is not in Chinese"
    assert f"(zh/{english.name})" in _source(_cells(english)[0]), "English must link its twin"
    assert f"(../{english.name})" in _source(_cells(chinese)[0]), "Chinese must link the English"


@pytest.mark.parametrize("path", [p for pair in PAIRS for p in pair], ids=lambda p: str(p)[-40:])
def test_no_stored_output_shows_a_missing_translation_or_glyph(path: Path) -> None:
    _skip_if_missing(path)
    for i, cell in enumerate(_cells(path)):
        outputs = json.dumps(cell.get("outputs", []), ensure_ascii=False)
        for text in FORBIDDEN_OUTPUT:
            assert text not in outputs, f"{path.name} cell {i} stores {text!r}"


def _punctuation(ch: str) -> bool:
    return unicodedata.category(ch).startswith(("P", "S"))


def emphasis_that_does_not_render(markdown: str) -> list[str]:
    """Each ``**`` or ``*`` run that CommonMark will not take as the opening or closing of
    emphasis (it then shows the asterisks): an opener must be left-flanking, a closer
    right-flanking. Chinese trips the rule where a bold term ends in full-width punctuation and
    a character follows: ``**梯度（gradient）**通过`` renders its asterisks,
    ``**梯度**（gradient）`` does not. Code spans and maths are skipped, and list bullets."""
    problems = []
    text = re.sub(r"`[^`]*`|\$[^$]*\$", lambda m: "x" * len(m.group(0)), markdown)
    for line in text.split("\n"):
        open_run = False
        for run in re.finditer(r"\*+", line):
            start, end = run.span()
            if not line[:start].strip() and line[end : end + 1] == " ":
                continue  # a bullet
            before = line[start - 1] if start else " "
            after = line[end] if end < len(line) else " "
            left = not after.isspace() and (
                not _punctuation(after) or before.isspace() or _punctuation(before)
            )
            right = not before.isspace() and (
                not _punctuation(before) or after.isspace() or _punctuation(after)
            )
            if not (right if open_run else left):
                problems.append(line[max(0, start - 12) : end + 12])
            open_run = not open_run
    return problems


@pytest.mark.parametrize(("english", "chinese"), PAIRS, ids=lambda p: p.name[:2])
def test_the_chinese_emphasis_renders(english: Path, chinese: Path) -> None:
    _skip_if_missing(chinese)
    for i, cell in enumerate(_cells(chinese)):
        if cell["cell_type"] == "markdown":
            bad = emphasis_that_does_not_render(_source(cell))
            assert not bad, f"{chinese.name} cell {i}: asterisks that will show: {bad}"


def test_the_emphasis_check_knows_the_chinese_trap() -> None:
    assert emphasis_that_does_not_render("**梯度（gradient）**通过") != []
    assert emphasis_that_does_not_render("**梯度**（gradient）通过") == []
    assert emphasis_that_does_not_render("* 一项 **要点**。") == []
    assert emphasis_that_does_not_render("`**x**`（代码）与 $a*b*c$") == []


# The comparison itself: what it lets through and what it stops.
_CELL = 'acc = fit(x, "silu")\nprint(f"accuracy {acc:.3f} after {n} steps")  # one run\n'


@pytest.mark.parametrize(
    ("chinese", "verdict"),
    [
        ('acc = fit(x, "silu")\nprint(f"{n} 步后准确率 {acc:.3f}")  # 一次运行\n', None),
        ('acc = fit(x, "relu")\nprint(f"{n} 步后准确率 {acc:.3f}")\n', "must contain Chinese"),
        ('acc = fit(x, "silu")\nprint(f"{n} 步后准确率 {acc:.2f}")\n', "the code differs"),
        ('acc = fit(x, "silu")\nprint(f"准确率 {acc:.3f}")\n', "the code differs"),
        ('acc = fit(x, "silu")\nprint(f"accuracy {acc:.3f} after {n} steps!")\n', "must contain"),
        ('accuracy = fit(x, "silu")\nprint(f"准确率 {accuracy:.3f} {n}")\n', "the code differs"),
        (
            'acc = fit(x, "silu")\nprint(f"{n} 步后准确率 {acc:.3f}")\nprint(1)\n',
            "the code differs",
        ),
    ],
)
def test_the_twin_comparison_allows_only_translated_text(chinese: str, verdict: str | None) -> None:
    english = [{"cell_type": "code", "metadata": {}, "source": _CELL}]
    problems = twin_differences(english, [{"cell_type": "code", "metadata": {}, "source": chinese}])
    if verdict is None:
        assert problems == []
    else:
        assert len(problems) == 1 and verdict in problems[0], problems


def test_the_twin_comparison_checks_templates_metadata_and_the_language_choice() -> None:
    def cell(source: str, tags: tuple[str, ...] = ()) -> dict:
        return {"cell_type": "code", "metadata": {"tags": list(tags)}, "source": source}

    assert twin_differences([cell('set_language("en")')], [cell('set_language("zh")')]) == []
    assert twin_differences([cell('set_language("en")')], [cell('set_language("fr")')])
    assert (
        "format fields"
        in twin_differences(
            [cell('tr("{a} of {b}", a=1, b=2)')], [cell('tr("{b} 中的 {a:.2f}", a=1, b=2)')]
        )[0]
    )
    assert (
        twin_differences(
            [cell('tr("{a} of {b}", a=1, b=2)')], [cell('tr("{b} 中的 {a}", a=1, b=2)')]
        )
        == []
    )
    assert (
        twin_differences(
            [cell("print(f\"{'closed':>13}{x:.2f}\")")], [cell("print(f\"{'压住':>13}{x:.2f}\")")]
        )
        == []
    )
    assert (
        "the code differs"
        in twin_differences(
            [cell("print(f\"{'closed':>13}\")")], [cell("print(f\"{'压住':>11}\")")]
        )[0]
    )
    assert "metadata" in twin_differences([cell("x", ("solution",))], [cell("x")])[0]
    markdown = {"cell_type": "markdown", "metadata": {}, "source": "x"}
    assert "markdown in Chinese" in twin_differences([cell("x")], [markdown])[0]
