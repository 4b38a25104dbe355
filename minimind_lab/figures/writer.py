"""Render figures to PNG and SVG bytes, deterministically, and write them all or none.

Determinism: every figure is built and saved under matplotlib's default style plus a fixed SVG
hash salt, and the files carry no date, software version or random id, so two runs give
byte-identical files. Safety: every figure is rendered into memory first; only when all succeed
are the files written, each to a temporary file in the output folder and then moved into place
with ``os.replace``; a failure leaves the folder as it was.
"""

from __future__ import annotations

import io
import os
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import matplotlib
from matplotlib.figure import Figure

from .._threads import one_thread
from ..i18n import get_language, language, set_language, tr
from ..plots.style import FIGURE_DPI
from .registry import FIGURE_REGISTRY

#: File formats written per figure: PNG for slides (at ``FIGURE_DPI``), SVG for the web.
FORMATS: tuple[str, ...] = ("png", "svg")
#: rcParams on top of matplotlib's defaults while building and saving.
_FIXED_RC = {"svg.hashsalt": "minimind-lab", "svg.fonttype": "path"}
#: Saved cropped to what is drawn, as IPython's inline backend shows a figure in a notebook, so a
#: long title is never cut off; on white, for slides with a dark theme.
_SAVE = {"bbox_inches": "tight", "pad_inches": 0.08, "facecolor": "white"}


@dataclass
class RenderedFigure:
    """One rendered figure: its files' bytes by format, the ``Figure`` and build seconds."""

    name: str
    files: dict[str, bytes]
    figure: Figure = field(repr=False)
    seconds: float


class FigureBuildError(RuntimeError):
    """One or more figures failed to build; ``failures`` maps each name to its exception."""

    def __init__(self, failures: Mapping[str, BaseException]) -> None:
        self.failures = dict(failures)
        lines = [
            f"figure {name!r} failed: {type(exc).__name__}: {exc}"
            for name, exc in self.failures.items()
        ]
        super().__init__("\n".join(lines))


def default_out_dir(lang: str = "en") -> Path:
    """``figures/`` at the repository root (beside ``pyproject.toml``), else in the cwd; the
    Chinese edition's figures (``lang="zh"``) in its ``zh/`` subfolder."""
    root = Path(__file__).resolve().parents[2]
    base = root / "figures" if (root / "pyproject.toml").is_file() else Path.cwd() / "figures"
    return base if lang == "en" else base / lang


@contextmanager
def house_rc() -> Iterator[None]:
    """Matplotlib's default style plus the fixed settings, restored afterwards; in Chinese
    (``get_language() == "zh"``) with the CJK font behind the default one."""
    with matplotlib.rc_context():
        matplotlib.rcdefaults()
        matplotlib.rcParams.update(_FIXED_RC)
        set_language(get_language())  # rcdefaults dropped the edition's font settings
        yield


def figure_bytes(fig: Figure, fmt: str, title: str = "") -> bytes:
    """``fig`` saved as ``fmt`` ("png" at ``FIGURE_DPI`` or "svg") with no date or version."""
    if fmt not in FORMATS:
        raise ValueError(f"format must be one of {FORMATS}, got {fmt!r}")
    buffer = io.BytesIO()
    with house_rc():
        if fmt == "png":
            metadata = {"Software": None, **({"Title": title} if title else {})}
            fig.savefig(buffer, format="png", dpi=FIGURE_DPI, metadata=metadata, **_SAVE)
        else:
            metadata = {"Date": None, "Creator": None, **({"Title": title} if title else {})}
            fig.savefig(buffer, format="svg", metadata=metadata, **_SAVE)
    return buffer.getvalue()


def build_figure(name: str) -> Figure:
    """Run the registered builder of ``name`` under the house rcParams; return its ``Figure``."""
    if name not in FIGURE_REGISTRY:
        raise ValueError(f"unknown figure {name!r}; expected one of: {', '.join(FIGURE_REGISTRY)}")
    # The lessons' networks are tiny: one thread is fastest, and on a busy 2-core machine a
    # second, spin-waiting thread makes training tens of times slower.
    with one_thread(), house_rc():
        fig = FIGURE_REGISTRY[name].builder()
    if not isinstance(fig, Figure):
        raise TypeError(f"builder of {name!r} returned {type(fig).__name__}, expected a Figure")
    return fig


def render_figures(
    names: Sequence[str], progress: Callable[[str], None] | None = None, lang: str = "en"
) -> dict[str, RenderedFigure]:
    """Build and render ``names`` into memory, reporting one line per figure to ``progress``.

    ``lang``: the edition (``"en"`` or ``"zh"``), whose labels and caption each figure gets;
    the language in force before the call is restored after it. Every figure is attempted; if
    any fails, ``FigureBuildError`` lists each failed name with its error (nothing is written
    anywhere).
    """
    with language(lang):
        return _render_figures(names, progress)


def _render_figures(
    names: Sequence[str], progress: Callable[[str], None] | None
) -> dict[str, RenderedFigure]:
    rendered: dict[str, RenderedFigure] = {}
    failures: dict[str, BaseException] = {}
    width = max((len(n) for n in names), default=0)
    for name in names:
        start = time.perf_counter()
        prefix = f"{name:<{width}}  lesson {FIGURE_REGISTRY[name].lesson}"
        try:
            fig = build_figure(name)
            caption = tr(FIGURE_REGISTRY[name].caption)
            files = {fmt: figure_bytes(fig, fmt, title=caption) for fmt in FORMATS}
        except Exception as exc:  # report every failing figure, then stop before writing
            failures[name] = exc
            if progress:
                progress(f"{prefix}  FAILED ({type(exc).__name__})")
            continue
        seconds = time.perf_counter() - start
        rendered[name] = RenderedFigure(name, files, fig, seconds)
        if progress:
            progress(f"{prefix}  {seconds:5.2f} s")
    if failures:
        raise FigureBuildError(failures)
    return rendered


