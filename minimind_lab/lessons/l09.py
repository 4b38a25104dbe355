"""Lesson 09: how much does an MLP hold? Bits per parameter, with and without it.

Everything the notebook uses, under one name: ``from minimind_lab.lessons import l09``.
Compute: ``lessons/l09_capacity.py`` (fact table, bits measure, models, batched training, the
sweep and its stored record, ``SETUP``); draw: ``plots/l09_capacity.py``; interact:
``widgets/l09_capacity.py``.
"""

from ..plots.l09_capacity import *  # noqa: F403
from ..widgets.l09_capacity import *  # noqa: F403
from .l09_capacity import *  # noqa: F403
