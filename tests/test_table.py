"""Tables padded by display width: a CJK character takes two columns."""

from __future__ import annotations

import pytest

from minimind_lab.i18n import language
from minimind_lab.i18n.table import display_width, pad, table_text, text_table


def test_display_width_counts_a_wide_character_as_two_columns() -> None:
    assert display_width("SwiGLU") == 6
    assert display_width("朴素 FFN") == 2 * 2 + 4
    assert display_width("（全角）") == 8  # full-width brackets too


def test_a_chinese_table_lines_up_where_character_counts_would_not() -> None:
    table = text_table(["模型", "loss"], [["朴素 FFN", "0.31"], ["SwiGLU", "0.12"]])
    lines = table.splitlines()
    assert {display_width(line) for line in lines} == {display_width(lines[0])}  # right edges
    assert len({len(line) for line in lines}) > 1  # where character counts differ


def test_an_english_table_is_what_format_would_write() -> None:
    table = text_table(["model", "loss"], [["plain", "0.31"], ["SwiGLU", "0.12"]])
    assert table == "model   loss\nplain   0.31\nSwiGLU  0.12"


def test_table_text_pads_by_display_width_in_an_f_string() -> None:
    with language("zh"):
        label = table_text("Activations")  # a lesson title: 激活函数
    assert label == "激活函数" and display_width(f"{label:<10}|") == 11
    assert f"{table_text('Activations'):>13}" == "  Activations"


@pytest.mark.parametrize(
    ("call", "words"),
    [
        (lambda: text_table(["a", "b"], [["1"]]), "row 0 has 1 entries; the header has 2"),
        (lambda: text_table(["a", "b"], [["1", "2"]], align="<"), "align must give one"),
        (lambda: text_table([], []), "at least one column"),
        (lambda: text_table(["a"], [["1"]], gap=0), "gap must be at least 1"),
        (lambda: pad("x", 3, "="), "align must be"),
    ],
)
def test_bad_tables_are_refused_naming_the_problem(call, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        call()


@pytest.mark.parametrize("align", ["<", ">", "^"])
def test_pad_reaches_the_width_in_display_columns(align: str) -> None:
    for text in ("ab", "中文", "混合 mix"):
        assert display_width(pad(text, 12, align)) == 12
    assert pad("much too long", 4, align) == "much too long"
