"""The Markdown gallery of ``figures/``: each figure's PNG with one line on what it shows."""

from __future__ import annotations

from pathlib import Path

from ..plots.style import FIGURE_DPI
from .registry import FIGURE_REGISTRY, figure_names

_LESSON_TITLES = {
    "01": "Attention vs MLP: who does what",
    "02": "Linear collapse: why the activation is the point",
    "03": "Activation curves and their derivatives",
    "04": "The plain FFN: up, activate, down",
    "05": "Gating: from plain FFN to SwiGLU",
    "06": "The 8/3 derivation",
    "07": "MiniMind's FeedForward, line by line",
    "08": "What the MLP buys: a tiny MiniMind, trained",
    "09": "How much does an MLP hold? Bits per parameter, with and without it",
    "10": "When every token shares one MLP: toward MoE",
}


GALLERY_START = "<!-- figures:start (written by python -m minimind_lab.figures --gallery) -->"
GALLERY_END = "<!-- figures:end -->"


def default_gallery_path() -> Path:
    """``README.md`` at the repository root: the gallery sits between two marker comments."""
    return Path(__file__).resolve().parents[2] / "README.md"


def readme_gallery(readme_text: str) -> str:
    """The gallery section currently between the markers of ``readme_text`` ("" if absent)."""
    if GALLERY_START not in readme_text or GALLERY_END not in readme_text:
        return ""
    return readme_text.split(GALLERY_START, 1)[1].split(GALLERY_END, 1)[0].strip("\n") + "\n"


def with_gallery(readme_text: str) -> str:
    """``readme_text`` with the gallery between its markers replaced by the current one.

    Raises ``ValueError`` when the markers are missing, rather than guessing where it goes.
    """
    if GALLERY_START not in readme_text or GALLERY_END not in readme_text:
        raise ValueError(
            f"README has no gallery markers; add {GALLERY_START!r} and "
            f"{GALLERY_END!r} where the gallery belongs"
        )
    before = readme_text.split(GALLERY_START, 1)[0]
    after = readme_text.split(GALLERY_END, 1)[1]
    return f"{before}{GALLERY_START}\n{gallery_markdown()}{GALLERY_END}{after}"


def gallery_markdown(figure_dir: str = "figures") -> str:
    """The gallery as Markdown, grouped by lesson; image links are relative to the repo root."""
    lines = [
        "## Figures",
        "",
        "Every file in `figures/` is drawn by the same plot function the lesson notebook calls;",
        "`python -m minimind_lab.figures` regenerates them all in about half a minute on a 2-core "
        "CPU, most of it training lesson 08's models (PNG at "
        f"{FIGURE_DPI} dpi for slides, SVG for the web; `--only NAME`, `--list`), and",
        "`tests/test_figures.py` fails when a committed figure is out of date.",
    ]
    lesson = None
    for name in figure_names():
        spec = FIGURE_REGISTRY[name]
        if spec.lesson != lesson:
            lesson = spec.lesson
            title = _LESSON_TITLES.get(lesson, "")
            lines += ["", f"### Lesson {lesson}" + (f": {title}" if title else "")]
        lines += [
            "",
            f"**`{name}`**: {spec.caption} ([SVG]({figure_dir}/{name}.svg); drawn by "
            f"`l{spec.lesson}.{spec.plot_function}`)",
            "",
            f"![{spec.caption}]({figure_dir}/{name}.png)",
        ]
    return "\n".join(lines).rstrip() + "\n"
