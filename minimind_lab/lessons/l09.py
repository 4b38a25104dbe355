"""Lesson 09: When every token shares one MLP: toward MoE.

Everything the notebook uses, under one name: ``from minimind_lab.lessons import l09``.
Compute: ``lessons/l09_moe.py`` (task, probes, experiments, ``SETUP``); draw:
``plots/l09_moe.py``; interact: ``widgets/l09_moe.py``.
"""

from ..plots.l09_moe import *  # noqa: F403
from ..widgets.l09_moe import *  # noqa: F403
from .l09_moe import *  # noqa: F403
