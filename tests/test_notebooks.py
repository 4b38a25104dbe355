"""What every lesson notebook keeps to (both editions), beyond its own asserts (strict nbval).

The course's shape: each lesson links the one before and the one after, imports the core and its
own lesson machinery, ends with exercises that ask for a prediction, leave a cell to work in and
hide a solution that runs and ends with a one-line conclusion; no stored output holds a machine
path.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from minimind_lab.lessons.registry import LESSONS

ROOT = Path(__file__).resolve().parents[1]
#: Each edition's lessons in order: English in notebooks/, Chinese in notebooks/zh/.
EDITIONS = {
    "en": [ROOT / "notebooks" / entry.notebook for entry in LESSONS],
    "zh": [ROOT / "notebooks" / "zh" / entry.notebook for entry in LESSONS],
}
NOTEBOOKS = [path for paths in EDITIONS.values() for path in paths]
#: How each edition asks for a prediction, and begins a solution's last line.
PREDICT_WORDS = {"en": ("predict", "guess", "before you run"), "zh": ("预测", "猜")}
CONCLUSION = {"en": "Conclusion: ", "zh": "结论"}
#: The comment an exercise's empty work cell may hold.
WORK_CELL = {"en": "# your code here", "zh": "# 在这里写你的代码"}
#: How a checker answers a work cell run as given (minimind_lab.exercises._compare.checker).
NOT_WRITTEN_YET = {"en": "Not written yet: ", "zh": "还没写："}
#: The cell metadata that says why a cell's output is left uncompared (a learner does not read it).
UNCOMPARED_BECAUSE = "uncompared_because"
#: Words about the test machinery that a learner's cell should not carry: the phrases, a test
#: file's name (``tests/test_x.py``, ``test_x.py``) and CI (as a word, in capitals, so ``ci`` as a
#: name is left alone). "Test" alone stays allowed: lessons test claims, and 留出测试集 is a term.
TEST_WORDS = re.compile(
    r"compared by the tests|测试不比对|nbval|\btests/|\btest_\w+\.py\b|(?-i:\bCI\b)|持续集成",
    re.IGNORECASE,
)
MACHINE_PATH = re.compile(r"/(?:work|tmp|root|home)/[\w.-]+")


def _cells(path: Path) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


def _source(cell: dict) -> str:
    source = cell.get("source", "")
    return source if isinstance(source, str) else "".join(source)


def _stream_text(cell: dict) -> str:
    parts = []
    for output in cell.get("outputs", []):
        if output.get("output_type") == "stream":
            text = output.get("text", "")
            parts.append(text if isinstance(text, str) else "".join(text))
    return "".join(parts)


def _edition(path: Path) -> str:
    return "zh" if path.parent.name == "zh" else "en"


def _id(path: Path) -> str:
    return f"{_edition(path)}-{path.name[:2]}"


def test_the_lessons_are_numbered_without_gaps() -> None:
    for paths in EDITIONS.values():
        numbers = [int(path.name[:2]) for path in paths]
        assert numbers == list(range(1, len(numbers) + 1)), [p.name for p in paths]
        assert all(path.is_file() for path in paths), "tests/test_registry.py says which is missing"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_id)
def test_each_lesson_links_its_neighbours(path: Path) -> None:
    """Within its edition: a Chinese lesson links the Chinese lessons beside it."""
    edition = EDITIONS[_edition(path)]
    index = edition.index(path)
    prose = "\n".join(_source(c) for c in _cells(path) if c["cell_type"] == "markdown")
    linked = set(re.findall(r"\]\((\d\d_[\w-]+\.ipynb)\)", prose))
    if index > 0:
        assert edition[index - 1].name in linked, f"{path.name} does not link the lesson before"
    if index < len(edition) - 1:
        assert edition[index + 1].name in linked, f"{path.name} does not link the lesson after"
    assert linked <= {p.name for p in edition}, f"{path.name} links a lesson that does not exist"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_id)
def test_each_lesson_imports_the_core_and_its_own_machinery(path: Path) -> None:
    code = "\n".join(_source(c) for c in _cells(path) if c["cell_type"] == "code")
    assert "import minimind_lab as ml" in code
    assert re.search(rf"from minimind_lab\.lessons import .*\bl{path.name[:2]}\b", code), (
        f"{path.name} does not import minimind_lab.lessons.l{path.name[:2]}"
    )


def _ready_to_run(work: dict, path: Path) -> bool:
    """A build-it work cell as ARENA writes one: the piece's signature, the work-cell comment, a
    body that raises ``NotImplementedError`` and the checker call; run as given, the checker
    says the piece is not written yet."""
    source = _source(work)
    return (
        WORK_CELL[_edition(path)] in source
        and "raise NotImplementedError" in source
        and re.search(r"^check_\w+\(", source, re.MULTILINE) is not None
        and _stream_text(work).startswith(NOT_WRITTEN_YET[_edition(path)])
    )


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_id)
def test_each_build_it_work_cell_is_ready_to_run(path: Path) -> None:
    """The solution that calls a checker has, just before it, a work cell that calls the same
    checker on a piece that raises ``NotImplementedError``."""
    cells = _cells(path)
    for i, cell in enumerate(cells):
        if "solution" not in cell.get("metadata", {}).get("tags", []):
            continue
        checks = re.findall(r"^(check_\w+)\(", _source(cell), re.MULTILINE)
        if checks:
            assert _ready_to_run(cells[i - 1], path), (
                f"{path.name} cell {i - 1}: the build-it work cell should hold the signature, "
                f"'raise NotImplementedError' and {checks[0]}(...), and print that it is not "
                "written yet"
            )


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_id)
def test_exercises_predict_first_leave_a_cell_and_hide_a_solution_that_concludes(
    path: Path,
) -> None:
    cells = _cells(path)
    solutions = [
        i for i, c in enumerate(cells) if "solution" in c.get("metadata", {}).get("tags", [])
    ]
    assert len(solutions) >= 2, f"{path.name}: fewer than two exercises with a tagged solution"
    for i in solutions:
        cell = cells[i]
        hidden = cell.get("metadata", {}).get("jupyter", {})
        assert hidden.get("source_hidden") and hidden.get("outputs_hidden"), (
            f"{path.name} cell {i}: the solution must hide its code and its output"
        )
        work = cells[i - 1]
        empty = _source(work).strip() in ("", WORK_CELL[_edition(path)])
        assert work["cell_type"] == "code" and (empty or _ready_to_run(work, path)), (
            f"{path.name} cell {i - 1}: expected a cell to work in before the solution: empty, "
            "or a build-it cell ready to run"
        )
        question = next(c for c in reversed(cells[: i - 1]) if c["cell_type"] == "markdown")
        asked = _source(question).lower()
        assert any(word in asked for word in PREDICT_WORDS[_edition(path)]), (
            f"{path.name}: the exercise before cell {i} does not ask for a prediction first"
        )
        lines = _stream_text(cell).strip().splitlines()
        assert lines and lines[-1].startswith(CONCLUSION[_edition(path)]), (
            f"{path.name} cell {i}: the solution does not end with a one-line conclusion"
        )


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_id)
def test_no_stored_output_holds_a_machine_path(path: Path) -> None:
    for i, cell in enumerate(_cells(path)):
        outputs = json.dumps(cell.get("outputs", []))
        found = MACHINE_PATH.findall(outputs)
        assert not found, f"{path.name} cell {i} stores {found[0]!r}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_id)
def test_a_cell_left_uncompared_says_why_and_its_claims_stay_asserted(path: Path) -> None:
    """``nbval-ignore-output`` only with a reason in the cell's metadata (``uncompared_because``,
    in the edition's language), and never as a way to drop a claim: the cell or the one after it
    asserts what it shows. The reason is for the next contributor; the learner reads the code."""
    code = [c for c in _cells(path) if c["cell_type"] == "code"]
    for i, cell in enumerate(code):
        metadata = cell.get("metadata", {})
        ignored = "nbval-ignore-output" in metadata.get("tags", [])
        reason = metadata.get(UNCOMPARED_BECAUSE, "")
        assert ignored == bool(reason.strip()), (
            f"{path.name} code cell {i}: an uncompared cell (tag nbval-ignore-output) says why in "
            f"metadata['{UNCOMPARED_BECAUSE}'], and only such a cell"
        )
        if not ignored:
            continue
        source = _source(cell)
        following = _source(code[i + 1]) if i + 1 < len(code) else ""
        assert "assert " in source or "assert " in following, (
            f"{path.name} code cell {i}: its output is not compared, so it or the next cell "
            "must assert its claim"
        )


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_id)
def test_no_cell_a_learner_reads_speaks_of_the_tests(path: Path) -> None:
    """The test machinery lives in metadata and tags; a cell's source and the prose teach."""
    for i, cell in enumerate(_cells(path)):
        found = TEST_WORDS.search(_source(cell))
        assert not found, f"{path.name} cell {i} speaks of the tests: {found.group(0)!r}"


def test_the_test_word_check_sees_test_files_and_ci_but_not_a_lessons_own_tests() -> None:
    """The control: sentences that name a test file or CI are caught, a lesson's own words are
    not (it tests claims, measures on a 留出测试集, names a variable ``ci``)."""
    caught = [
        "`tests/test_l08_memory.py` runs the same check.",
        "It runs in CI on a checkpoint the lesson writes itself.",
        "在 CI 中，这个文件就是本课自己的模型。",
        "# the same tolerance as test_l09_capacity.py",
        "由持续集成运行。",
    ]
    allowed = [
        "The lessons test the article's claims; attention fails the same test.",
        "准确率都在留出测试集上测量。",
        "ci = spread / 2  # the confidence interval's half-width",
        "Cover's theorem, CIFAR-10, a CIA report",
    ]
    assert all(TEST_WORDS.search(text) for text in caught)
    assert not any(TEST_WORDS.search(text) for text in allowed)
