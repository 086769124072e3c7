"""Background tasks: one keeper of the fire-and-forget ones (asyncio keeps only weak references
to running tasks: a task nobody holds may be collected mid-flight), and :func:`end_task`, which
ends a background loop for sure.

``task.cancel(); await task`` is not enough on Python 3.11: ``asyncio.wait_for`` swallows a
cancellation that arrives just as the awaited call completes, the loop goes on, and the
``await`` waits forever (it hung a CI run in the scheduler). :func:`end_task` sends the
cancellation again every ``every`` seconds until the task has ended; each loop (the outbox, the
job queues, the scheduler, the bus's listener, the analysis worker) also checks a stop flag of
its own, so a swallowed cancellation costs at most one pass.
"""

from __future__ import annotations

import asyncio
import contextlib
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


async def end_task(task: asyncio.Task | None, *, every: float = 1.0) -> None:
    """Cancel ``task`` and wait until it has ended (its error, if any, is taken and dropped)."""
    if task is None:
        return
    while not task.done():
        task.cancel()
        await asyncio.wait({task}, timeout=every)
    if not task.cancelled():
        with contextlib.suppress(asyncio.CancelledError, Exception):
            task.result()
