"""Lesson 07: MiniMind's FeedForward, line by line.

Everything the notebook uses, under one name: ``from minimind_lab.lessons import l07``.
Compute: ``lessons/l07_feedforward.py`` (task, probes, experiments, ``SETUP``); draw:
``plots/l07_feedforward.py``; interact: ``widgets/l07_feedforward.py``.
"""

from ..plots.l07_feedforward import *  # noqa: F403
from ..widgets.l07_feedforward import *  # noqa: F403
from .l07_feedforward import *  # noqa: F403