class FigureWriteError(OSError):
    """Writing the figures failed; the message names the file and says what was left behind."""


def _in_the_way(path: Path) -> str | None:
    """What occupies ``path`` if it is not a regular file we may replace (``None`` if free)."""
    if path.is_symlink():
        return "a symbolic link"
    if path.exists() and not path.is_file():
        return "a folder" if path.is_dir() else "something that is not a file"
    return None


def check_out_dir(out_dir: Path) -> None:
    """Raise ``FigureWriteError`` unless files can be written into ``out_dir`` (made if missing).

    Checked before any figure is rendered, by trying: a temporary file is created and removed
    in ``out_dir``, or, when it does not exist yet, in the nearest folder above it that does
    (which must be a folder: ``--out some_file/figures`` is refused). Nothing is left behind.
    """
    out_dir = Path(out_dir)
    existing = out_dir
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        raise FigureWriteError(
            f"cannot write into {out_dir}: {existing} is a file, not a folder; "
            "nothing was written (give --out a folder)"
        )
    try:
        handle, probe = tempfile.mkstemp(prefix=".write-check.", dir=existing)
    except OSError as error:
        raise FigureWriteError(
            f"cannot write into {out_dir}: {existing} is not writable "
            f"({error.strerror or error}); nothing was written"
        ) from error
    os.close(handle)
    os.unlink(probe)


def write_rendered(rendered: Mapping[str, RenderedFigure], out_dir: Path) -> list[Path]:
    """Write every file of ``rendered`` into ``out_dir``, all or none; return changed paths.

    Every target is checked first (a folder or link of the same name stops the run before
    anything is written). Each new file then goes to a temporary file in ``out_dir``; only when
    all are on disk are they moved into place with ``os.replace``. If a move fails, the files
    already moved are put back as they were, so the folder never holds a mix of old and new
    figures, and no temporary file is left. Files whose bytes are already there are left alone.
    Raises ``FigureWriteError`` saying which file failed and that nothing changed.
    """
    out_dir = Path(out_dir)
    if out_dir.exists() and not out_dir.is_dir():
        raise FigureWriteError(f"{out_dir} is not a folder; nothing was written")
    plan: list[tuple[Path, bytes, bytes | None]] = []
    for name, result in rendered.items():
        for fmt, data in result.files.items():
            final = out_dir / f"{name}.{fmt}"
            blocker = _in_the_way(final)
            if blocker:
                raise FigureWriteError(
                    f"cannot write {final}: {blocker} of that name is in the way; "
                    "nothing was written"
                )
            old = final.read_bytes() if final.is_file() else None
            if old != data:
                plan.append((final, data, old))
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as error:  # a file on the way, a read-only folder
        raise FigureWriteError(
            f"cannot create the folder {out_dir} ({error.strerror or error}); nothing was written"
        ) from error
    staged: list[tuple[Path, Path, bytes | None]] = []
    try:
        for final, data, old in plan:
            handle, tmp_name = tempfile.mkstemp(
                prefix=f".{final.stem}.", suffix=f"{final.suffix}.tmp", dir=out_dir
            )
            os.close(handle)
            staged.append((Path(tmp_name), final, old))
            Path(tmp_name).write_bytes(data)
            Path(tmp_name).chmod(0o644)  # mkstemp makes 0600; figures are for everyone to read
    except OSError as error:
        for tmp_path, _, _ in staged:
            tmp_path.unlink(missing_ok=True)
        raise FigureWriteError(
            f"writing a temporary file in {out_dir} failed ({error}); nothing was written"
        ) from error
    moved: list[tuple[Path, bytes | None]] = []
    try:
        for tmp_path, final, old in staged:
            os.replace(tmp_path, final)
            moved.append((final, old))
    except OSError as error:
        failed = staged[len(moved)][1]
        for tmp_path, _, _ in staged[len(moved) :]:
            tmp_path.unlink(missing_ok=True)
        for final, old in reversed(moved):  # put back what was already replaced
            if old is None:
                final.unlink(missing_ok=True)
            else:
                final.write_bytes(old)
        raise FigureWriteError(
            f"moving {failed.name} into place failed ({error}); the {len(moved)} file(s) "
            "already replaced were restored, so nothing changed"
        ) from error
    return [final for _, final, _ in staged]


def write_figures(
    names: Sequence[str] | None = None,
    out_dir: Path | str | None = None,
    progress: Callable[[str], None] | None = None,
) -> list[Path]:
    """Render ``names`` (default: all) and write ``NAME.png``/``NAME.svg`` into ``out_dir``.

    Returns the paths whose contents changed. Raises ``FigureWriteError`` before rendering if
    ``out_dir`` cannot be written, and ``FigureBuildError`` (nothing written) if any figure fails.
    """
    from .registry import figure_names

    selected = figure_names() if names is None else list(names)
    target = Path(out_dir) if out_dir else default_out_dir()
    check_out_dir(target)
    rendered = render_figures(selected, progress=progress)
    return write_rendered(rendered, target)
