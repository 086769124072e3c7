"""A game waiting for a bot that no bot plays is driven again by the scheduler's sweep
(app/games/bots.py ``BotDriver.sweep``): a bot that failed to choose once must not stall the
game for good."""

from __future__ import annotations

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
