"""The one list of lessons: number, topic, notebook and title, read by every layer.

Tests, figures, widgets, the README's lesson table, the benchmarks and the browser suite all take
the lessons from ``LESSONS``, so adding lesson NN is one entry here plus its own files
(docs/CONVENTIONS.md, "Adding lesson NN"). Standard library only: importing this never loads
torch, matplotlib or a lesson.

Lesson NN with topic ``t`` lives under one key, ``lNN_t``, through every layer:

* ``minimind_lab/lessons/lNN_t.py`` (or a package ``lNN_t/``): task, probes, experiments, ``SETUP``;
* ``minimind_lab/plots/lNN_t.py``: what it draws; ``minimind_lab/widgets/lNN_t.py``: its widget;
* ``minimind_lab/lessons/lNN.py``: the facade the notebook imports (``from ... import lNN``);
* ``tests/test_lNN_t.py``: its package tests; ``notebooks/<notebook>``: the lesson itself.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..i18n import tr_noop


@dataclass(frozen=True)
class Lesson:
    """One lesson. ``number``: two digits ("04"); ``topic``: the key's suffix ("width");
    ``notebook``: its file in ``notebooks/``; ``title``: the short title the README's table
    shows; ``trains``: whether the notebook trains models long enough to get its own time budget
    in the benchmarks (lesson 08's models, lesson 09's live point)."""

    number: str
    topic: str
    notebook: str
    title: str
    trains: bool = False

    def __post_init__(self) -> None:
        if len(self.number) != 2 or not self.number.isdigit():
            raise ValueError(f"lesson number must be two digits such as '04', got {self.number!r}")
        if not self.topic.isidentifier() or self.topic != self.topic.lower():
            raise ValueError(f"lesson topic must be a lower-case identifier, got {self.topic!r}")
        if not (self.notebook.startswith(f"{self.number}_") and self.notebook.endswith(".ipynb")):
            raise ValueError(
                f"lesson {self.number}'s notebook must be named '{self.number}_<name>.ipynb', "
                f"got {self.notebook!r}"
            )

    @property
    def key(self) -> str:
        """The name through every layer: ``l04_width`` (lessons/, plots/, widgets/, tests/)."""
        return f"l{self.number}_{self.topic}"

    @property
    def facade(self) -> str:
        """The module the notebook imports: ``minimind_lab.lessons.l04``."""
        return f"minimind_lab.lessons.l{self.number}"

    @property
    def module(self) -> str:
        """The lesson's compute module: ``minimind_lab.lessons.l04_width``."""
        return f"minimind_lab.lessons.{self.key}"


#: Every lesson, in order. The README's lesson table lists them in this order with these titles.
LESSONS: tuple[Lesson, ...] = (
    Lesson("01", "attention", "01_attention_vs_mlp.ipynb", tr_noop("Attention vs MLP")),
    Lesson("02", "collapse", "02_linear_collapse.ipynb", tr_noop("Linear collapse")),
    Lesson("03", "activations", "03_activations.ipynb", tr_noop("Activations")),
    Lesson("04", "width", "04_plain_ffn.ipynb", tr_noop("The plain FFN")),
    Lesson("05", "gating", "05_gating_swiglu.ipynb", tr_noop("Gating and SwiGLU")),
    Lesson("06", "sizing", "06_eight_thirds.ipynb", tr_noop("The 8/3 derivation")),
    Lesson("07", "feedforward", "07_minimind_feedforward.ipynb", tr_noop("MiniMind's FeedForward")),
    Lesson("08", "memory", "08_what_the_mlp_buys.ipynb", tr_noop("What the MLP buys"), trains=True),
    Lesson(
        "09", "capacity", "09_mlp_capacity.ipynb", tr_noop("How much an MLP holds"), trains=True
    ),
    Lesson("10", "moe", "10_toward_moe.ipynb", tr_noop("Toward MoE")),
)


def lesson(number: str) -> Lesson:
    """The lesson numbered ``number`` ("04"); an unknown number raises ``ValueError``."""
    for entry in LESSONS:
        if entry.number == number:
            return entry
    known = ", ".join(entry.number for entry in LESSONS)
    raise ValueError(f"unknown lesson {number!r}; expected one of: {known}")


def lesson_for_notebook(name: str) -> Lesson:
    """The lesson whose notebook file is ``name`` ("04_plain_ffn.ipynb"); else ``ValueError``."""
    for entry in LESSONS:
        if entry.notebook == name:
            return entry
    raise ValueError(
        f"{name!r} is not a lesson notebook; expected one of: "
        f"{', '.join(entry.notebook for entry in LESSONS)}"
    )
