"""What runs inside the analysis worker processes (never in the server's event loop).

Only the engine is used here (``engine.bots.analysis``: ``points``, ``analyse_point``,
``summarize``, ``hint``); everything arrives as plain JSON-able data and leaves as messages on
a queue, so a process may be spawned fresh (``spawn``: no state of the server is inherited).

A job's messages, in order: ``("total", n)``, then ``("entry", entry)`` per analysed decision,
then one of ``("report", report)`` (complete), ``("stopped", report)`` (``stop`` was set: the
partial report) or ``("error", text)``.
"""

from __future__ import annotations

import importlib
import os
import time
import traceback
from typing import Any

import engine


def preload(modules: list[str]) -> None:
    """Register games a plugin (or a test) added to the server: ``"module:attr"`` names a
    :class:`engine.core.Game` to register in this process."""
    for spec in modules:
        mod, _, attr = spec.partition(":")
        game = getattr(importlib.import_module(mod), attr)
        if game.name not in engine.game_names():
            engine.register(game, replace=True)


def lower_priority(nice: int) -> None:
    """This process yields the CPU to the server's: niced, and on Linux in the ``SCHED_IDLE``
    class (it runs only when no ordinary process wants the CPU, and a waking request handler
    preempts it at once, where a niced process would keep its time slice)."""
    os.nice(nice)
    idle = getattr(os, "SCHED_IDLE", None)
    if idle is not None:
        try:
            os.sched_setscheduler(0, idle, os.sched_param(0))
        except OSError:  # not allowed here: the niceness alone
            pass


def make_way(live_at: Any, took: float, share: float, window: float) -> float:
    """Seconds to pause after an entry that took ``took`` seconds, so that while live play is
    on (a move was made in the server less than ``window`` seconds ago: ``live_at`` holds its
    ``time.monotonic()``) the analysis computes only ``share`` of the time. The priority
    (:func:`lower_priority`) gives the server the CPU it asks for; what it cannot give back is
    the rest of the machine (caches, memory bandwidth, the database's CPU), hence the pause."""
    if live_at is None or share >= 1.0 or took <= 0:
        return 0.0
    seen = live_at.value
    if not seen or time.monotonic() - seen > window:
        return 0.0
    return took * (1.0 / max(share, 0.05) - 1.0)


def run_job(job: dict, out: Any, stop: Any, modules: list[str] = (), nice: int = 0,
            live_at: Any = None, live_share: float = 1.0, live_window: float = 5.0) -> None:
    """Analyse one game (see the module's doc). ``job``: ``game``, ``seats`` (the count),
    ``options``, ``seed``, ``actions`` (``[{"seat", "action"}]``, the effective log),
    ``versions`` (the log version before each action), ``settings``, ``done`` (entries
    computed earlier: never computed again). ``live_at``, ``live_share``, ``live_window``:
    see :func:`make_way`."""
    try:
        if nice:  # below the server's processes: live play gets the CPU first
            lower_priority(nice)
        preload(list(modules))
        from engine.bots import analysis as an

        game = engine.get_game(job["game"])
        settings = an.Settings.from_dict(job.get("settings") or {})
        seats, options, seed = job["seats"], job["options"], job["seed"]
        actions = job["actions"]
        versions = job["versions"]
        points = an.points(game, seats, options, seed, actions)
        settings = an.for_game(settings, points)  # a long game: fewer playouts per move
        out.put(("total", len(points)))
        done = {int(e["index"]): e for e in job.get("done") or []}
        todo = {p["index"]: p for p in points if p["index"] not in done}
        state = game.setup(seats, options, seed)
        stopped = False
        for i, step in enumerate(actions):
            if not todo:
                break
            point = todo.pop(i, None)
            if point is not None:
                if stop.is_set():
                    stopped = True
                    break
                began = time.monotonic()
                entry = an.analyse_point(game, state, point["seat"], point["action"],
                                         settings, i)
                pause = make_way(live_at, time.monotonic() - began, live_share, live_window)
                if pause:
                    stop.wait(pause)  # a stop still ends the job at once
                entry["version"] = versions[i]  # the replay page's version
                done[i] = entry
                out.put(("entry", entry))
            state, _ = game.apply(state, step["seat"], step["action"])
        entries = [done[k] for k in sorted(done)]
        # with the log, the labels see the position of each mistake (card names on display)
        report = an.summarize(game, seats, entries, len(points), settings=settings,
                              actions=actions, options=options, seed=seed)
        out.put(("stopped" if stopped else "report", report))
    except BaseException as exc:  # the parent records it; the process ends anyway
        out.put(("error", f"{type(exc).__name__}: {exc}"[:400]))
        traceback.print_exc()


def run_hint(name: str, dumped: dict, seat: int, settings: dict | None) -> dict:
    """The engine's hint for ``seat`` at a state (a process of the hint pool)."""
    from engine.bots import analysis as an, hints

    game = engine.get_game(name)
    state = game.load(dumped)
    return hints.hint(game, state, seat, an.Settings.from_dict(settings or {}))


def hint_loop(conn: Any, modules: list[str] = (), nice: int = 0) -> None:
    """The hint process (``app/analysis/hints.py``): answer ``(name, dumped, seat, settings)``
    jobs from ``conn`` one after another with ``("ok", hint)`` or ``("error", text)``, until
    the pipe closes or ``None`` arrives. The server kills the process when a hint takes too
    long, so a search it gave up on never runs on. ``nice``: below the server's processes, as
    the analysis jobs (live moves get the CPU first)."""
    if nice:
        lower_priority(nice)
    preload(list(modules))
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        if job is None:
            return
        try:
            answer = ("ok", run_hint(*job))
        except Exception as exc:  # the engine could not search this decision
            answer = ("error", f"{type(exc).__name__}: {exc}"[:400])
        try:
            conn.send(answer)
        except (EOFError, OSError):
            return
