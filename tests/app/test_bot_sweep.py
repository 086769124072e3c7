"""A game waiting for a bot that no bot plays is driven again by the scheduler's sweep
(app/games/bots.py ``BotDriver.sweep``): a bot that failed to choose once must not stall the
game for good."""

from __future__ import annotations

import asyncio
import logging
import threading
import time

from app.games import bots as bots_mod

from .conftest import make_settings, running_app


async def test_a_stalled_bot_seat_is_driven_again_by_the_sweep(db_url, monkeypatch):
    async with running_app(make_settings(db_url, scheduler=False)) as api:
        ada = await api.user()
        gid = await api.toy_game(ada, seats=2, bots=[1])
        await api.idle()
        real = bots_mod.bot_choice
        failures = []

        async def fails_once(*args, **kw):
            if not failures:
                failures.append(1)
                raise RuntimeError("a bot that failed to choose (planted)")
            return await real(*args, **kw)

        monkeypatch.setattr(bots_mod, "bot_choice", fails_once)
        for _ in range(20):  # ada moves until the bot is to move (and fails)
            g = await ada.game(gid)
            assert g["status"] == "running", g
            if failures:
                break
            if 0 in g["waiting_for"]:
                r = await ada.act(gid, (await ada.legal(gid))["actions"][0],
                                  version=g["version"])
                assert r.status_code == 200, r.text
            await api.idle()
        stalled = await ada.game(gid)
        assert failures == [1]
        # the bot seat still owes (the toy game may wait for both seats at once)
        assert stalled["status"] == "running" and 1 in stalled["waiting_for"], stalled

        driver = api.services.games.bots
        assert await driver.sweep() == []  # the first pass only notes it
        driver._swept = float("-inf")  # the next pass is due (SWEEP_EVERY later)
        assert await driver.sweep() == [gid]
        await api.idle()
        after = await ada.game(gid)
        # nobody else acted: the new version is the bot's move
        assert after["version"] > stalled["version"]


async def test_a_bot_step_stuck_for_long_is_named_in_the_log(db_url, monkeypatch, caplog):
    """A driver inside one step for STUCK_STEP seconds (here a planted bot that never answers
    until released) is logged once, with where it waits; released, the game goes on."""
    async with running_app(make_settings(db_url, scheduler=False)) as api:
        ada = await api.user()
        gid = await api.toy_game(ada, seats=2, bots=[1])
        await api.idle()
        real = bots_mod.bot_choice
        release = asyncio.Event()
        entered = asyncio.Event()

        async def planted_slow_bot(*args, **kw):
            entered.set()
            await release.wait()
            return await real(*args, **kw)

        monkeypatch.setattr(bots_mod, "bot_choice", planted_slow_bot)
        for _ in range(20):  # ada moves until the bot is to move (and hangs)
            g = await ada.game(gid)
            if entered.is_set():
                break
            if 0 in g["waiting_for"]:
                r = await ada.act(gid, (await ada.legal(gid))["actions"][0],
                                  version=g["version"])
                assert r.status_code == 200, r.text
            await asyncio.sleep(0.05)
        assert entered.is_set()
        driver = api.services.games.bots
        now = time.monotonic()
        assert driver.report_stuck(now) == []  # just began: not stuck
        caplog.set_level(logging.WARNING, logger="menagerie.games")
        later = now + bots_mod.STUCK_STEP + 1
        assert driver.report_stuck(later) == [gid]
        assert driver.report_stuck(later + 60) == [gid]  # still stuck, but logged once
        said = [r.getMessage() for r in caplog.records if "in one step" in r.getMessage()]
        assert len(said) == 1 and f"game {gid}:" in said[0] and "planted_slow_bot" in said[0]
        before = (await ada.game(gid))["version"]
        release.set()
        await api.idle()
        assert (await ada.game(gid))["version"] > before
        assert driver.report_stuck(later + 120) == []


async def test_a_bot_thinks_while_the_default_threads_are_all_busy(db_url):
    """The bots think in their own threads: a process whose default executor is full of
    blocking work (hint asks, analysis waits, password hashes) still gets its bot moves."""
    async with running_app(make_settings(db_url, scheduler=False)) as api:
        ada = await api.user()
        gid = await api.toy_game(ada, seats=2, bots=[1])
        await api.idle()
        loop = asyncio.get_running_loop()
        gate = threading.Event()
        # more blocked jobs than the default executor has threads: every one of them is busy
        blockers = [loop.run_in_executor(None, gate.wait, 30) for _ in range(64)]
        try:
            for _ in range(6):
                g = await ada.game(gid)
                assert g["status"] == "running", g
                if 0 not in g["waiting_for"]:
                    await api.services.games.bots.wait_idle(10)
                    continue
                r = await ada.act(gid, (await ada.legal(gid))["actions"][0], version=g["version"])
                assert r.status_code == 200, r.text
                v = r.json()["version"]
                await asyncio.wait_for(api.services.games.bots.wait_idle(10), 10)
                after = await ada.game(gid)
                if after["status"] != "running":
                    break
                # the bot answered (its seat no longer owes, the version moved past ada's)
                assert after["version"] > v or 1 not in after["waiting_for"], after
        finally:
            gate.set()
            await asyncio.gather(*blockers)
