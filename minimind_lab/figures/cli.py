"""``python -m minimind_lab.figures``: regenerate every figure in ``figures/`` (or some)."""

from __future__ import annotations

import argparse
import os
import sys
import time
import traceback
from collections.abc import Sequence
from pathlib import Path

from .._progress import Progress
from ..i18n import LANGUAGES, language, tr
from ..plots.style import FIGURE_DPI
from ..runtime import reproducible_cpu
from .gallery import default_gallery_path, with_gallery
from .registry import FIGURE_REGISTRY, figure_names
from .writer import (
    FORMATS,
    FigureBuildError,
    FigureWriteError,
    check_out_dir,
    default_out_dir,
    render_figures,
    write_rendered,
)

#: ``--gallery`` without a path: the README of the edition ``--lang`` names.
_EDITION_README = Path("<the edition's README>")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m minimind_lab.figures",
        description=(
            "Regenerate the tutorial figures from the plot functions the lessons call: "
            f"NAME.png ({FIGURE_DPI} dpi, for slides) and NAME.svg (for the web) per figure. "
            "All figures are rendered before any file is written, so a failure leaves the "
            "output folder untouched."
        ),
    )
    parser.add_argument(
        "--only",
        action="append",
        metavar="NAME",
        help="build only these figures (repeat the option or give a comma list)",
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=None,
        metavar="DIR",
        help=f"output folder (default: {default_out_dir()}, or {default_out_dir('zh')} for zh)",
    )
    parser.add_argument(
        "--lang",
        choices=LANGUAGES,
        default="en",
        help="the edition: its labels and captions, its default folder (figures/ for en, "
        "figures/zh/ for zh) and README (README.md, README.zh.md)",
    )
    parser.add_argument("--list", action="store_true", help="list the figures and exit")
    parser.add_argument(
        "--gallery",
        nargs="?",
        const=_EDITION_README,
        type=Path,
        metavar="PATH",
        help="rewrite the gallery section of a README instead (default: the edition's, "
        f"{default_gallery_path()} or {default_gallery_path('zh')})",
    )
    return parser


def _where(error: BaseException) -> str:
    """`` (at file:line)`` of the innermost frame that raised ``error``, for the report."""
    frames = traceback.extract_tb(error.__traceback__)
    return f" (at {frames[-1].filename}:{frames[-1].lineno})" if frames else ""


def _stdout_closed() -> int:
    """The reader of our output went away (``--list | head``): say so once and stop quietly."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())  # no second error when Python flushes stdout at exit
    print("figures: output closed early; stopped", file=sys.stderr)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status (0 ok, 1 a figure failed, 2 bad usage)."""
    args = _parser().parse_args(argv)
    if not args.list and args.gallery is None:
        # The same pixels on every machine: the figures train small models (see runtime).
        reproducible_cpu()
    try:
        return _run(args)
    except BrokenPipeError:
        return _stdout_closed()


def _run(args: argparse.Namespace) -> int:
    if args.list:
        with language(args.lang):
            for name in figure_names():
                spec = FIGURE_REGISTRY[name]
                print(f"{name:<28} lesson {spec.lesson}  {tr(spec.caption)}", flush=True)
        return 0
    if args.gallery is not None:
        if args.gallery == _EDITION_README:
            args.gallery = default_gallery_path(args.lang)
        try:
            readme = args.gallery.read_text(encoding="utf-8")
            args.gallery.write_text(with_gallery(readme, lang=args.lang), encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            print(f"error: cannot update the gallery in {args.gallery}: {exc}", file=sys.stderr)
            return 2
        except ValueError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        print(f"updated the gallery in {args.gallery}")
        return 0
    try:
        names = figure_names(args.only)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    out_dir = args.out or default_out_dir(args.lang)
    try:
        check_out_dir(out_dir)  # before half a minute of rendering, not after
    except FigureWriteError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    start = time.perf_counter()
    print(f"rendering {len(names)} figure(s) as {'+'.join(FORMATS)} into {out_dir}", flush=True)
    try:
        # A bar with the time left in a terminal; one counted line per figure elsewhere.
        with Progress(len(names), "figures", stream=sys.stdout) as bars:
            rendered = render_figures(names, progress=bars.finish, lang=args.lang)
    except FigureBuildError as exc:
        for name, error in exc.failures.items():
            print(
                f"error: figure {name!r} failed: {type(error).__name__}: {error}{_where(error)}",
                file=sys.stderr,
            )
        print(f"error: nothing written to {out_dir}", file=sys.stderr)
        return 1
    try:
        changed = write_rendered(rendered, out_dir)
    except FigureWriteError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    total = len(rendered) * len(FORMATS)
    print(
        f"done in {time.perf_counter() - start:.1f} s: {len(changed)} file(s) written, "
        f"{total - len(changed)} unchanged"
    )
    return 0
