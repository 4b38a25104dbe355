"""Lesson 10: When every token shares one MLP: toward MoE.

Everything the notebook uses, under one name: ``from minimind_lab.lessons import l10``.
Compute: ``lessons/l10_moe.py`` (task, probes, experiments, ``SETUP``); draw:
``plots/l10_moe.py``; interact: ``widgets/l10_moe.py``.
"""

from ..plots.l10_moe import *  # noqa: F403
from ..widgets.l10_moe import *  # noqa: F403
from .l10_moe import *  # noqa: F403
