"""``minimind_lab.lessons.registry.LESSONS`` is the one list of lessons, and the tree follows it.

Notebooks on disk, the README's lesson table, the figures and the widgets are all checked
against it here, so a lesson added, renamed or removed in one place and not the others fails.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from minimind_lab.lessons.registry import LESSONS, Lesson, lesson, lesson_for_notebook

ROOT = Path(__file__).resolve().parents[1]


def test_the_notebooks_on_disk_are_the_registered_lessons_in_order() -> None:
    for folder in (ROOT / "notebooks", ROOT / "notebooks" / "zh"):  # each edition
        on_disk = sorted(p.name for p in folder.glob("*.ipynb"))
        assert on_disk == [entry.notebook for entry in LESSONS], folder
    numbers = [int(entry.number) for entry in LESSONS]
    assert numbers == list(range(1, len(LESSONS) + 1)), "lessons are numbered 01, 02, … with no gap"


def test_the_readme_lesson_table_lists_every_lesson_in_order_with_its_title() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| \[(\d\d) ([^\]]+)\]\(notebooks/([\w.-]+)\) \|", readme, re.M)
    expected = [(entry.number, entry.title, entry.notebook) for entry in LESSONS]
    assert rows == expected, "README's lesson table must match minimind_lab/lessons/registry.py"


def test_the_chinese_readme_lists_every_chinese_lesson_with_its_translated_title() -> None:
    from minimind_lab.i18n import language, tr

    readme = (ROOT / "README.zh.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| \[(\d\d) ([^\]]+)\]\(notebooks/zh/([\w.-]+)\) \|", readme, re.M)
    with language("zh"):
        expected = [(entry.number, tr(entry.title), entry.notebook) for entry in LESSONS]
    assert rows == expected, "README.zh.md's lesson table must match the registry, in Chinese"


def test_every_lesson_has_a_widget_and_every_figure_belongs_to_a_lesson() -> None:
    """A widget per lesson (the README promises one to play with); figures are per finding, so a
    lesson may have none (07 reads a module line by line), but each belongs to a listed lesson."""
    from minimind_lab.figures import FIGURE_REGISTRY
    from minimind_lab.widgets import all_widgets

    with_figures = {spec.lesson for spec in FIGURE_REGISTRY.values()}
    with_widgets = {number for number, _ in all_widgets().values()}
    numbers = {entry.number for entry in LESSONS}
    assert with_figures <= numbers, sorted(with_figures - numbers)
    assert with_widgets == numbers, f"lessons without a widget: {sorted(numbers - with_widgets)}"


def test_lookups_name_the_known_lessons_when_asked_for_another() -> None:
    assert lesson("04").key == "l04_width"
    assert lesson("04").facade == "minimind_lab.lessons.l04"
    assert lesson_for_notebook("08_what_the_mlp_buys.ipynb").number == "08"
    with pytest.raises(ValueError, match=r"unknown lesson '4'; expected one of: 01, 02"):
        lesson("4")
    with pytest.raises(ValueError, match="is not a lesson notebook"):
        lesson_for_notebook("4.ipynb")


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        (("4", "width", "4_x.ipynb", "T"), "two digits"),
        (("04", "Width", "04_x.ipynb", "T"), "lower-case identifier"),
        (("04", "width", "05_x.ipynb", "T"), "must be named '04_<name>.ipynb'"),
    ],
)
def test_a_malformed_entry_is_refused_with_what_was_expected(fields, message) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        Lesson(*fields)


def test_figures_and_widgets_refuse_an_unregistered_lesson() -> None:
    from minimind_lab.figures.registry import register_figure
    from minimind_lab.widgets.base import register_widget

    with pytest.raises(ValueError, match="unknown lesson '99'"):
        register_figure("never_registered", "99", "caption", "plot_width_sweep")
    with pytest.raises(ValueError, match="unknown lesson '99'"):
        register_widget("never_registered", lesson="99")
