"""figures/: one command regenerates every figure, and the committed files stay current.

The committed PNGs are compared with freshly rendered ones by ``compare_images`` at ``TOLERANCE``
(RMS difference in 0–255 grey levels), because text rendering may shift a few pixels between
matplotlib or FreeType versions; on the pinned versions the files are byte-identical.
``compare_images`` writes ``<name>-failed-diff.png`` beside the file it is given, so it is given a
copy in the test's own folder: the fresh render's folder, which the byte-identity test reads,
holds only what the figures CLI writes, whatever another test found.

A figure drawn from models its builder trains (``FigureSpec.trained``) is compared differently:
its losses and accuracies move in their last digits from CPU to CPU (training amplifies the last
bit of a float), so on another machine its points sit a few pixels elsewhere. Where its PNG is
not within ``TOLERANCE``, its SVG must have exactly the committed structure (every element,
colour, text and tick) with every coordinate within ``TRAINED_SHIFT`` of the figure's height.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from matplotlib import image as mpimg
from matplotlib.figure import Figure
from matplotlib.testing.compare import compare_images
from matplotlib.text import Text

from minimind_lab.figures import (
    FIGURE_REGISTRY,
    FORMATS,
    FigureSpec,
    FigureWriteError,
    RenderedFigure,
    figure_names,
    gallery_markdown,
    readme_gallery,
    render_figures,
    write_rendered,
)
from minimind_lab.figures.cli import main
from minimind_lab.lessons import l05

ROOT = Path(__file__).resolve().parents[1]
FIGURES_DIR = ROOT / "figures"
README = ROOT / "README.md"
#: RMS pixel difference (0–255) tolerated between a committed PNG and a fresh one.
TOLERANCE = 2.0
#: How far a trained figure's coordinates may move, as a share of the figure's height: measured
#: on lesson 04's width sweep, other arithmetic moved its points by up to 5 % (a median of three
#: chaotic training runs shifts by up to the seeds' spread); twice that is allowed.
TRAINED_SHIFT = 0.1
#: A number standing alone in an SVG file (a coordinate or a size); digits inside a word, such as
#: a colour (#1f77b4) or an id, are part of the structure.
SVG_NUMBER = re.compile(r"(?<![\w#.])-?\d+(?:\.\d+)?(?:e[-+]?\d+)?(?![\w.])")
#: Two cheap figures for the CLI tests.
CHEAP = ("ffn_structure", "parameter_parity")
REGENERATE = "run `python -m minimind_lab.figures` and commit figures/"


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def _generated_names() -> set[str]:
    """Every file name the figures CLI writes: each figure in each format."""
    return {f"{name}.{fmt}" for name in figure_names() for fmt in FORMATS}


def _compare_png(committed: Path, new: Path, workdir: Path) -> str | None:
    """``compare_images`` on a copy of ``new`` in ``workdir``: ``None`` if within
    ``TOLERANCE``, else the message. The ``*-failed-diff.png`` it writes on a mismatch lands in
    ``workdir``, never beside ``new``, so the folder of ``new`` is only ever read."""
    workdir.mkdir(parents=True, exist_ok=True)
    copy = workdir / new.name
    shutil.copyfile(new, copy)
    return compare_images(str(committed), str(copy), tol=TOLERANCE)


def svg_shift(committed: str, fresh: str, tolerance: float) -> str | None:
    """``None`` if two SVG texts are the same but for numbers that differ by at most
    ``tolerance`` (SVG units); else what differs first: the structure, or the largest shift."""
    old_text, new_text = SVG_NUMBER.split(committed), SVG_NUMBER.split(fresh)
    if old_text != new_text:
        at = next(
            (i for i, (a, b) in enumerate(zip(old_text, new_text, strict=False)) if a != b),
            min(len(old_text), len(new_text)),
        )
        context = new_text[at][:60] if at < len(new_text) else "(end of file)"
        return f"another structure (element, colour or text) near {context!r}"
    old_numbers = [float(x) for x in SVG_NUMBER.findall(committed)]
    new_numbers = [float(x) for x in SVG_NUMBER.findall(fresh)]
    shift = max((abs(a - b) for a, b in zip(old_numbers, new_numbers, strict=True)), default=0.0)
    if shift > tolerance:
        return f"a coordinate moved by {shift:.1f} (allowed {tolerance:.1f})"
    return None


def _svg_height(svg: str) -> float:
    """The height of an SVG's viewBox (``min-x min-y width height``)."""
    view_box = ET.fromstring(svg).get("viewBox")
    if view_box is None:
        raise ValueError("the SVG has no viewBox")
    return float(view_box.split()[3])


