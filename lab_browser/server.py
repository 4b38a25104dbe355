"""Start and stop the project's JupyterLab (``run.lab_arguments``) as a throwaway test server.

The server is the one ``python3 run.py lab`` starts, plus what a test needs: no browser, a free
port on 127.0.0.1, an explicit random token, a temporary root folder holding copies of the lesson
notebooks (the repo's notebooks are never written), and fresh Jupyter config/data/runtime,
settings and workspaces folders so no saved workspace, setting or kernel session leaks in. The
installed lab extensions (ipywidgets) stay visible: they live under ``sys.prefix/share/jupyter``,
which Jupyter searches whatever ``JUPYTER_DATA_DIR`` says.
"""

from __future__ import annotations

import importlib.util
import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

import psutil

from minimind_lab.runtime import REPRODUCIBLE_CPU_ENV

ROOT = Path(__file__).resolve().parents[1]
#: Where the lessons come from; a developer may point this at a folder of throwaway notebooks.
NOTEBOOKS_ENV = "MINIMIND_LAB_BROWSER_NOTEBOOKS"
STARTUP_TIMEOUT_S = 90.0
SHUTDOWN_TIMEOUT_S = 15.0

# Lab user settings for the test server: no "get Jupyter news?" toast over the screenshots and no
# request to the news feed. Everything else is JupyterLab's default (its default notebook
# windowing mode, "contentVisibility", keeps every cell in the DOM, which the checks rely on).
TEST_USER_SETTINGS = {
    "@jupyterlab/apputils-extension/notification.jupyterlab-settings": {
        "fetchNews": "false",
        "checkForUpdates": False,
    },
}


def load_run_module() -> ModuleType:
    """Import the repo's ``run.py`` (not a package module) so the tests reuse ``lab_arguments``."""
    spec = importlib.util.spec_from_file_location("minimind_lab_run", ROOT / "run.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def lesson_notebooks() -> list[Path]:
    """Every registered lesson (``minimind_lab.lessons.registry``) in its Chinese edition
    (``notebooks/zh/``), or every notebook in the folder ``$MINIMIND_LAB_BROWSER_NOTEBOOKS``
    names (the suite's own tests of itself).

    One edition is enough: the twins run the same code (``tests/test_editions.py``) and differ
    only in their strings. The browser computes with the lab's arithmetic, so running the Chinese
    twins here checks their asserts under it, as ``tests/test_other_arithmetic.py`` checks the
    English lessons' asserts and outputs; each lesson thus runs twice per edition, not three times.
    """
    if os.environ.get(NOTEBOOKS_ENV):
        return sorted(Path(os.environ[NOTEBOOKS_ENV]).glob("*.ipynb"))
    from minimind_lab.lessons.registry import LESSONS

    return [ROOT / "notebooks" / "zh" / entry.notebook for entry in LESSONS]


def served_path(notebook: Path) -> str:
    """Where the test server serves ``notebook``, relative to its root: a lesson keeps its place
    under ``notebooks/`` (``zh/01_x.ipynb``), any other notebook sits at the root."""
    try:
        return notebook.resolve().relative_to(ROOT / "notebooks").as_posix()
    except ValueError:
        return notebook.name


def free_loopback_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass
class LabServer:
    """A running test JupyterLab: where it listens, its token, its folders and its process."""

    port: int
    token: str
    root_dir: Path
    log_path: Path
    process: subprocess.Popen[bytes]
    notebooks: list[str] = field(default_factory=list)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def url(self, path: str, with_token: bool = True) -> str:
        """``base_url + path``, with ``?token=...`` appended when ``with_token``."""
        if not with_token:
            return self.base_url + path
        separator = "&" if "?" in path else "?"
        return f"{self.base_url}{path}{separator}token={self.token}"

    def api(
        self, method: str, path: str, body: dict | None = None, timeout: float = 10.0
    ) -> tuple[int, object]:
        """Call the REST API with the token header; return (status, decoded JSON or None)."""
        request = urllib.request.Request(
            self.base_url + path,
            method=method,
            headers={"Authorization": f"token {self.token}", "Content-Type": "application/json"},
            data=None if body is None else json.dumps(body).encode(),
        )
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                body = response.read()
                return response.status, (json.loads(body) if body else None)
        except urllib.error.HTTPError as error:
            return error.code, None

    def shutdown_sessions(self, notebook: str | None = None) -> None:
        """Shut down the kernel sessions (of ``notebook`` only, when given) through the API."""
        status, sessions = self.api("GET", "/api/sessions")
        if status != 200 or not isinstance(sessions, list):
            return
        for session in sessions:
            if notebook is None or Path(session.get("path", "")).name == notebook:
                self.api("DELETE", f"/api/sessions/{session['id']}")

    def delete_workspaces(self) -> None:
        """Forget every saved JupyterLab workspace, so the next page opens only its notebook.

        Workspaces live on the server: without this a lesson's page would reopen the tabs of the
        lessons before it (and start kernels for them).
        """
        status, listing = self.api("GET", "/lab/api/workspaces/")
        if status != 200 or not isinstance(listing, dict):
            return
        for workspace_id in listing.get("workspaces", {}).get("ids", []):
            self.api("DELETE", f"/lab/api/workspaces/{Path(workspace_id).name}")

    def log_offset(self) -> int:
        """The server log's current length in bytes, to read what comes after it later."""
        return self.log_path.stat().st_size

    def log_since(self, offset: int) -> str:
        """What the server and its kernels logged after ``offset`` (from ``log_offset``)."""
        with open(self.log_path, "rb") as log:
            log.seek(offset)
            return log.read().decode(errors="replace")

    def log_tail(self, chars: int = 4000) -> str:
        """The end of the server's combined stdout/stderr, for failure messages."""
        try:
            return self.log_path.read_text(errors="replace")[-chars:]
        except OSError:
            return "(no server log)"

    def process_tree(self) -> list[psutil.Process]:
        """The server process and its descendants (kernels) that are still alive."""
        try:
            parent = psutil.Process(self.process.pid)
            return [parent, *parent.children(recursive=True)]
        except psutil.NoSuchProcess:
            return []


def _fresh_environment(home: Path) -> dict[str, str]:
    """The current environment with every per-user Jupyter/IPython folder moved under ``home``."""
    env = dict(os.environ)
    folders = {
        "JUPYTER_CONFIG_DIR": home / "config",
        "JUPYTER_DATA_DIR": home / "data",
        "JUPYTER_RUNTIME_DIR": home / "data" / "runtime",
        "JUPYTERLAB_SETTINGS_DIR": home / "config" / "lab" / "user-settings",
        "JUPYTERLAB_WORKSPACES_DIR": home / "config" / "lab" / "workspaces",
        "IPYTHONDIR": home / "ipython",
        "MPLCONFIGDIR": home / "matplotlib",
    }
    for name, folder in folders.items():
        folder.mkdir(parents=True, exist_ok=True)
        env[name] = str(folder)
    for relative, settings in TEST_USER_SETTINGS.items():
        path = folders["JUPYTERLAB_SETTINGS_DIR"] / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(settings))
    env.pop("JUPYTER_TOKEN", None)  # the token comes from the command line only
    # Kernels run as a learner's do: without the reproducible CPU settings that the strict
    # notebook check uses, so this suite also shows the lessons' asserts hold on any kernels.
    for name in REPRODUCIBLE_CPU_ENV:
        env.pop(name, None)
    env["PYTHONUNBUFFERED"] = "1"
    return env


