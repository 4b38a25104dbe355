"""Lesson 02: Linear collapse: why the activation is the point.

Everything the notebook uses, under one name: ``from minimind_lab.lessons import l02``.
Compute: ``lessons/l02_collapse.py`` (task, probes, experiments, ``SETUP``); draw:
``plots/l02_collapse.py``; interact: ``widgets/l02_collapse.py``.
"""

from ..plots.l02_collapse import *  # noqa: F403
from ..widgets.l02_collapse import *  # noqa: F403
from .l02_collapse import *  # noqa: F403
