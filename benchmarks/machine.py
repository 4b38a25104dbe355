"""What machine and load a run happened on, for the header of RESULTS.md."""

from __future__ import annotations

import datetime as dt
import os
import platform
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def cpu_model() -> str:
    """The CPU's model name from ``/proc/cpuinfo`` (Linux), else ``platform.processor()``."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.lower().startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown"


def usable_cores() -> int:
    """CPU cores this process may run on (affinity where the OS has it)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # macOS, Windows
        return os.cpu_count() or 1


def load_average() -> str:
    """The 1/5/15-minute load averages, or ``n/a`` where the OS has none."""
    try:
        return "/".join(f"{v:.2f}" for v in os.getloadavg())
    except (AttributeError, OSError):
        return "n/a"


def _git_revision() -> str:
    try:
        rev = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            cwd=ROOT,
            text=True,
            capture_output=True,
            check=True,
        ).stdout.strip()
        # The report this run is about to replace does not count as a change to what is measured.
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--", ".", ":(exclude)benchmarks/RESULTS.md"],
            cwd=ROOT,
            text=True,
            capture_output=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return rev + (" + uncommitted changes" if dirty else "")


def describe(threads: int) -> dict[str, str]:
    """Machine, software and load facts as label → text, in the order the report shows them."""
    import torch

    if torch.cuda.is_available():
        accel = f"CUDA: {torch.cuda.get_device_name(0)}"
    else:
        accel = "CPU only (no CUDA device)"
    blas = "unknown"
    for part in torch.__config__.show().replace(",", "\n").splitlines():
        if "BLAS_INFO=" in part:
            blas = part.split("=", 1)[1].strip()
    return {
        "Date (UTC)": dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M"),
        "CPU": cpu_model(),
        "Cores (usable / logical)": f"{usable_cores()} / {os.cpu_count()}",
        "OS": f"{platform.system()} {platform.release()}",
        "Python": platform.python_version(),
        "torch": f"{torch.__version__} (BLAS: {blas}; "
        f"CPU capability: {torch.backends.cpu.get_cpu_capability()})",
        "torch threads (FFN section)": str(threads),
        "Device": accel,
        "Load average at start (1/5/15 min)": load_average(),
        "Git": _git_revision(),
    }
