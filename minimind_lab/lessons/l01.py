"""Lesson 01: Attention vs MLP: who does what.

Everything the notebook uses, under one name: ``from minimind_lab.lessons import l01``.
Compute: ``lessons/l01_attention.py`` (task, probes, experiments, ``SETUP``); draw:
``plots/l01_attention.py``; interact: ``widgets/l01_attention.py``.
"""

from ..plots.l01_attention import *  # noqa: F403
from ..widgets.l01_attention import *  # noqa: F403
from .l01_attention import *  # noqa: F403
