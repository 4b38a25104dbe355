"""Lesson 03: Activation curves and their derivatives.

Everything the notebook uses, under one name: ``from minimind_lab.lessons import l03``.
Compute: ``lessons/l03_activations.py`` (task, probes, experiments, ``SETUP``); draw:
``plots/l03_activations.py``; interact: ``widgets/l03_activations.py``.
"""

from ..plots.l03_activations import *  # noqa: F403
from ..widgets.l03_activations import *  # noqa: F403
from .l03_activations import *  # noqa: F403
