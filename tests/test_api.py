"""The public API: every exported name is documented, and the code base stays ruff-clean."""

from __future__ import annotations

import inspect
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import torch

import minimind_lab as ml
from minimind_lab.lessons.registry import LESSONS as REGISTERED
from minimind_lab.lessons.registry import lesson as registered_lesson

ROOT = Path(__file__).resolve().parents[1]
PUBLIC = sorted(
    name
    for name in ml.__all__
    if inspect.isfunction(getattr(ml, name)) or inspect.isclass(getattr(ml, name))
)
LESSONS = [entry.number for entry in REGISTERED]


def test_the_api_the_issue_names_is_exported() -> None:
    required = {
        "get_activation",
        "ACTIVATION_NAMES",
        "PlainFFN",
        "GatedFFN",
        "collapse_linear",
        "MiniMindConfig",
        "FeedForward",
        "intermediate_size",
        "count_parameters",
        "ffn_parameter_count",
        "load_minimind_mlp",
        "RMSNorm",
        "CausalSelfAttention",
        "Block",
        "MoEFeedForward",
        "device",
        "seed_everything",
    }
    assert required <= set(dir(ml))


@pytest.mark.parametrize("name", PUBLIC)
def test_public_names_have_docstrings(name: str) -> None:
    obj = getattr(ml, name)
    assert inspect.getdoc(obj), f"minimind_lab.{name} has no docstring"
    if inspect.isclass(obj) and issubclass(obj, torch.nn.Module):
        assert inspect.getdoc(obj.forward), f"minimind_lab.{name}.forward has no docstring"


def test_ruff_is_clean() -> None:
    ruff = shutil.which("ruff", path=str(Path(sys.executable).parent)) or shutil.which("ruff")
    if ruff is None:
        pytest.skip("ruff is not installed (pip install ruff)")
    result = subprocess.run([ruff, "check", "."], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format_is_clean_notebooks_included() -> None:
    ruff = shutil.which("ruff", path=str(Path(sys.executable).parent)) or shutil.which("ruff")
    if ruff is None:
        pytest.skip("ruff is not installed (pip install ruff)")
    result = subprocess.run(
        [ruff, "format", "--check", "."], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert list(ROOT.glob("notebooks/*.ipynb")), "the notebooks are part of the check"


def test_the_core_is_small_and_explicit() -> None:
    assert 30 <= len(ml.__all__) <= 60
    assert sorted(set(ml.__all__)) == sorted(ml.__all__)
    exported = {n for n in vars(ml) if not n.startswith("_")} - {"annotations"}
    submodules = {n for n in exported if inspect.ismodule(getattr(ml, n))}
    assert exported - submodules == set(ml.__all__), "every public name is listed in __all__"


def test_importing_the_core_loads_neither_matplotlib_nor_ipywidgets() -> None:
    code = (
        "import sys, minimind_lab as ml; "
        "print(sorted(m for m in ('matplotlib', 'ipywidgets', 'minimind_lab.figures', "
        "'minimind_lab.lessons') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize("lesson", LESSONS)
def test_each_lesson_has_one_key_through_every_layer(lesson: str) -> None:
    """The registry's key ``lNN_topic`` names lessons/lNN_topic.py (or a package of that name,
    and no other lNN_ module), plots/lNN_topic.py, widgets/lNN_topic.py, tests/test_lNN_topic.py
    and the notebook; the facade lNN re-exports the one SETUP that the widget reads."""
    import importlib

    entry = registered_lesson(lesson)
    package = ROOT / "minimind_lab"
    found = sorted(p.name for p in (package / "lessons").glob(f"l{lesson}_*"))
    assert found in ([f"{entry.key}.py"], [entry.key]), found
    for layer in ("plots", "widgets"):
        assert (package / layer / f"{entry.key}.py").is_file(), f"{layer}/{entry.key}.py is missing"
    assert (ROOT / "tests" / f"test_{entry.key}.py").is_file()
    assert (ROOT / "notebooks" / entry.notebook).is_file()
    facade = importlib.import_module(entry.facade)
    assert facade.SETUP is importlib.import_module(entry.module).SETUP


def test_figures_import_without_a_cycle() -> None:
    """``minimind_lab.figures`` imports the lessons, never the other way round."""
    code = "import minimind_lab.figures as f; print(len(f.figure_names()))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0 and int(out.stdout) >= 10, out.stderr
    source = (ROOT / "minimind_lab" / "__init__.py").read_text()
    assert "figures" not in source.split('"""', 2)[2], "the package root must not import figures"


def test_the_lab_sends_widget_frames_without_nagles_delay() -> None:
    """The lab and the browser tests select the kernel connection that sets TCP_NODELAY, and it
    loads without torch (the server process never needs it)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("run_module", ROOT / "run.py")
    run = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(run)
    option = "--ServerApp.kernel_websocket_connection_class="
    (chosen,) = [a.split("=", 1)[1] for a in run.lab_arguments() if a.startswith(option)]
    code = (
        f"import sys, importlib; m, c = {chosen!r}.rsplit('.', 1); "
        "cls = getattr(importlib.import_module(m), c); "
        "from jupyter_server.services.kernels.connection.channels import "
        "ZMQChannelsWebsocketConnection as Z; "
        "print(issubclass(cls, Z), 'set_nodelay(True)' in open(sys.modules[m].__file__).read(), "
        "'torch' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["True", "True", "False"]


def test_run_py_names_an_unknown_command(capsys) -> None:
    """``run.py tset`` says the command is unknown before the usage, and exits 2; ``--help``
    prints the usage alone and exits 0. Neither installs anything."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("run_module", ROOT / "run.py")
    run = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(run)
    assert run.main(["tset"]) == 2
    out = capsys.readouterr().out
    assert out.startswith("run.py: unknown command 'tset'; expected lab, test or refresh")
    assert "python3 run.py test" in out
    assert run.main(["--help"]) == 0
    assert "unknown command" not in capsys.readouterr().out
    assert run.main([]) == 2


def test_the_benchmarks_import_nothing_from_the_tests() -> None:
    """The browser driver both use lives in ``lab_browser/``; benchmarks never reach into tests/."""
    for path in sorted((ROOT / "benchmarks").glob("*.py")):
        source = path.read_text(encoding="utf-8")
        assert "from tests" not in source and "import tests" not in source, path.name


def test_every_data_file_the_package_reads_is_declared_package_data() -> None:
    """A stored sweep missing from [tool.setuptools.package-data] would be left out of a wheel."""
    import fnmatch
    import re

    pyproject = (ROOT / "pyproject.toml").read_text()
    section = pyproject.split("[tool.setuptools.package-data]", 1)[1].split("\n[", 1)[0]
    patterns = [
        f"{package.replace('.', '/')}/{pattern}"
        for package, listed in re.findall(r'^"([\w.]+)" = \[(.*)\]$', section, re.M)
        for pattern in re.findall(r'"([^"]+)"', listed)
    ]
    data = sorted(
        str(p.relative_to(ROOT)) for p in (ROOT / "minimind_lab").rglob("*") if p.suffix == ".json"
    )
    assert data, "the lessons read stored sweeps"
    undeclared = [d for d in data if not any(fnmatch.fnmatch(d, pat) for pat in patterns)]
    assert not undeclared, f"add to pyproject's package-data: {undeclared}"
