"""The Chinese edition reads as written in Chinese, and every printed table lines up.

Three checks on the stored notebooks (issue 33):

- **Printed lines in Chinese.** A word of three or more Latin letters printed by a Chinese lesson
  must be a code or data name the lesson's own code uses (an identifier, or a string such as
  ``"silu"``), a name Chinese writing keeps in English (``KEPT_IN_ENGLISH``), part of a printed
  module or exception (programmer-facing, kept in English like Python's own), or printed source
  code (``inspect.getsource``).
- **Columns that line up**, in both editions: in every printed table (three or more lines of three
  or more fields two spaces apart), each column starts, ends, or turns on a shared sign at one
  display column, a CJK character counting as two (``minimind_lab.i18n.table``).
- **One word per concept** (``PINNED_TERMS``, from the course's term list): a variant the list rules
  out fails, in the Chinese lessons' prose, in README.zh.md and in the Chinese catalogue.
- **No space after full-width punctuation**: Chinese typography puts none after ：，；。、, so a
  printed line must not have one (``print(label, value)`` adds one; padding to line values up
  goes before the colon or between columns, ``minimind_lab.i18n.table``).
"""

from __future__ import annotations

import io
import json
import re
import tokenize
from collections.abc import Iterator
from pathlib import Path

import pytest

from minimind_lab.i18n.table import display_width
from minimind_lab.i18n.zh import CATALOG
from minimind_lab.lessons.registry import LESSONS

ROOT = Path(__file__).resolve().parents[1]
ZH = [ROOT / "notebooks" / "zh" / entry.notebook for entry in LESSONS]
EN = [ROOT / "notebooks" / entry.notebook for entry in LESSONS]

#: Names Chinese writing keeps in English (the course's term list), and units and library names.
KEPT_IN_ENGLISH = set(
    """
    SwiGLU GLU GEGLU ReGLU SiLU GELU ReLU Swish RMSNorm LayerNorm Pre-Norm Post-Norm RoPE GQA MQA
    MHA MoE token tokens softmax logits logit LM Head dropout MiniMind MiniMind2 minimind minimind-3
    PyTorch torch CPU CPUs GPU CUDA MPS MLP MLPs FFN FFNs Llama LLaMA GPT Adam AdamW SDPA Jacobian
    Frobenius Transformer OpenMP MKL AVX AVX2 AVX-512 ATen BLAS Hugging Face PaLM Switch DeepSeekMoE
    tanh sigmoid erf exp log log2 sqrt max min sum mean float32 float64 bfloat16 float16 int64
    bool NaN nan inf True False None MSE SGD Cover Shazeer Geva Chughtai Nichani Allen-Zhu Li Lv
    LLaMA-1 Llama-2 Llama-3 MiniMind2-Small MiniMind2-MoE minimind-3-moe GPT-2 T5 Tensor Core
    """.split()
)
_WORD = re.compile(
    r"(?<![A-Za-z0-9_.])[A-Za-z][A-Za-z0-9_'-]*[A-Za-z0-9]|(?<![A-Za-z0-9_.])[A-Za-z]"
)
#: The token names of lesson 08's toy vocabulary (subjects s24, relations r12, names n10,
#: attributes a11, the <bos> marker): data, printed as the model sees them.
_VOCABULARY_TOKEN = re.compile(r"bos|[snra]\d+")
#: A printed module (``Linear(in_features=…)``), a figure or widget repr, or an exception line.
_PROGRAMMER_LINE = re.compile(
    r"^\s*(\(\w+\): )?[A-Z]\w*\(|^<\w+|\w+(Error|Warning|Exception): |\w+=\w"
)


def _cells(path: Path) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


def _text(value: object) -> str:
    return value if isinstance(value, str) else "".join(value)  # type: ignore[arg-type]


def _code_names(cells: list[dict]) -> set[str]:
    """Every identifier and every word inside a string literal of the lesson's code."""
    names: set[str] = set()
    for cell in cells:
        if cell["cell_type"] != "code":
            continue
        try:
            for token in tokenize.generate_tokens(io.StringIO(_text(cell["source"])).readline):
                if token.type == tokenize.NAME:
                    names.add(token.string)
                elif token.type == tokenize.STRING:
                    names.update(_WORD.findall(token.string))
        except (tokenize.TokenError, IndentationError):  # a cell magic, say
            continue
    return names


