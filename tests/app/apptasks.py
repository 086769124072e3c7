"""Which asyncio tasks a test's app started, and ending them when the app is done.

pytest-asyncio cancels the leftovers of a test's loop once and waits for them without a bound:
a task that swallows that one cancellation (Python 3.11's ``asyncio.wait_for`` does when it
arrives as the awaited call completes: app/tasks.py) hung a whole run in its teardown. The app
fixtures (``running_app``, ``live_server``) therefore end their own tasks themselves.

"Their own" is decided by a tag, not by the time a task was made: while an app runs, a context
variable names it, and a task factory records, for each new task, the tag of the context that
made it. A task inherits its maker's context, so a background loop's every child (the inner
task of each ``asyncio.wait_for`` it polls with) carries its app's tag. A test with two apps at
once (``test_daily``'s two processes) used to have the second app's teardown cancel the first
app's fresh poll tasks, which were made after the second started: a cancellation the first
app's loop does not expect, and a false "outlived" warning.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import itertools
import warnings
import weakref
from collections.abc import AsyncIterator

_APP: contextvars.ContextVar[int | None] = contextvars.ContextVar("menagerie_test_app",
                                                                  default=None)
_OWNER: weakref.WeakKeyDictionary[asyncio.Task, int] = weakref.WeakKeyDictionary()
_TAGS = itertools.count(1)


def _tagging_factory(loop, coro, *, context=None):
    task = asyncio.Task(coro, loop=loop, context=context)
    tag = context.get(_APP) if context is not None else _APP.get()
    if tag is not None:
        _OWNER[task] = tag
    return task


@contextlib.asynccontextmanager
async def owned_tasks() -> AsyncIterator[int]:
    """Tag the tasks made inside the block (and their children, at any depth) with a new tag;
    at the end, cancel the ones still running until they have ended (:func:`settle`)."""
    loop = asyncio.get_running_loop()
    previous = loop.get_task_factory()
    if previous is not _tagging_factory:
        loop.set_task_factory(_tagging_factory)
    tag = next(_TAGS)
    token = _APP.set(tag)
    try:
        yield tag
    finally:
        _APP.reset(token)
        try:
            await settle(tag)
        finally:
            if previous is not _tagging_factory:
                loop.set_task_factory(previous)


#: Tasks that close a resource and end by themselves: waited for, not cancelled (until the
#: limit). SQLAlchemy's async adapter closes a connection it terminates under a cancellation in
#: a shielded task (``_terminate_graceful_close``); cancelled, aiosqlite's worker thread went on
#: and later called into the closed loop (a thread exception in the next test).
SELF_ENDING = ("_terminate_graceful_close",)


def self_ending(task: asyncio.Task) -> bool:
    name = getattr(task.get_coro(), "__qualname__", "")
    return name.rpartition(".")[2] in SELF_ENDING


def owned_by(tag: int) -> list[asyncio.Task]:
    me = asyncio.current_task()
    return [t for t in asyncio.all_tasks() if t is not me and not t.done()
            and _OWNER.get(t) == tag]


async def settle(tag: int, limit: float = 15.0) -> None:
    """Cancel the running tasks tagged ``tag`` every half second (as ``tasks.end_task`` does)
    until they have ended or ``limit`` seconds have passed; warn naming each task that was
    cancelled and still ran half a second later (a swallowed cancellation). A task that ends by
    itself (:func:`self_ending`) is waited for, and cancelled only once the limit has passed."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + limit
    cancelled: set[asyncio.Task] = set()
    stubborn: set[str] = set()
    while rest := owned_by(tag):
        stubborn.update(f"{t.get_name()} {t.get_coro()!r}" for t in rest if t in cancelled)
        if loop.time() > deadline:
            for t in rest:
                t.cancel()
            break
        for t in rest:
            if not self_ending(t):
                t.cancel()
                cancelled.add(t)
        await asyncio.wait(rest, timeout=0.5)
    if stubborn:
        warnings.warn("tasks that outlived a cancellation: " + "; ".join(sorted(stubborn)),
                      stacklevel=1)
