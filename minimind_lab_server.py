"""JupyterLab server settings for the lessons: widget frames reach the browser without delay.

Jupyter's kernel websocket leaves Nagle's algorithm on, so a small frame written while the one
before is still unacknowledged waits for the browser's delayed ACK: about 40 ms on Linux. A
slider step sends several small frames (busy, the new image, idle), and one in a few stalls
like that. ``NoDelayKernelConnection`` switches the socket to ``TCP_NODELAY`` when a kernel
connection opens; ``run.lab_arguments`` selects it for ``python3 run.py lab`` and the browser
tests. Measured here (``python -m benchmarks --only browser``): the no-work floor's p95 from
key press to picture fell from 74 ms to 52 ms.

It lives outside ``minimind_lab`` so the server process does not import torch.
"""

from __future__ import annotations

import asyncio

from jupyter_server.services.kernels.connection.channels import ZMQChannelsWebsocketConnection


class NoDelayKernelConnection(ZMQChannelsWebsocketConnection):
    """Jupyter's kernel websocket connection, with ``TCP_NODELAY`` set when it opens."""

    def connect(self) -> asyncio.Future[None] | None:
        """Turn off Nagle's algorithm on this websocket, then connect as Jupyter does."""
        self.websocket_handler.set_nodelay(True)
        return super().connect()
