"""Async-generator hooks for the qasync loop.

asyncio's own loops install `sys.set_asyncgen_hooks` in `run_forever`; qasync's never does. Without
the hooks, an async generator left half-read (the SSE stream the MCP SDK stops reading once it has
the answer over Streamable HTTP) is finalized by the garbage collector outside any running loop:
"async generator ignored GeneratorExit", an unraisable error at a random moment. With them the
loop closes it in a task of its own, as plain asyncio does.
"""

from __future__ import annotations

import asyncio
import sys
from typing import Any


def install_asyncgen_hooks(loop: asyncio.AbstractEventLoop) -> Any:
    """Install `loop`'s hooks for this thread; returns the previous ones (for `sys.set_asyncgen_hooks`)."""
    old = sys.get_asyncgen_hooks()
    firstiter = getattr(loop, "_asyncgen_firstiter_hook", None)
    finalizer = getattr(loop, "_asyncgen_finalizer_hook", None)
    if firstiter is None or finalizer is None:  # not an asyncio BaseEventLoop: leave things be
        return old
    sys.set_asyncgen_hooks(firstiter=firstiter, finalizer=finalizer)
    return old
