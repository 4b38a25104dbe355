"""cProfile of a whole lesson, to name the functions that make a slow lesson slow.

The notebook's code cells run in-process in an IPython shell (magics work, except
``%matplotlib``, which is dropped in favour of the Agg backend; no kernel, no messaging), under
``cProfile``. Run it in a worker so the profile starts from a cold interpreter:
``python -m benchmarks._worker profile-notebook notebooks/NN_x.ipynb``.
"""

from __future__ import annotations

import contextlib
import cProfile
import io
import os
from pathlib import Path

from .sliders import format_profile


def profile_notebook(path: str, top: int = 15) -> str:
    """Run every code cell of ``path`` under cProfile; return the formatted top functions."""
    import matplotlib
    import nbformat
    from IPython.core.interactiveshell import InteractiveShell

    matplotlib.use("Agg")
    nb = nbformat.read(path, as_version=4)
    shell = InteractiveShell.instance()
    previous = Path.cwd()
    os.chdir(Path(path).resolve().parent)
    profiler = cProfile.Profile()
    failures = []
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            for index, cell in enumerate(nb.cells):
                if cell.cell_type != "code":
                    continue
                # ``%matplotlib inline`` needs a kernel's GUI hooks; the Agg backend stands in.
                source = "\n".join(
                    line
                    for line in cell.source.splitlines()
                    if not line.lstrip().startswith("%matplotlib")
                )
                profiler.enable()
                outcome = shell.run_cell(source, silent=True)
                profiler.disable()
                if not outcome.success:
                    failures.append(f"cell {index}: {outcome.error_in_exec!r}")
    finally:
        os.chdir(previous)
    text = format_profile(profiler, top)
    if failures:
        text = "cells failed in-process: " + "; ".join(failures) + "\n" + text
    return text
