"""Lesson 05: Gating: from plain FFN to SwiGLU.

Everything the notebook uses, under one name: ``from minimind_lab.lessons import l05``.
Compute: ``lessons/l05_gating.py`` (task, probes, experiments, ``SETUP``); draw:
``plots/l05_gating.py``; interact: ``widgets/l05_gating.py``.
"""

from ..plots.l05_gating import *  # noqa: F403
from ..widgets.l05_gating import *  # noqa: F403
from .l05_gating import *  # noqa: F403