def _printed(cell: dict) -> Iterator[str]:
    """The text a code cell printed (streams and plain results), unless it prints source code."""
    if cell["cell_type"] != "code" or "getsource" in _text(cell["source"]):
        return
    for output in cell.get("outputs", []):
        if output.get("output_type") == "stream":
            yield _text(output.get("text", ""))
        elif output.get("output_type") == "execute_result":
            yield _text(output.get("data", {}).get("text/plain", ""))


def english_words(path: Path) -> list[tuple[int, str, str]]:
    """``(cell, word, line)`` for each English word a lesson prints that the rules above do not
    allow."""
    cells = _cells(path)
    allowed = _code_names(cells) | KEPT_IN_ENGLISH
    found = []
    for i, cell in enumerate(cells):
        for text in _printed(cell):
            for line in text.splitlines():
                if _PROGRAMMER_LINE.search(line):
                    continue
                for word in _WORD.findall(line):
                    if _VOCABULARY_TOKEN.fullmatch(word):  # a lesson's own token names
                        continue
                    if len(word) >= 3 and word not in allowed and word.lower() not in allowed:
                        found.append((i, word, line.strip()))
    return found


@pytest.mark.parametrize("path", ZH, ids=lambda p: p.name[:2])
def test_a_chinese_lesson_prints_chinese(path: Path) -> None:
    found = english_words(path)
    shown = "\n".join(f"  cell {i}: {word!r} in {line!r}" for i, word, line in found[:12])
    assert not found, f"zh/{path.name} prints {len(found)} English words:\n{shown}"


def test_the_english_word_check_finds_an_english_table() -> None:
    """The control: the English lessons print English, and the check sees it."""
    assert any(english_words(path) for path in EN)


# --- full-width punctuation ---------------------------------------------------------------

#: Full-width punctuation that Chinese typography never follows with a space.
_SPACED_PUNCTUATION = re.compile(r"[：，；。、]\s")


def spaced_punctuation(path: Path) -> list[tuple[int, str]]:
    """``(cell, line)`` for each printed line with whitespace right after ：，；。、. A cell's
    outputs are read together, as the notebook shows them: one ``print`` can be stored as several
    stream outputs, split right after its first argument."""
    return [
        (i, line)
        for i, cell in enumerate(_cells(path))
        for line in "".join(_printed(cell)).splitlines()
        if _SPACED_PUNCTUATION.search(line)
    ]


@pytest.mark.parametrize("path", ZH, ids=lambda p: p.name[:2])
def test_no_space_after_full_width_punctuation(path: Path) -> None:
    found = spaced_punctuation(path)
    shown = "\n".join(f"  cell {i}: {line!r}" for i, line in found[:12])
    assert not found, (
        f"zh/{path.name}: {len(found)} printed lines put a space after ：，；。、 "
        f"(print one f-string, or pad before the colon):\n{shown}"
    )


def test_the_punctuation_check_sees_print_s_separator(tmp_path: Path) -> None:
    """The control: ``print("事实数：", 2048)``, also when stored as two stream outputs, and
    padding after a colon are seen; a colon followed by its value or by the end of the line is
    not."""
    outputs = [
        ["事实数： 2048\n"],
        ["设置：", " {'seeds': [0, 1]}\n"],
        ["秩：    [1, 2]\n"],
        ["宽度 m：[1, 2]\n秩    ：[1, 2]\n"],
        ["说明：\n", "事实数：2048\n"],
    ]
    cells = [
        {
            "cell_type": "code",
            "source": "",
            "outputs": [{"output_type": "stream", "text": text} for text in texts],
        }
        for texts in outputs
    ]
    page = tmp_path / "page.ipynb"
    page.write_text(json.dumps({"cells": cells}), "utf-8")
    assert [i for i, _ in spaced_punctuation(page)] == [0, 1, 2]


