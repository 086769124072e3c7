"""One keeper of fire-and-forget background tasks (asyncio keeps only weak references to
running tasks: a task nobody holds may be collected mid-flight)."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine

_RUNNING: set[asyncio.Task] = set()


def spawn(coro: Coroutine, *, name: str | None = None,
          keep: set[asyncio.Task] | None = None) -> asyncio.Task:
    """Run ``coro`` in the background, held until it ends (and in ``keep`` until then too:
    the owner's own set of its tasks, to wait for them)."""
    task = asyncio.get_running_loop().create_task(coro, name=name)
    _RUNNING.add(task)
    task.add_done_callback(_RUNNING.discard)
    if keep is not None:
        keep.add(task)
        task.add_done_callback(keep.discard)
    return task


def running() -> int:
    """How many background tasks are running (tests, metrics)."""
    return len(_RUNNING)
