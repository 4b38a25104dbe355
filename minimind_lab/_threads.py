"""Run tiny tensor work on a fixed number of CPU threads.

The lessons' experiments use tensors of a few thousand numbers. At that size a second intra-op
thread mostly adds synchronisation, and on a busy machine (a notebook kernel beside a browser) the
waiting makes a 0.1 s fit take seconds. ``one_thread`` switches torch to one thread for a block
and restores the previous setting afterwards. ``fixed_threads(n)`` does the same for ``n``
threads, for work large enough to gain from a second one (lesson 08's training). A fixed count
also fixes how torch splits a sum between threads, so the numbers do not depend on how many
cores the machine has.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager

import torch


@contextmanager
def fixed_threads(n: int) -> Iterator[None]:
    """Within the block, torch uses ``n`` intra-op CPU threads; the old count comes back after."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ValueError(f"the number of threads must be a positive integer, got {n!r}")
    previous = torch.get_num_threads()
    torch.set_num_threads(n)
    try:
        yield
    finally:
        torch.set_num_threads(previous)


def one_thread() -> AbstractContextManager[None]:
    """Within the block, torch uses one intra-op CPU thread; the old count comes back after."""
    return fixed_threads(1)