# --- tables ---------------------------------------------------------------------------------


def _fields(line: str) -> list[tuple[int, int, str]]:
    """``(start, end, text)`` in display columns for each run of text between 2+ spaces."""
    return [
        (display_width(line[: m.start()]), display_width(line[: m.end()]), m.group())
        for m in re.finditer(r"\S+(?: \S+)*", line)
    ]


def _tables(text: str) -> Iterator[list[list[tuple[int, int, str]]]]:
    """Runs of three or more lines that each have three or more fields."""
    block: list[list[tuple[int, int, str]]] = []
    for line in [*text.split("\n"), ""]:
        fields = _fields(line)
        if len(fields) >= 3:
            block.append(fields)
            continue
        if len(block) >= 3:
            yield block
        block = []


def _column_lines_up(cells: list[tuple[int, int, str]]) -> bool:
    """One column's cells line up: same start, same end (a trailing marker such as * aside), or
    a shared sign (→, ×, =, /, :) at one display column."""
    if len({start for start, _, _ in cells}) == 1 or len({end for _, end, _ in cells}) == 1:
        return True
    bare = {end - (len(text) - len(text.rstrip("*†· "))) for _, end, text in cells}
    if len(bare) == 1:
        return True
    for sign in "→×=/:":
        if all(sign in text for _, _, text in cells):
            at = {start + display_width(text[: text.index(sign)]) for start, _, text in cells}
            if len(at) == 1:
                return True
    return False


def misaligned_tables(path: Path) -> list[tuple[int, list[str]]]:
    """``(cell, lines)`` for each printed table with a column that does not line up."""
    found = []
    for i, cell in enumerate(_cells(path)):
        for text in _printed(cell):
            lines = text.split("\n")
            for block in _tables(text):
                count = max({len(row) for row in block}, key=[len(r) for r in block].count)
                rows = [row for row in block if len(row) == count]
                if len(rows) < 3:
                    continue
                if not all(_column_lines_up([row[k] for row in rows]) for k in range(1, count)):
                    first = next(line for line in lines if _fields(line) == block[0])
                    found.append((i, lines[lines.index(first) : lines.index(first) + len(block)]))
    return found


@pytest.mark.parametrize("path", EN + ZH, ids=lambda p: f"{p.parent.name}-{p.name[:2]}")
def test_every_printed_table_lines_up_by_display_width(path: Path) -> None:
    found = misaligned_tables(path)
    shown = "\n\n".join(f"cell {i}:\n" + "\n".join(lines) for i, lines in found[:3])
    assert not found, (
        f"{path.parent.name}/{path.name}: {len(found)} tables do not line up:\n{shown}"
    )


def test_the_table_check_sees_a_table_padded_by_characters() -> None:
    """The control: padding that counts characters breaks a Chinese table, and the check sees it."""
    rows = [("模型", "损失", "步数"), ("朴素 FFN", "0.31", "100"), ("SwiGLU", "0.12", "100")]
    text = "\n".join(f"{a:<10}{b:>6}{c:>6}" for a, b, c in rows)
    block = next(_tables(text))
    assert not all(_column_lines_up([row[k] for row in block]) for k in (1, 2))


# --- terms ----------------------------------------------------------------------------------

