"""``app.tasks.end_task``: a task that swallows its cancellation (Python 3.11's ``wait_for`` race)
still ends; a plain ``cancel(); await`` of it would wait forever."""

from __future__ import annotations

import asyncio

import pytest

from app.tasks import end_task


def swallowing_loop(log: list[str]):
    async def run() -> None:
        swallowed = False
        while True:
            try:
                await asyncio.sleep(0.05)
            except asyncio.CancelledError:
                if swallowed:
                    log.append("ended")
                    raise
                swallowed = True  # the first cancellation is lost, as in the race
                log.append("swallowed")
    return run()


async def test_end_repeats_the_cancellation_until_the_task_ends():
    log: list[str] = []
    task = asyncio.create_task(swallowing_loop(log))
    await asyncio.sleep(0.01)
    await asyncio.wait_for(end_task(task, every=0.05), 5)
    assert task.done() and task.cancelled()
    assert log == ["swallowed", "ended"]


async def test_a_plain_cancel_and_await_does_not_end_it():
    log: list[str] = []
    task = asyncio.create_task(swallowing_loop(log))
    await asyncio.sleep(0.01)
    task.cancel()
    with pytest.raises(asyncio.TimeoutError):
        await asyncio.wait_for(asyncio.shield(task), 0.3)
    assert log == ["swallowed"] and not task.done()
    await end_task(task, every=0.05)
    assert task.cancelled()


async def test_end_takes_the_error_of_a_failed_task_and_accepts_none():
    async def fail() -> None:
        raise RuntimeError("boom")
    task = asyncio.create_task(fail())
    await asyncio.sleep(0)
    await end_task(task)  # no "exception was never retrieved", no raise
    assert task.done() and isinstance(task.exception(), RuntimeError)
    await end_task(None)


async def test_a_finished_task_is_left_as_it_is():
    async def ok() -> int:
        return 7
    task = asyncio.create_task(ok())
    await task
    await end_task(task)
    assert task.result() == 7
