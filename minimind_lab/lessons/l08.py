"""Lesson 08: what the MLP buys, in a tiny MiniMind trained on facts, copies and fetches.

Everything the notebook uses, under one name: ``from minimind_lab.lessons import l08``.
Compute: the package ``lessons/l08_memory/`` (one module per section: task, models, training,
knockout, patching, grid, key_value, own_model, and the stored ``sweep``; ``SETUP``); draw:
``plots/l08_memory.py``; interact: ``widgets/l08_memory.py``.
"""

from ..plots.l08_memory import *  # noqa: F403
from ..widgets.l08_memory import *  # noqa: F403
from .l08_memory import *  # noqa: F403
