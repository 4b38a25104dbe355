"""The Markdown gallery of ``figures/``: each figure's PNG with one line on what it shows."""

from __future__ import annotations

from pathlib import Path

from ..i18n import language, tr, tr_noop
from ..plots.style import FIGURE_DPI
from .registry import FIGURE_REGISTRY, figure_names

_LESSON_TITLES = {
    "01": tr_noop("Attention vs MLP: who does what"),
    "02": tr_noop("Linear collapse: why the activation is the point"),
    "03": tr_noop("Activation curves and their derivatives"),
    "04": tr_noop("The plain FFN: up, activate, down"),
    "05": tr_noop("Gating: from plain FFN to SwiGLU"),
    "06": tr_noop("The 8/3 derivation"),
    "07": tr_noop("MiniMind's FeedForward, line by line"),
    "08": tr_noop("What the MLP buys: a tiny MiniMind, trained"),
    "09": tr_noop("How much does an MLP hold? Bits per parameter, with and without it"),
    "10": tr_noop("When every token shares one MLP: toward MoE"),
}
#: Each edition's README (at the repository root) and the folder of its figures, relative to it.
README_NAMES = {"en": "README.md", "zh": "README.zh.md"}
FIGURE_DIRS = {"en": "figures", "zh": "figures/zh"}


GALLERY_START = "<!-- figures:start (written by python -m minimind_lab.figures --gallery) -->"
GALLERY_END = "<!-- figures:end -->"


def default_gallery_path(lang: str = "en") -> Path:
    """The edition's README at the repository root (``README.md``, ``README.zh.md``): the
    gallery sits between two marker comments."""
    if lang not in README_NAMES:
        raise ValueError(f"unknown language {lang!r}; expected one of {', '.join(README_NAMES)}")
    return Path(__file__).resolve().parents[2] / README_NAMES[lang]


def readme_gallery(readme_text: str) -> str:
    """The gallery section currently between the markers of ``readme_text`` ("" if absent)."""
    if GALLERY_START not in readme_text or GALLERY_END not in readme_text:
        return ""
    return readme_text.split(GALLERY_START, 1)[1].split(GALLERY_END, 1)[0].strip("\n") + "\n"


def with_gallery(readme_text: str, lang: str = "en") -> str:
    """``readme_text`` with the gallery between its markers replaced by the current one, in
    edition ``lang`` (``"en"`` or ``"zh"``).

    Raises ``ValueError`` when the markers are missing, rather than guessing where it goes.
    """
    if GALLERY_START not in readme_text or GALLERY_END not in readme_text:
        raise ValueError(
            f"README has no gallery markers; add {GALLERY_START!r} and "
            f"{GALLERY_END!r} where the gallery belongs"
        )
    before = readme_text.split(GALLERY_START, 1)[0]
    after = readme_text.split(GALLERY_END, 1)[1]
    return f"{before}{GALLERY_START}\n{gallery_markdown(lang=lang)}{GALLERY_END}{after}"


def gallery_markdown(figure_dir: str | None = None, lang: str = "en") -> str:
    """The gallery as Markdown, grouped by lesson, in edition ``lang``; image links are relative
    to the repo root (``figure_dir``: the edition's folder unless given)."""
    with language(lang):
        return _gallery_markdown(figure_dir or FIGURE_DIRS[lang], lang)


def _gallery_markdown(figure_dir: str, lang: str) -> str:
    option = "" if lang == "en" else f" --lang {lang}"
    lines = [
        tr("## Figures"),
        "",
        tr(
            "Every file in `{folder}/` is drawn by the same plot function the lesson notebook "
            "calls;\n`python -m minimind_lab.figures{option}` regenerates them all in about half "
            "a minute on a 2-core CPU, most of it training lesson 08's models (PNG at {dpi} dpi "
            "for slides, SVG for the web; `--only NAME`, `--list`), and\n"
            "`tests/test_figures.py` fails when a committed figure is out of date.",
            folder=figure_dir,
            option=option,
            dpi=FIGURE_DPI,
        ),
    ]
    lesson = None
    for name in figure_names():
        spec = FIGURE_REGISTRY[name]
        if spec.lesson != lesson:
            lesson = spec.lesson
            title = tr(_LESSON_TITLES[lesson]) if lesson in _LESSON_TITLES else ""
            heading = tr("### Lesson {number}", number=lesson)
            lines += ["", heading + (tr(": {title}", title=title) if title else "")]
        caption = tr(spec.caption)
        lines += [
            "",
            tr(
                "**`{name}`**: {caption} ([SVG]({folder}/{name}.svg); drawn by `{function}`)",
                name=name,
                caption=caption,
                folder=figure_dir,
                function=f"l{spec.lesson}.{spec.plot_function}",
            ),
            "",
            f"![{caption}]({figure_dir}/{name}.png)",
        ]
    return "\n".join(lines).rstrip() + "\n"
