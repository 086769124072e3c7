"""tests/app/apptasks.py: an app fixture ends the tasks its app made, and only those."""

from __future__ import annotations

import asyncio
import contextlib
import warnings

from tests.app.apptasks import owned_tasks


async def _poll(wake: asyncio.Event, passes: list[int]) -> None:
    """A background loop as the job queues and the outbox poll: a fresh inner task of
    ``asyncio.wait_for`` on each pass."""
    while True:
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(wake.wait(), 0.01)
        passes.append(1)


async def test_the_inner_owner_leaves_the_outer_owners_tasks_running():
    outer_passes: list[int] = []
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no "outlived" warning either
        async with owned_tasks():
            outer = asyncio.create_task(_poll(asyncio.Event(), outer_passes))
            async with owned_tasks():
                inner = asyncio.create_task(_poll(asyncio.Event(), []))
                await asyncio.sleep(0.1)  # the outer loop made inner tasks meanwhile
            assert inner.cancelled()
            assert not outer.done()
            before = len(outer_passes)
            await asyncio.sleep(0.1)
            assert len(outer_passes) > before  # it still polls
        assert outer.cancelled()


async def test_a_task_that_swallows_its_cancellations_is_named():
    async def stubborn() -> None:
        for _ in range(2):  # swallows two cancellations, then ends
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.sleep(10)

    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        async with owned_tasks():
            task = asyncio.create_task(stubborn(), name="stubborn-one")
            await asyncio.sleep(0)
    assert task.done() and not task.cancelled()
    messages = [str(w.message) for w in seen]
    assert any("outlived a cancellation" in m and "stubborn-one" in m for m in messages), messages


async def test_a_task_made_outside_is_not_touched():
    outside = asyncio.create_task(asyncio.sleep(0.3))
    async with owned_tasks():
        await asyncio.sleep(0)
    assert not outside.done()
    await outside


async def test_a_closing_task_is_waited_for_not_cancelled():
    """A connection's graceful close (SQLAlchemy's ``_terminate_graceful_close``, shielded)
    ends by itself: the teardown waits for it instead of cancelling it."""
    closed: list[int] = []

    async def _terminate_graceful_close() -> None:
        await asyncio.sleep(0.2)
        closed.append(1)

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        async with owned_tasks():
            task = asyncio.create_task(_terminate_graceful_close())
            loop_task = asyncio.create_task(_poll(asyncio.Event(), []))
            await asyncio.sleep(0)
    assert task.done() and not task.cancelled() and closed == [1]
    assert loop_task.cancelled()
