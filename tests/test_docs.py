"""The README's and CONVENTIONS' tables say what the tree holds (the parts that can drift).

The lesson table is checked against the registry in ``tests/test_registry.py``; here: the core
table and the core list name every core module and only public names, the benchmark budgets
quoted are the ones the benchmarks use, the layout block names every top-level folder, and the
docs point at nothing outside the repository.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import minimind_lab as ml
from benchmarks.lessons import ALL_LESSONS_BUDGET_S, LESSON_BUDGET_S, TRAINED_LESSON_BUDGET_S

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
CONVENTIONS = (ROOT / "docs" / "CONVENTIONS.md").read_text(encoding="utf-8")
CORE_MODULES = sorted(
    p.name for p in (ROOT / "minimind_lab").glob("*.py") if not p.name.startswith("_")
)
#: Names the tables quote from elsewhere (HF's registry, which ours is modelled on).
QUOTED = {"ACT2FN"}


def _core_table() -> str:
    start = README.index("| module | what it holds |")
    return README[start : README.index("\n\n", start)]


def _core_paragraph() -> str:
    start = CONVENTIONS.index("- **Core** (top level)")
    return CONVENTIONS[start : CONVENTIONS.index("\n- **Lessons**", start)]


def test_the_readme_core_table_names_every_core_module_and_only_public_names() -> None:
    table = _core_table()
    assert sorted(set(re.findall(r"`([a-z_]+\.py)`", table))) == CORE_MODULES
    named = set(re.findall(r"`([A-Za-z_][A-Za-z0-9_]*)(?:\(\))?`", table)) - QUOTED
    assert named <= set(ml.__all__), sorted(named - set(ml.__all__))


def test_the_conventions_core_list_names_every_core_module_and_only_public_names() -> None:
    paragraph = _core_paragraph()
    files = set(re.findall(r"\b([a-z_]+\.py)\b", paragraph))
    assert set(CORE_MODULES) <= files, sorted(set(CORE_MODULES) - files)
    listed = set(re.findall(r"\(([^()]*)\)", paragraph))
    names = {
        word
        for group in listed
        for word in re.findall(r"\b[A-Za-z_][A-Za-z0-9_]*\b", group)
        if word in ml.__all__ or word[0].isupper() and word not in {"MLP", "ATen", "MKL"}
    }
    assert names and names <= set(ml.__all__), sorted(names - set(ml.__all__))


def test_the_budgets_the_docs_quote_are_the_benchmarks_own() -> None:
    quoted = (f"≤ {TRAINED_LESSON_BUDGET_S:.0f} s", f"≤ {ALL_LESSONS_BUDGET_S:.0f} s")
    benchmarks_readme = (ROOT / "benchmarks" / "README.md").read_text(encoding="utf-8")
    for text in (README, CONVENTIONS, benchmarks_readme):
        for budget in quoted:
            assert budget in text
    assert f"≤ {LESSON_BUDGET_S:.0f} s" in benchmarks_readme


def test_the_layout_block_names_every_top_level_folder() -> None:
    tracked = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    folders = {path.split("/")[0] for path in tracked if "/" in path}
    folders -= {".github", ".ci"}  # named by their files: .ci/run is in the block
    start = README.index("## Layout")
    block = README[start : README.index("```", README.index("```", start) + 3)]
    missing = sorted(f for f in folders if f"\n{f}/" not in block)
    assert not missing, f"README's Layout block does not name {missing}"


def test_the_docs_point_at_nothing_outside_the_repository() -> None:
    readme_zh = (ROOT / "README.zh.md").read_text(encoding="utf-8")
    for name, text in (
        ("README.md", README),
        ("README.zh.md", readme_zh),
        ("docs/CONVENTIONS.md", CONVENTIONS),
    ):
        outside = re.findall(r"\.\./[\w./-]+|/work/[\w./-]+|/root/[\w./-]+", text)
        assert not outside, f"{name} points outside the repository: {outside}"


def test_both_readmes_open_with_a_switch_to_the_other_language() -> None:
    readme_zh = (ROOT / "README.zh.md").read_text(encoding="utf-8")
    assert README.splitlines()[2] == "**English** · [中文](README.zh.md)"
    assert readme_zh.splitlines()[2] == "[English](README.md) · **中文**"
