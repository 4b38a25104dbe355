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
        lines = [f"figure {name!r} failed: {type(exc).__name__}: {exc}"
                 for name, exc in self.failures.items()]
        super().__init__("\n".join(lines))


def default_out_dir() -> Path:
    """``figures/`` at the repository root (beside ``pyproject.toml``), else in the cwd."""
    root = Path(__file__).resolve().parents[2]
    if (root / "pyproject.toml").is_file():
        return root / "figures"
    return Path.cwd() / "figures"


@contextmanager
def house_rc() -> Iterator[None]:
    """Matplotlib's default style plus the fixed settings, restored afterwards."""
    with matplotlib.rc_context():
        matplotlib.rcdefaults()
        matplotlib.rcParams.update(_FIXED_RC)
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
    names: Sequence[str], progress: Callable[[str], None] | None = None
) -> dict[str, RenderedFigure]:
    """Build and render ``names`` into memory, reporting one line per figure to ``progress``.

    Every figure is attempted; if any fails, ``FigureBuildError`` lists each failed name with
    its error (nothing is written anywhere).
    """
    rendered: dict[str, RenderedFigure] = {}
    failures: dict[str, BaseException] = {}
    width = max((len(n) for n in names), default=0)
    for index, name in enumerate(names, start=1):
        start = time.perf_counter()
        counter = f"[{index}/{len(names)}]".rjust(2 * len(str(len(names))) + 3)
        prefix = f"{counter} {name:<{width}}  lesson {FIGURE_REGISTRY[name].lesson}"
        try:
            fig = build_figure(name)
            caption = FIGURE_REGISTRY[name].caption
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


def write_rendered(rendered: Mapping[str, RenderedFigure], out_dir: Path) -> list[Path]:
    """Write every file of ``rendered`` into ``out_dir``, all or none; return changed paths.

    Each file goes to a temporary file in ``out_dir`` first; only when all are on disk are they
    moved into place with ``os.replace``. Files whose bytes are already there are left alone.
    """
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    staged: list[tuple[Path, Path]] = []
    try:
        for name, result in rendered.items():
            for fmt, data in result.files.items():
                final = out_dir / f"{name}.{fmt}"
                if final.is_file() and final.read_bytes() == data:
                    continue
                handle, tmp_name = tempfile.mkstemp(prefix=f".{name}.", suffix=f".{fmt}.tmp",
                                                    dir=out_dir)
                os.close(handle)
                tmp_path = Path(tmp_name)
                staged.append((tmp_path, final))
                tmp_path.write_bytes(data)
                tmp_path.chmod(0o644)  # mkstemp makes 0600; figures are for everyone to read
    except BaseException:
        for tmp_path, _ in staged:
            tmp_path.unlink(missing_ok=True)
        raise
    for tmp_path, final in staged:
        os.replace(tmp_path, final)
    return [final for _, final in staged]


def write_figures(
    names: Sequence[str] | None = None,
    out_dir: Path | str | None = None,
    progress: Callable[[str], None] | None = None,
) -> list[Path]:
    """Render ``names`` (default: all) and write ``NAME.png``/``NAME.svg`` into ``out_dir``.

    Returns the paths whose contents changed. Raises ``FigureBuildError`` (nothing written) if
    any figure fails.
    """
    from .registry import figure_names

    selected = figure_names() if names is None else list(names)
    rendered = render_figures(selected, progress=progress)
    return write_rendered(rendered, Path(out_dir) if out_dir else default_out_dir())