def start_lab_server(notebooks: Iterable[Path], workdir: Path) -> LabServer:
    """Start JupyterLab on copies of ``notebooks`` under ``workdir``; wait until it answers."""
    root_dir = workdir / "lessons"
    root_dir.mkdir(parents=True)
    names = []
    for notebook in notebooks:
        name = served_path(notebook)
        (root_dir / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(notebook, root_dir / name)
        names.append(name)
    env = _fresh_environment(workdir / "jupyter-home")
    port = free_loopback_port()
    token = secrets.token_hex(24)
    run = load_run_module()
    command = [
        sys.executable,
        *run.lab_arguments(port, root_dir=root_dir),
        "--no-browser",
        "--ServerApp.port_retries=0",
        f"--IdentityProvider.token={token}",
    ]
    log_path = workdir / "jupyterlab.log"
    with open(log_path, "wb") as log:
        process = subprocess.Popen(
            command,
            cwd=root_dir,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    server = LabServer(port, token, root_dir, log_path, process, names)
    try:
        _wait_until_ready(server)
    except BaseException:
        stop_lab_server(server)
        raise
    return server


def _wait_until_ready(server: LabServer) -> None:
    deadline = time.monotonic() + STARTUP_TIMEOUT_S
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            raise RuntimeError(
                f"JupyterLab exited with status {server.process.returncode} before it answered;"
                f" log:\n{server.log_tail()}"
            )
        try:
            status, _ = server.api("GET", "/api/status", timeout=2.0)
            if status == 200:
                return
        except (urllib.error.URLError, ConnectionError, TimeoutError, OSError):
            pass
        time.sleep(0.25)
    raise TimeoutError(
        f"JupyterLab did not answer on {server.base_url} within {STARTUP_TIMEOUT_S:.0f} s;"
        f" log:\n{server.log_tail()}"
    )


def stop_lab_server(server: LabServer) -> None:
    """Shut kernels and server down; terminate, then kill, whatever of the tree is left."""
    tree = server.process_tree()
    if server.process.poll() is None:
        try:
            server.shutdown_sessions()
            server.api("POST", "/api/shutdown", timeout=5.0)
        except (urllib.error.URLError, ConnectionError, TimeoutError, OSError):
            pass
        try:
            server.process.wait(timeout=SHUTDOWN_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            pass
    alive = [proc for proc in tree if proc.is_running()]
    for proc in alive:
        try:
            proc.terminate()
        except psutil.NoSuchProcess:
            pass
    _, alive = psutil.wait_procs(alive, timeout=5.0)
    for proc in alive:
        try:
            proc.kill()
        except psutil.NoSuchProcess:
            pass
    psutil.wait_procs(alive, timeout=5.0)
    if server.process.poll() is None:
        server.process.wait(timeout=5.0)
