"""The package reads bottom-up: no module imports, even lazily or for types only, one that
imports it back. ``_checks`` (argument checks) is the lowest layer of the core."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "minimind_lab"


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> set[str]:
    """Every ``minimind_lab`` module ``path`` imports, anywhere in the file (also in functions
    and under ``TYPE_CHECKING``)."""
    return _imports_as(path, _module_name(path))


def _imports_as(path: Path, name: str) -> set[str]:
    """``_imports`` for the file at ``path`` read as module ``name``."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.startswith("minimind_lab"):
                found.add(target)
                found.update(f"{target}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("minimind_lab"))
    return found


MODULES = {_module_name(p): p for p in PACKAGE.rglob("*.py")}
GRAPH = {
    name: {target for target in _imports(path) if target in MODULES and target != name}
    for name, path in MODULES.items()
}


def _cycle_through(start: str, graph: dict[str, set[str]] = GRAPH) -> list[str] | None:
    """A path start → … → start in the import graph, or None. A package's ``__init__`` that
    re-exports its submodules is an edge only from the package, so packages are left out."""
    stack = [(start, [start])]
    seen = set()
    while stack:
        node, path = stack.pop()
        for nxt in graph.get(node, ()):
            if nxt == start:
                return [*path, start]
            if nxt not in seen and MODULES[nxt].name != "__init__.py":
                seen.add(nxt)
                stack.append((nxt, [*path, nxt]))
    return None


@pytest.mark.parametrize("name", sorted(n for n, p in MODULES.items() if p.name != "__init__.py"))
def test_no_module_imports_one_that_imports_it_back(name: str) -> None:
    cycle = _cycle_through(name)
    assert cycle is None, " → ".join(cycle)


def test_the_argument_checks_are_the_lowest_layer() -> None:
    assert GRAPH["minimind_lab._checks"] == set()


def test_a_lazy_import_counts_and_closes_a_cycle(tmp_path: Path) -> None:
    """The control: the check finds a cycle made by an import inside a function."""
    lazy = PACKAGE / "_checks.py"
    source = lazy.read_text(encoding="utf-8") + "\n\ndef f():\n    from .minimind import x\n"
    copy = tmp_path / "minimind_lab" / "_checks.py"
    copy.parent.mkdir()
    copy.write_text(source, encoding="utf-8")
    imports = {t for t in _imports_as(copy, "minimind_lab._checks") if t in MODULES}
    assert "minimind_lab.minimind" in imports
    graph = {**GRAPH, "minimind_lab._checks": imports}
    assert _cycle_through("minimind_lab._checks", graph) is not None
