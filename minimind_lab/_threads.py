"""Run tiny tensor work on one CPU thread.

The lessons' experiments use tensors of a few thousand numbers. At that size a second intra-op
thread only adds synchronisation, and on a busy machine (a notebook kernel beside a browser) the
waiting makes a 0.1 s fit take seconds. ``one_thread`` switches torch to one thread for a block
and restores the previous setting afterwards.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import torch


@contextmanager
def one_thread() -> Iterator[None]:
    """Within the block, torch uses one intra-op CPU thread; the old count comes back after."""
    previous = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        yield
    finally:
        torch.set_num_threads(previous)