@pytest.fixture(scope="module")
def second_run(tmp_path_factory: pytest.TempPathFactory):
    """The CLI in another process (another hash seed), started first so it runs alongside."""
    out = tmp_path_factory.mktemp("second")
    env = {**os.environ, "PYTHONHASHSEED": "123", "MPLBACKEND": "Agg"}
    process = subprocess.Popen(
        [sys.executable, "-m", "minimind_lab.figures", "--out", str(out)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=out,
    )
    yield out, process
    if process.poll() is None:
        process.kill()
        process.communicate()


def _functions_called(build) -> tuple[object, set[object]]:
    """Run ``build()`` and return its result and the code objects of every Python function it
    called (seen through ``sys.setprofile``; nothing in the package is replaced)."""
    codes: set[object] = set()

    def profiler(frame, event, _arg) -> None:
        if event == "call":
            codes.add(frame.f_code)

    sys.setprofile(profiler)
    try:
        result = build()
    finally:
        sys.setprofile(None)
    return result, codes


@pytest.fixture(scope="module")
def fresh(
    second_run, tmp_path_factory: pytest.TempPathFactory
) -> tuple[Path, dict[str, RenderedFigure], dict[str, set[object]]]:
    """Every figure rendered once in this process and written to a temporary folder.

    Also records the code objects each builder ran (third item).
    """
    out = tmp_path_factory.mktemp("fresh")
    # Like a fresh process: no trained model cached by an earlier test or notebook.
    for module in [m for n, m in sys.modules.items() if n.startswith("minimind_lab")]:
        for value in list(vars(module).values()):
            if callable(getattr(value, "cache_clear", None)):
                value.cache_clear()
    rendered: dict[str, RenderedFigure] = {}
    called: dict[str, set[object]] = {}
    for name in figure_names():
        result, called[name] = _functions_called(lambda name=name: render_figures([name]))
        rendered.update(result)
    write_rendered(rendered, out)
    return out, rendered, called


def test_registry_covers_the_lessons() -> None:
    names = figure_names()
    assert len(names) >= len(CHEAP) and set(CHEAP) <= set(names)
    for name in names:
        spec = FIGURE_REGISTRY[name]
        assert spec.lesson.isdigit() and len(spec.lesson) == 2, name
        assert spec.caption and "\n" not in spec.caption, name
        assert callable(spec.plot()), f"{name}: l{spec.lesson}.{spec.plot_function}"


@pytest.mark.slow
def test_each_figure_is_drawn_by_its_lesson_plot_function(fresh) -> None:
    _, _, called = fresh
    for name in figure_names():
        spec = FIGURE_REGISTRY[name]
        assert spec.plot().__code__ in called[name], (
            f"{name} never called l{spec.lesson}.{spec.plot_function}"
        )


def _assert_committed_match_fresh(committed_dir: Path, out: Path, workdir: Path) -> None:
    """Every figure in ``committed_dir`` (``figures/`` or ``figures/zh/``) matches the fresh
    render in ``out``: its PNG within ``TOLERANCE``, or, for a trained figure, its SVG within
    ``TRAINED_SHIFT``; the SVG's size always the same."""
    where = committed_dir.relative_to(ROOT).as_posix()
    for name in figure_names():
        committed, new = committed_dir / f"{name}.png", out / f"{name}.png"
        assert committed.is_file(), f"{where}/{name}.png is missing; {REGENERATE}"
        try:
            result = _compare_png(committed, new, workdir)
        except Exception as exc:  # e.g. the image size changed
            pytest.fail(f"{where}/{name}.png differs from a fresh render ({exc}); {REGENERATE}")
        if result is not None and FIGURE_REGISTRY[name].trained:
            old_text = (committed_dir / f"{name}.svg").read_text(encoding="utf-8")
            shift = svg_shift(
                old_text,
                (out / f"{name}.svg").read_text(encoding="utf-8"),
                TRAINED_SHIFT * _svg_height(old_text),
            )
            result = None if shift is None else f"{result.splitlines()[1].strip()}; SVG: {shift}"
        assert result is None, f"{where}/{name}.png is out of date: {result}; {REGENERATE}"
        old_svg, new_svg = (
            ET.parse(p).getroot() for p in (committed_dir / f"{name}.svg", out / f"{name}.svg")
        )
        for attribute in ("width", "height", "viewBox"):
            assert old_svg.get(attribute) == new_svg.get(attribute), (
                f"{where}/{name}.svg has another {attribute}; {REGENERATE}"
            )


@pytest.mark.slow
def test_committed_figures_match_a_fresh_render(fresh, tmp_path: Path) -> None:
    out, _, _ = fresh
    _assert_committed_match_fresh(FIGURES_DIR, out, tmp_path)


@pytest.fixture(scope="module")
def fresh_zh(
    fresh, tmp_path_factory: pytest.TempPathFactory
) -> tuple[Path, dict[str, RenderedFigure]]:
    """Every figure in Chinese (``--lang zh``), after ``fresh`` (its trained models reused)."""
    out = tmp_path_factory.mktemp("fresh-zh")
    rendered = render_figures(figure_names(), lang="zh")
    write_rendered(rendered, out)
    return out, rendered


@pytest.mark.slow
def test_committed_chinese_figures_match_a_fresh_render(fresh_zh, tmp_path: Path) -> None:
    """The Chinese edition's figures: same tolerances, REGENERATE with ``--lang zh``. Rendering
    them at all shows every label has its translation (a missing one is an error in tests)."""
    out, _ = fresh_zh
    _assert_committed_match_fresh(FIGURES_DIR / "zh", out, tmp_path)


@pytest.mark.slow
def test_chinese_figures_carry_chinese_and_the_english_none(fresh, fresh_zh) -> None:
    """Each Chinese figure differs from its English one and draws CJK text; no English figure
    draws any (a language setting leaking from one render into the next would)."""
    _, english, _ = fresh
    _, chinese = fresh_zh
    for name in figure_names():
        assert chinese[name].files["svg"] != english[name].files["svg"], name
        texts = [t.get_text() for t in chinese[name].figure.findobj(Text)]
        assert any(any("\u4e00" <= ch <= "\u9fff" for ch in t) for t in texts), name
        texts = [t.get_text() for t in english[name].figure.findobj(Text)]
        assert not any(any("\u4e00" <= ch <= "\u9fff" for ch in t) for t in texts), name


@pytest.mark.slow
def test_a_failed_comparison_leaves_the_fresh_render_alone(fresh, tmp_path: Path) -> None:
    """A comparison that fails writes its diff into its own folder; the fresh render's folder
    (read by the byte-identity test) still holds exactly the generated files, unchanged."""
    out, _, _ = fresh
    before = _snapshot(out)
    assert set(before) == _generated_names()
    name = CHEAP[0]
    altered = tmp_path / "committed" / f"{name}.png"  # a "committed" picture, colours inverted
    altered.parent.mkdir()
    pixels = mpimg.imread(out / f"{name}.png")
    pixels[..., :3] = 1.0 - pixels[..., :3]
    mpimg.imsave(altered, pixels)
    result = _compare_png(altered, out / f"{name}.png", tmp_path / "compare")
    assert result is not None and "did not match" in result, result
    assert (tmp_path / "compare" / f"{name}-failed-diff.png").is_file()
    assert _snapshot(out) == before


def test_figures_folder_holds_only_generated_files() -> None:
    for folder, expected in (
        (FIGURES_DIR, _generated_names() | {"zh"}),  # zh/: the Chinese edition's
        (FIGURES_DIR / "zh", _generated_names()),
    ):
        present = {p.name for p in folder.iterdir()}
        assert present == expected, (
            f"{folder}: not generated: {sorted(present - expected)}; "
            f"missing: {sorted(expected - present)}"
        )


@pytest.mark.slow
def test_png_and_svg_carry_no_date_or_version(fresh) -> None:
    _, rendered, _ = fresh
    for name, result in rendered.items():
        assert result.files["png"].startswith(b"\x89PNG")
        assert b"Matplotlib v" not in result.files["png"], name
        svg = result.files["svg"]
        assert b"<dc:date>" not in svg and b"Matplotlib v" not in svg, name


def _named_by_ticks(axis) -> bool:
    """A categorical axis names its items in the tick labels ("expert 0", "expert 1", ...)."""
    texts = [t.get_text() for t in axis.get_ticklabels() if t.get_text()]
    return bool(texts) and not all(
        t.replace("−", "-").replace(".", "", 1).lstrip("-").isdigit() for t in texts
    )


@pytest.mark.slow
@pytest.mark.parametrize("edition", ["en", "zh"])
def test_every_axis_is_labelled(edition: str, request: pytest.FixtureRequest) -> None:
    rendered = request.getfixturevalue("fresh" if edition == "en" else "fresh_zh")[1]
    for name, result in rendered.items():
        assert isinstance(result.figure, Figure)
        for ax in result.figure.axes:
            if not ax.axison:  # a diagram: boxes and arrows, no axes
                continue
            if hasattr(ax, "_colorbar"):
                assert ax.get_xlabel() or ax.get_ylabel(), f"{name}: unlabelled colorbar"
                continue
            for axis, label in ((ax.xaxis, ax.get_xlabel()), (ax.yaxis, ax.get_ylabel())):
                assert label or _named_by_ticks(axis), (
                    f"{name}: the {axis.axis_name}-axis of {ax.get_title()!r} has no label"
                )


@pytest.mark.slow
def test_two_runs_give_byte_identical_files(fresh, second_run) -> None:
    """A second run, in another process with another hash seed, writes the same bytes."""
    out, _, _ = fresh
    second, process = second_run
    stdout, stderr = process.communicate(timeout=300)
    assert process.returncode == 0, stderr
    names = figure_names()
    for index, name in enumerate(names, start=1):
        line = next(x for x in stdout.splitlines() if x.startswith(f"[{index}/{len(names)} "))
        assert f"] {name} " in line and "left]" in line  # one line per figure, time left
    assert set(_snapshot(out)) == _generated_names()  # nothing another test left behind
    assert _snapshot(second) == _snapshot(out)


def test_list_names_every_figure_with_lesson_and_caption(capsys) -> None:
    assert main(["--list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(figure_names())
    for line, name in zip(lines, figure_names(), strict=True):
        spec = FIGURE_REGISTRY[name]
        assert line.startswith(name) and f"lesson {spec.lesson}" in line and spec.caption in line


def test_only_builds_just_the_named_figures(tmp_path: Path, capsys) -> None:
    assert main(["--only", CHEAP[0], "--only", f"{CHEAP[1]}, ", "--out", str(tmp_path)]) == 0
    assert set(_snapshot(tmp_path)) == {f"{n}.{fmt}" for n in CHEAP for fmt in FORMATS}
    out = capsys.readouterr().out
    assert "[1/2 figures" in out and "[2/2 figures" in out and "4 file(s) written" in out
    assert main(["--only", CHEAP[0], "--out", str(tmp_path)]) == 0  # same bytes: left alone
    assert "0 file(s) written, 2 unchanged" in capsys.readouterr().out


def test_only_rejects_an_unknown_name(tmp_path: Path, capsys) -> None:
    assert main(["--only", f"{CHEAP[0]},no_such_figure", "--out", str(tmp_path)]) == 2
    assert "no_such_figure" in capsys.readouterr().err
    assert not any(tmp_path.iterdir())


def _broken() -> Figure:
    raise RuntimeError("the experiment exploded")


def test_failing_builder_leaves_out_dir_untouched(tmp_path: Path, monkeypatch, capsys) -> None:
    (tmp_path / f"{CHEAP[0]}.png").write_bytes(b"old picture")
    (tmp_path / "notes.txt").write_text("not ours")
    before = _snapshot(tmp_path)
    spec = FigureSpec("broken_figure", "99", "Always fails.", "plot_ffn_structure", _broken)
    monkeypatch.setitem(FIGURE_REGISTRY, spec.name, spec)
    status = main(["--only", f"{CHEAP[0]},broken_figure", "--out", str(tmp_path)])
    assert status == 1
    err = capsys.readouterr().err
    assert "'broken_figure' failed: RuntimeError: the experiment exploded" in err
    assert CHEAP[0] not in err
    assert _snapshot(tmp_path) == before  # nothing replaced, no temporary files left


def test_builder_must_return_a_figure(tmp_path: Path, monkeypatch, capsys) -> None:
    spec = FigureSpec("not_a_figure", "99", "Returns None.", "plot_ffn_structure", lambda: None)
    monkeypatch.setitem(FIGURE_REGISTRY, spec.name, spec)
    assert main(["--only", "not_a_figure", "--out", str(tmp_path)]) == 1
    assert "'not_a_figure' failed: TypeError" in capsys.readouterr().err
    assert not any(tmp_path.iterdir())


def _fake_rendered(*names: str) -> dict[str, RenderedFigure]:
    return {
        n: RenderedFigure(n, {"png": b"new " + n.encode(), "svg": b"<svg/>"}, Figure(), 0.0)
        for n in names
    }


def test_a_folder_in_the_way_stops_the_write_before_anything_changes(
    tmp_path: Path, capsys
) -> None:
    (tmp_path / "a.png").write_bytes(b"old a")
    (tmp_path / "c.svg").mkdir()  # a target name taken by a folder
    before = _snapshot(tmp_path)
    with pytest.raises(FigureWriteError, match=r"c\.svg: a folder of that name is in the way"):
        write_rendered(_fake_rendered("a", "b", "c"), tmp_path)
    assert _snapshot(tmp_path) == before  # a.png still old, no temporary file, no b.*
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.png", "c.svg"]


def test_a_move_that_fails_midway_is_rolled_back(tmp_path: Path, monkeypatch) -> None:
    """The fourth of six moves fails (its target turned into a folder after the check).

    The failure is injected by wrapping ``os.replace`` for this test only.
    """
    (tmp_path / "a.png").write_bytes(b"old a")
    before = _snapshot(tmp_path)
    rendered = _fake_rendered("a", "b", "c")
    real_replace, moves = os.replace, []

    def replace_then_block(src, dst):
        moves.append(Path(dst).name)
        if len(moves) == 4:
            Path(dst).mkdir()  # the race the up-front check cannot see
        return real_replace(src, dst)

    monkeypatch.setattr(os, "replace", replace_then_block)
    with pytest.raises(FigureWriteError, match="restored, so nothing changed"):
        write_rendered(rendered, tmp_path)
    monkeypatch.undo()
    blocked = tmp_path / moves[3]
    blocked.rmdir()
    assert _snapshot(tmp_path) == before  # a.png is old again; no b, c or temporary files
    write_rendered(rendered, tmp_path)
    assert (tmp_path / "a.png").read_bytes() == b"new a" and len(_snapshot(tmp_path)) == 6


def test_cli_names_the_folder_in_the_way(tmp_path: Path, capsys) -> None:
    (tmp_path / f"{CHEAP[0]}.svg").mkdir()
    assert main(["--only", CHEAP[0], "--out", str(tmp_path)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith("error: cannot write") and "a folder of that name" in err[-1]
    assert "nothing was written" in err[-1]
    assert [p.name for p in tmp_path.iterdir()] == [f"{CHEAP[0]}.svg"]


def test_gallery_with_a_missing_readme_says_so_in_one_line(tmp_path: Path, capsys) -> None:
    missing = tmp_path / "no_readme.md"
    assert main(["--gallery", str(missing)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert (
        len(err) == 1
        and err[0].startswith("error: cannot update the gallery")
        and str(missing) in err[0]
    )


@pytest.mark.slow
def test_list_into_a_closed_pipe_ends_with_one_line(tmp_path: Path) -> None:
    process = subprocess.run(
        f"{sys.executable} -m minimind_lab.figures --list | head -n 1",
        shell=True,
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
    )
    assert process.stdout.count("\n") == 1
    assert "Traceback" not in process.stderr and "BrokenPipeError" not in process.stderr
    assert len(process.stderr.strip().splitlines()) <= 1


def test_readme_gallery_is_current() -> None:
    text = readme_gallery(README.read_text(encoding="utf-8"))
    assert text == gallery_markdown(), "run `python -m minimind_lab.figures --gallery`"
    for name in figure_names():
        assert f"(figures/{name}.png)" in text


def test_chinese_readme_gallery_is_current() -> None:
    text = readme_gallery((ROOT / "README.zh.md").read_text(encoding="utf-8"))
    assert text == gallery_markdown(lang="zh"), (
        "run `python -m minimind_lab.figures --lang zh --gallery`"
    )
    for name in figure_names():
        assert f"(figures/zh/{name}.png)" in text


def test_ffn_structure_rejects_bad_sizes() -> None:
    with pytest.raises(ValueError, match="hidden_size"):
        l05.plot_ffn_structure(hidden_size=0)
    fig = l05.plot_ffn_structure(512, 2048, 1408)
    texts = {t.get_text() for ax in fig.axes for t in ax.texts}
    assert {"(B, T, 2048)", "(B, T, 1408)", "(B, T, 512)", "⊙"} <= texts


# --- issue 19: an --out that cannot be written ---------------------------------------------


def test_out_under_a_file_is_one_clear_error_before_rendering(tmp_path: Path, capsys) -> None:
    """Old behaviour: every figure was rendered, then a NotADirectoryError traceback."""
    blocker = tmp_path / "a_file"
    blocker.write_text("not a folder")
    assert main(["--only", CHEAP[0], "--out", str(blocker / "figures")]) == 2
    captured = capsys.readouterr()
    err = captured.err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"error: cannot write into {blocker / 'figures'}")
    assert "is a file, not a folder" in err[0] and "nothing was written" in err[0]
    assert "rendering" not in captured.out  # refused before any figure was built
    assert [p.name for p in tmp_path.iterdir()] == ["a_file"]
    with pytest.raises(FigureWriteError, match=r"cannot create the folder .*nothing was written"):
        write_rendered({}, blocker / "figures")  # the writer alone: an error, no traceback


def test_out_in_a_folder_that_refuses_writes_is_one_clear_error(
    tmp_path: Path, monkeypatch, capsys
) -> None:
    """A read-only folder, injected (root may write anywhere): no traceback, no files."""
    import minimind_lab.figures.writer as writer

    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(writer.tempfile, "mkstemp", refuse)
    assert main(["--only", CHEAP[0], "--out", str(tmp_path / "new" / "figures")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f"{tmp_path} is not writable (Permission denied)" in err[0]
    assert list(tmp_path.iterdir()) == []


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root ignores permissions")
def test_out_in_a_read_only_folder_is_one_clear_error(tmp_path: Path, capsys) -> None:
    """Old behaviour: every figure was rendered, then a PermissionError traceback."""
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o555)
    try:
        assert main(["--only", CHEAP[0], "--out", str(locked / "figures")]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and "is not writable" in err[0]
        assert list(locked.iterdir()) == []
    finally:
        locked.chmod(0o755)


SVG = (
    '<svg viewBox="0 0 400 300"><path d="M 10.5 20 L 30 40" style="stroke: #1f77b4"/>'
    '<text x="5">ReLU</text></svg>'
)


def test_svg_shift_allows_moved_points_within_the_tolerance() -> None:
    assert svg_shift(SVG, SVG, 0.0) is None
    moved = SVG.replace("M 10.5 20", "M 12.5 25")
    assert _svg_height(SVG) == 300.0
    assert svg_shift(SVG, moved, TRAINED_SHIFT * 300) is None
    assert "moved by 5.0" in svg_shift(SVG, moved, 4.0)


@pytest.mark.parametrize(
    "changed",
    [
        SVG.replace("ReLU", "GELU"),  # a label
        SVG.replace("#1f77b4", "#1f77b5"),  # a colour, by one digit
        SVG.replace("</svg>", '<path d="M 1 2"/></svg>'),  # an element more
        SVG.replace('<text x="5">ReLU</text>', ""),  # one fewer
    ],
)
def test_svg_shift_refuses_another_structure(changed: str) -> None:
    assert "another structure" in svg_shift(SVG, changed, 1e9)


def test_only_figures_of_trained_models_are_compared_by_structure() -> None:
    trained = {name for name in figure_names() if FIGURE_REGISTRY[name].trained}
    assert "width_sweep" in trained and "ffn_structure" not in trained
    assert trained <= {"linear_collapse_regions", "width_sweep", "gate_distribution"} | {
        "mlp_model_comparison",
        "mlp_patching",
    }


def test_register_figure_wants_a_real_bool_for_trained() -> None:
    from minimind_lab.figures.registry import register_figure

    with pytest.raises(ValueError, match=r"trained must be True or False, got 'yes'"):
        register_figure("never_registered", "04", "caption", "plot_width_sweep", trained="yes")
    assert "never_registered" not in FIGURE_REGISTRY
