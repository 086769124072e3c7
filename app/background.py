"""Ending a background task (the outbox, the job queues, the scheduler, the bus's listener, the
analysis worker, the notices' timer).

``task.cancel(); await task`` is not enough on Python 3.11: ``asyncio.wait_for`` swallows a
cancellation that arrives just as the awaited call completes, the loop goes on, and the
``await`` waits forever (it hung a CI run in the scheduler). ``end`` sends the cancellation
again every ``every`` seconds until the task has ended; each loop also checks a stop flag of
its own, so a swallowed cancellation costs at most one pass.
"""

from __future__ import annotations

import asyncio
import contextlib


async def end(task: asyncio.Task | None, *, every: float = 1.0) -> None:
    """Cancel ``task`` and wait until it has ended (its error, if any, is taken and dropped)."""
    if task is None:
        return
    while not task.done():
        task.cancel()
        await asyncio.wait({task}, timeout=every)
    if not task.cancelled():
        with contextlib.suppress(asyncio.CancelledError, Exception):
            task.result()