#: (a variant the course's term list rules out, the word to use). Matched in the Chinese
#: lessons' prose (code spans, maths and links left out), in README.zh.md and in the Chinese
#: catalogue (printed lines, widget labels, figure titles and captions).
PINNED_TERMS: list[tuple[str, str]] = [
    (r"普通 ?(FFN|MLP)", "朴素 FFN / 朴素 MLP"),
    (
        r"(门|门控)[^。，；]{0,8}关闭|关闭[^。，；]{0,4}(单元|门)",
        "压住 (a closed gate), 放行 (an open one)",
    ),
    (r"死神经元(?![^（(]*[)）])", "死单元 (死神经元 only inside its one gloss)"),
    (r"源文章", "原文"),
    (r"留出集|(?<!留出)测试集", "留出测试集"),
    (r"value ?向量", "值向量"),
    (r"事实的主体|主体（subject", "主语"),
    (r"题外话|插曲|岔路", "旁注"),
    (r"买来|买到", "带来 / 换来"),
    (
        r"(少|差|低|降低了?|减少了?|缩小了?|下降了?)约?\s*[\d.]+\s*(到\s*[\d.]+\s*)?倍",
        "a decrease as the ratio the other way or a fraction",
    ),
    (r"\d %", "a percent without a space (1%)"),
    (r"(^|\n)#* ?\**(答案|解答|参考解答)[：:*]", "参考答案"),
    (r"动手写", "动手实现"),
    (r"本课要点", "要点回顾"),
    (r"这份工作", "这个任务"),
    (r"全部故事", "来历"),
]
#: English words the course writes in Chinese in prose, outside a gloss (the parenthesis that
#: gives a term's English on first use).
ENGLISH_IN_PROSE = (
    r"(?<![A-Za-z_.-])(attention|block|widget|kernel)s?(?![A-Za-z_-])",
    "注意力 / 块 / 交互控件 / 内核",
)
#: 阴性对照 names only lesson 08's model stripped of attention; elsewhere a baseline is 对照.
NEGATIVE_CONTROL_LESSON = "08"


def _prose(path: Path) -> str:
    """A Chinese text with code spans, maths and link targets left out."""
    if path.suffix == ".ipynb":
        text = "\n".join(_text(c["source"]) for c in _cells(path) if c["cell_type"] == "markdown")
    else:
        text = path.read_text(encoding="utf-8")
    text = re.sub(r"```.*?```", "", text, flags=re.DOTALL)
    text = re.sub(r"`[^`\n]*`", "", text)
    text = re.sub(r"\$\$.*?\$\$|\$[^$\n]*\$", "", text, flags=re.DOTALL)
    return re.sub(r"\]\([^)]*\)", "]", text)


def term_problems(path: Path) -> list[str]:
    """Each ruled-out variant in ``path``'s Chinese prose, with the word to use instead."""
    text = _prose(path)
    problems = [
        f"{m.group(0)!r} → {use}"
        for pattern, use in PINNED_TERMS
        for m in re.finditer(pattern, text)
    ]
    unglossed = re.sub(r"（[^（）]*）", "", text)
    pattern, use = ENGLISH_IN_PROSE
    problems += [f"{m.group(0)!r} → {use}" for m in re.finditer(pattern, unglossed)]
    if "阴性对照" in text and not path.name.startswith(NEGATIVE_CONTROL_LESSON):
        problems.append("'阴性对照' → 对照 (阴性对照 is lesson 08's model without attention)")
    return problems


@pytest.mark.parametrize("path", [*ZH, ROOT / "README.zh.md"], ids=lambda p: p.name[:9])
def test_the_chinese_edition_uses_the_pinned_terms(path: Path) -> None:
    problems = term_problems(path)
    assert not problems, f"{path.name}: " + "; ".join(problems[:15])


def test_the_chinese_catalogue_uses_the_pinned_terms() -> None:
    """What code prints or draws (tables, widget labels, figure titles and captions) uses the
    pinned terms too: a figure's caption reaches README.zh.md, its panel title only the image."""
    problems = [
        f"{english!r}: {m.group(0)!r} → {use}"
        for english, chinese in CATALOG.items()
        for pattern, use in PINNED_TERMS
        for m in re.finditer(pattern, chinese)
    ]
    assert not problems, "; ".join(problems[:15])


def test_the_term_check_finds_a_ruled_out_variant(tmp_path: Path) -> None:
    """The control: each rule matches the variant it rules out."""
    page = tmp_path / "page.md"
    page.write_text(
        "普通 FFN 的门被关闭；这份工作的全部故事；少 1.3 倍；5 %；死神经元；attention 层；"
        "留出集与测试集。",
        "utf-8",
    )
    assert len(term_problems(page)) == 10
    page.write_text(
        "注意力（attention）；死单元（dead unit，也常叫死神经元）；1.3 倍；5%；留出测试集。",
        "utf-8",
    )
    assert term_problems(page) == []
