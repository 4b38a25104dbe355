"""Lesson 04: The plain FFN: up, activate, down.

Everything the notebook uses, under one name: ``from minimind_lab.lessons import l04``.
Compute: ``lessons/l04_width.py`` (task, probes, experiments, ``SETUP``); draw:
``plots/l04_width.py``; interact: ``widgets/l04_width.py``.
"""

from ..plots.l04_width import *  # noqa: F403
from ..widgets.l04_width import *  # noqa: F403
from .l04_width import *  # noqa: F403
