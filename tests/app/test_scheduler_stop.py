"""The scheduler stops even when a pass swallows its cancellation (Python 3.11's
``asyncio.wait_for`` does so when the awaited query completes as the cancellation arrives; a
plain ``await`` of the task then waited forever in CI)."""

from __future__ import annotations

import asyncio
import types

from app.scheduler import Scheduler


async def test_stop_ends_a_pass_that_swallowed_its_cancellation():
    db = types.SimpleNamespace(is_postgres=False)
    sched = Scheduler(games=None, db=db, interval=0.01)
    swallowed = []

    async def lead() -> bool:
        try:
            await asyncio.sleep(0.05)
        except asyncio.CancelledError:  # what the wait_for race does: the query's result wins
            swallowed.append(True)
        return False

    sched._lead = lead  # the pass only leads (no games to play)
    await sched.start()
    await asyncio.sleep(0.03)
    await asyncio.wait_for(sched.stop(), 10)
    assert swallowed, "the cancellation reached the pass"
    assert sched._task is None and not sched.leader


async def test_stop_twice_and_before_start_is_harmless():
    sched = Scheduler(games=None, db=types.SimpleNamespace(is_postgres=False), interval=0.01)
    await sched.stop()
    await sched.start()
    await asyncio.sleep(0.03)
    await sched.stop()
    await sched.stop()
    assert sched._task is None
