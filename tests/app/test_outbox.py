"""The outbox (app/outbox.py): what a committed move sets off is stored with the move and run
exactly once, whatever process dies when.

- a process that dies right after its moves' commits leaves their outbox rows; the next process
  queues each notice once (and a second pass queues nothing more);
- a listener that fails rolls its whole batch back (nothing half-queued) and the row is tried
  again later; a row that keeps failing does not hold up the others;
- on PostgreSQL, two processes draining the same rows at once queue each notice once.
"""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from sqlalchemy import select, update

from app.models_delivery import OutboxEvent, WebhookDelivery
from app.times import aware, utcnow

from .conftest import make_settings, running_app
from .test_webhooks import Receiver, _hook


async def _outbox(api) -> list[OutboxEvent]:
    async with api.services.db.read() as s:
        return list((await s.execute(select(OutboxEvent).order_by(OutboxEvent.id)))
                    .scalars().all())


async def _queued(api) -> list[tuple[int, int]]:
    """(game version, webhook user) of every queued delivery."""
    async with api.services.db.read() as s:
        rows = (await s.execute(select(WebhookDelivery).order_by(WebhookDelivery.id))).scalars()
        return [(r.payload["game"]["version"], r.payload["user"]["id"]) for r in rows]


async def _play_until_a_notice(api, gid, players) -> None:
    """Both play a card, the trick's winner scores: at least one "your turn" is set off."""
    for p, v in zip(players, (0, 1)):
        card = (await p.legal(gid))["actions"][0]
        assert (await p.act(gid, card, version=v)).status_code == 200
    winner_seat = (await players[0].game(gid))["waiting_for"][0]
    assert (await players[winner_seat].act(gid, {"type": "score"}, version=2)).status_code == 200


async def test_a_process_dying_after_its_moves_loses_no_notice_and_repeats_none(db_url):
    settings = make_settings(db_url, webhook_allow_private=True)
    async with Receiver() as rx:
        async with running_app(settings) as one:
            ada, bob = await one.user("ada"), await one.user("bob")
            gid = await one.toy_game(ada, others=[bob], start=False)
            for p in (ada, bob):
                await _hook(p, f"{rx.url}?{p.name}")
            one.services.outbox.abandon()  # the process dies after each commit, before notices
            assert (await ada.post(f"/api/games/{gid}/start")).status_code == 200
            await _play_until_a_notice(one, gid, [ada, bob])
            left = await _outbox(one)
            assert await _queued(one) == []  # nothing was queued ...
            # ... but the start (both owe a card) and the score's notice are stored
            assert [r.kind for r in left][0] == "your_turn" and left[0].version == 0
            assert sorted(left[0].payload["users"]) == sorted([ada.id, bob.id])
            expected = sorted((r.version, u) for r in left for u in r.payload["users"])
            assert any(v == 3 for v, _ in expected)
        async with running_app(settings) as two:  # the next process
            await two.services.signals.drain()
            assert sorted(await _queued(two)) == expected
            assert await _outbox(two) == []
            assert await two.services.outbox.run_once() == 0
            await rx.wait_for(len(expected))
            await asyncio.sleep(0.2)
            assert sorted(await _queued(two)) == expected
        assert len(rx.requests) == len(expected)


async def test_a_failing_listener_queues_nothing_and_is_tried_again(api):
    ada, bob = await api.user("ada"), await api.user("bob")
    gid = await api.toy_game(ada, others=[bob], start=False)
    await _hook(bob, "https://example.org/bob")
    calls = []

    async def broken(s, events):
        calls.append([e.game_id for e in events])
        raise RuntimeError("the mail server's table is gone")

    signals = api.services.signals
    signals.on_your_turn(broken)  # after the webhooks' listener: its rows are in the batch
    assert (await ada.post(f"/api/games/{gid}/start")).status_code == 200
    await signals.drain()
    assert calls  # it ran (the batch, then the row alone) ...
    assert await _queued(api) == []  # ... and the webhook's delivery went with the rollback
    [row] = await _outbox(api)
    assert row.attempts == 1 and row.status == "pending" and "RuntimeError" in row.last_error
    assert aware(row.next_attempt_at) > utcnow() + timedelta(seconds=1)  # backs off
    assert await api.services.outbox.run_once() == 0  # not due yet (backoff)

    signals.your_turn.remove(broken)
    async with api.services.db.write() as s:
        await s.execute(update(OutboxEvent).values(next_attempt_at=utcnow()))
        await s.commit()
    await signals.drain()
    assert await _queued(api) == [(0, bob.id)]
    assert await _outbox(api) == []


async def test_a_row_that_keeps_failing_does_not_hold_up_the_others(api):
    from app import outbox as outbox_mod

    ada, bob = await api.user("ada"), await api.user("bob")
    await _hook(bob, "https://example.org/bob")
    bad = await api.toy_game(ada, others=[bob], start=False)
    good = await api.toy_game(ada, others=[bob], start=False)

    async def poisoned(s, events):
        if any(e.game_id == bad for e in events):
            raise ValueError("cannot handle that game")

    api.services.signals.on_your_turn(poisoned)
    for gid in (bad, good):
        assert (await ada.post(f"/api/games/{gid}/start")).status_code == 200
    await api.services.signals.drain()
    assert await _queued(api) == [(0, bob.id)]  # the good game's notice went out
    for attempt in range(2, outbox_mod.MAX_ATTEMPTS + 1):
        async with api.services.db.write() as s:
            await s.execute(update(OutboxEvent).values(next_attempt_at=utcnow()))
            await s.commit()
        await api.services.outbox.run_once()
        [row] = await _outbox(api)
        assert row.game_id == bad and row.attempts == attempt
    assert row.status == "failed"  # the dead letter is kept
    assert await api.services.outbox.run_once() == 0
    assert await _queued(api) == [(0, bob.id)]


async def test_two_processes_drain_the_same_rows_once(db_url):
    if not db_url.startswith("postgresql"):
        pytest.skip("SQLite serves one process")
    settings = make_settings(db_url)
    async with running_app(settings) as one, running_app(settings) as two:
        ada, bob = await one.user("ada"), await one.user("bob")
        await _hook(bob, "https://example.org/bob")
        one.services.outbox.abandon()
        two.services.outbox.abandon()
        games = []
        for _ in range(12):
            gid = await one.toy_game(ada, others=[bob], start=False)
            assert (await ada.post(f"/api/games/{gid}/start")).status_code == 200
            games.append(gid)
        assert sorted(r.game_id for r in await _outbox(one) if r.game_id in games) == games
        # two live workers (the abandoned ones stand for the dead process that made the moves)
        from app.outbox import Outbox

        workers = [Outbox(app.services.db, app.services.signals, batch=3)
                   for app in (one, two)]
        await asyncio.gather(*(w.drain() for w in workers), *(w.drain() for w in workers))
        assert sorted(await _queued(one)) == [(0, bob.id)] * 12
        assert [r for r in await _outbox(one) if r.game_id in games] == []
