"""Lesson 06: The 8/3 derivation.

Everything the notebook uses, under one name: ``from minimind_lab.lessons import l06``.
Compute: ``lessons/l06_sizing.py`` (task, probes, experiments, ``SETUP``); draw:
``plots/l06_sizing.py``; interact: ``widgets/l06_sizing.py``.
"""

from ..plots.l06_sizing import *  # noqa: F403
from ..widgets.l06_sizing import *  # noqa: F403
from .l06_sizing import *  # noqa: F403
