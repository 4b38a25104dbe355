"""Every lesson in a real browser: JupyterLab in headless Chromium, run all, move every control.

For each ``notebooks/*.ipynb`` (lessons added later are picked up by the glob): open it in the
project's JupyterLab, clear outputs and Run All Cells, wait for the kernel to go idle, fail on
error outputs or widgets that did not render, then move every slider / change every dropdown of
every lesson widget (``.minimind-lab-widget``) and wait for its image or text to change. A
screenshot of each lesson is saved under ``test-artifacts/browser/``. A last test checks that the
same server wants its token and listens on loopback only.
"""

from __future__ import annotations

import http.client
import socket
import time
from pathlib import Path

import psutil
import pytest

from lab_browser import page as lab
from lab_browser.server import ROOT, LabServer, lesson_notebooks, served_path

pytestmark = pytest.mark.browser

LESSONS = lesson_notebooks()
NO_LESSONS = pytest.param(
    None, marks=pytest.mark.skip(reason="no lesson notebooks in notebooks/ yet"), id="no-lessons"
)


@pytest.mark.parametrize(
    "notebook",
    [pytest.param(path, id=served_path(path).removesuffix(".ipynb")) for path in LESSONS]
    or [NO_LESSONS],
)
def test_lesson_runs_and_its_widgets_respond(
    notebook: Path, lesson_page, lab_server: LabServer, artifacts_dir: Path
) -> None:
    page = lesson_page
    log_start = lab_server.log_offset()
    started = time.monotonic()
    timings: dict[str, float] = {}

    def server_log() -> str:
        return lab_server.log_since(log_start)

    def lap(phase: str) -> None:
        timings[phase] = round(time.monotonic() - started - sum(timings.values()), 1)

    served = served_path(notebook)  # zh/01_x.ipynb for a Chinese lesson
    shot = served.removesuffix(".ipynb").replace("/", "-")
    for old in artifacts_dir.glob(f"{shot}*.png"):
        old.unlink()
    watch = lab.KernelErrorWatch(page, server_log)
    try:
        lab.open_notebook(page, lab_server, served)
        lap("open")
        state = lab.run_all_cells(page)
        lap("run all")
        errors = lab.error_outputs(state)
        assert not errors, f"{served}: error output(s) in the page:\n" + "\n---\n".join(errors)
        assert state["unexecuted"] == 0, f"{served}: cells left unexecuted: {state}"

        expected_views = lab.stored_widget_outputs(lab_server.root_dir / served)
        state = lab.wait_for_widgets(page, expected_views)
        assert not lab.widget_failures(state), (
            f"{served}: {lab.widget_failures(state)} (is the ipywidgets lab extension"
            " visible to JupyterLab?)"
        )
        widgets = page.locator(f".{lab.WIDGET_CLASS}").all()
        moved: list[str] = []
        for index, widget in enumerate(widgets):
            label = f"{served} widget {index + 1}"
            moved += lab.move_every_control(widget, label, watch)
            widget.screenshot(path=artifacts_dir / f"{shot}-widget{index + 1}.png")
        lap("widgets")

        state = lab.wait_for(
            lambda s: s is not None and s["status"] == "idle" and not s["pending"],
            "the kernel to go idle after the interaction",
            lab.REDRAW_TIMEOUT_S,
            page,
        )
        assert not lab.error_outputs(state), lab.error_outputs(state)
        assert not lab.widget_failures(state), lab.widget_failures(state)
        errors = watch.errors()
        assert not errors, f"{served}: the kernel reported an error {errors}"
        if watch.log_console:
            print(f"JupyterLab's Log Console (no error in it):\n{watch.log_console}")
        print(
            f"{served}: {state['codeCells']} code cells ran, {state['widgetViews']} widget"
            f" view(s) ({expected_views} stored), {len(widgets)} lesson widget(s),"
            f" {len(moved)} control change(s) redrew; seconds: {timings}",
            *moved,
            sep="\n  ",
        )
    finally:
        page.screenshot(path=artifacts_dir / f"{shot}.png")


def _get(server: LabServer, path: str) -> http.client.HTTPResponse:
    """GET ``path`` without following redirects and without any cookie."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    connection.request("GET", path)
    response = connection.getresponse()
    response.read()
    connection.close()
    return response


def _listening_addresses(server: LabServer) -> list[tuple[str, int]]:
    """(ip, port) of every listening socket of the server and its kernels.

    A process that exits between being listed and being read (a short-lived helper of the
    server) listens on nothing any more: it is skipped, not an error (psutil then raises
    NoSuchProcess, or FileNotFoundError for its /proc folder)."""
    addresses = []
    for proc in server.process_tree():
        try:
            connections = proc.net_connections(kind="inet")
        except (psutil.NoSuchProcess, FileNotFoundError):
            continue
        addresses += [
            (conn.laddr.ip, conn.laddr.port)
            for conn in connections
            if conn.status == psutil.CONN_LISTEN
        ]
    return addresses


def _non_loopback_ipv4() -> list[str]:
    return [
        address.address
        for addresses in psutil.net_if_addrs().values()
        for address in addresses
        if address.family == socket.AF_INET and not address.address.startswith("127.")
    ]


def test_server_wants_its_token_and_listens_on_loopback_only(lab_server: LabServer) -> None:
    page = f"/lab/tree/{lab_server.notebooks[0]}" if lab_server.notebooks else "/lab"
    for path in ("/api/contents", page):
        anonymous = _get(lab_server, path)
        location = anonymous.getheader("Location") or ""
        assert anonymous.status == 403 or (
            anonymous.status in (302, 303) and "/login" in location
        ), f"{path} without a token answered {anonymous.status} {location!r}"
        wrong = _get(lab_server, f"{path}?token=not-the-token")
        assert wrong.status == 403 or "/login" in (wrong.getheader("Location") or ""), (
            f"{path} with a wrong token answered {wrong.status}"
        )
        assert (
            _get(lab_server, lab_server.url(path).removeprefix(lab_server.base_url)).status == 200
        ), f"{path} with the token was refused"

    status, listing = lab_server.api("GET", "/api/contents")
    assert status == 200
    assert not lab_server.root_dir.is_relative_to(ROOT), "the server must serve copies"
    top_level = {name.split("/")[0] for name in lab_server.notebooks}  # zh/ holds the Chinese
    assert sorted(item["name"] for item in listing["content"]) == sorted(top_level)

    # With a kernel running, so its ZMQ ports are checked too.
    status, kernel = lab_server.api("POST", "/api/kernels", body={})
    assert status == 201, f"could not start a kernel: {status}"
    try:
        deadline = time.monotonic() + 30
        while True:
            listening = _listening_addresses(lab_server)
            if len(listening) >= 6 or time.monotonic() > deadline:  # HTTP + 5 kernel ports
                break
            time.sleep(0.25)
    finally:
        lab_server.api("DELETE", f"/api/kernels/{kernel['id']}")
    assert ("127.0.0.1", lab_server.port) in listening, listening
    assert len(listening) >= 6, f"expected the kernel's ports too: {listening}"
    assert all(ip == "127.0.0.1" for ip, _ in listening), f"listens beyond loopback: {listening}"
    for address in _non_loopback_ipv4():
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            sock.settimeout(3)
            assert sock.connect_ex((address, lab_server.port)) != 0, (
                f"the server answered on {address}:{lab_server.port}"
            )
