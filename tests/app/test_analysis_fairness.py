"""Issue #31, findings 4 and 5: one account's imported games used to keep a victim's analysis
pending for the whole run, and two accounts' hints pushed a victim's hint from 0.33 s to 5.4 s.
Each attack is performed and refused, on SQLite and PostgreSQL: analyses only for the game's
players (and its importer), one queued or running analysis per user, the queue taken in turns
across users; hints limited per user, one at a time per user, in a niced process."""

from __future__ import annotations

import asyncio
import os

from sqlalchemy import select

from app.analysis.store import fair_order
from app.models import Analysis
from app.times import utcnow

from .conftest import make_settings, running_app
from .test_analysis_api import PRELOAD, finished_toy, hints_game, wait_status


async def _hints_game(api, owner, other) -> int:
    """A running toy game with hints, ``owner`` in seat 0 (both seats owe a decision)."""
    r = await owner.post("/api/games", json={"game": "toy", "seats": 2, "hints": True})
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    assert (await other.post(f"/api/games/{gid}/join")).status_code == 200
    assert (await owner.post(f"/api/games/{gid}/start")).status_code == 200
    return gid
from .test_records import bot_record


def _settings(db_url, **extra):
    return make_settings(db_url, analysis_playouts=1, analysis_policy="mix", hint_playouts=1,
                         analysis_preload=PRELOAD, analysis_flush_seconds=0.05,
                         analysis_poll_seconds=0.3, **extra)


async def test_only_players_and_the_importer_may_queue_an_analysis(db_url):
    async with running_app(_settings(db_url, analysis_workers=0)) as api:
        gid, ada, bob = await finished_toy(api)
        mallory = await api.user("mallory")
        r = await mallory.post(f"/api/games/{gid}/analysis")
        assert r.status_code == 403 and r.json()["error"]["code"] == "not_a_player"
        async with api.services.db.read() as s:
            assert (await s.execute(select(Analysis.requested_by))).scalars().all() in ([], [None])
        # an imported game: its importer may, nobody else
        r = await mallory.post("/api/games/import", json=bot_record())
        assert r.status_code == 201, r.text
        imported = r.json()["id"]
        r = await ada.post(f"/api/games/{imported}/analysis")
        assert r.status_code == 403 and r.json()["error"]["code"] == "not_a_player"
        r = await mallory.post(f"/api/games/{imported}/analysis")
        assert r.status_code == 202, r.text
        # anyone still reads a finished game's analysis
        assert (await ada.get(f"/api/games/{imported}/analysis")).json()["status"] == "pending"


async def test_one_queued_analysis_per_user(db_url):
    """Mallory imports five long games and asks for all five: the first is queued, the other
    four are refused while it is queued or running; the victim's request is queued."""
    async with running_app(_settings(db_url, analysis_workers=0)) as api:
        mallory = await api.user("mallory")
        imported = []
        for _ in range(5):
            r = await mallory.post("/api/games/import", json=bot_record())
            assert r.status_code == 201, r.text
            imported.append(r.json()["id"])
        codes = [(await mallory.post(f"/api/games/{g}/analysis")) for g in imported]
        assert [r.status_code for r in codes] == [202, 429, 429, 429, 429]
        assert {r.json()["error"]["code"] for r in codes[1:]} == {"analysis_pending"}
        # asking again for the queued one is no new job
        assert (await mallory.post(f"/api/games/{imported[0]}/analysis")).status_code == 202
        gid, ada, _ = await finished_toy(api)
        assert (await ada.post(f"/api/games/{gid}/analysis")).status_code == 202
        async with api.services.db.read() as s:
            queued = (await s.execute(select(Analysis.requested_by, Analysis.game_id)
                                      .order_by(Analysis.id))).all()
        assert queued == [(mallory.id, imported[0]), (None, gid)]  # rated: queued by the server
        # once mallory's is cancelled, the next one may be asked for
        assert (await mallory.delete(f"/api/games/{imported[0]}/analysis")).status_code == 200
        assert (await mallory.post(f"/api/games/{imported[1]}/analysis")).status_code == 202


async def test_the_queue_is_taken_in_turns_across_users(db_url):
    """Rows left from before the limit (or queued by the server for rated games): five of
    mallory's, older than the victim's one, and two of the server's. The worker takes one of
    each requester per turn, so the victim's job is in the first batch of three."""
    async with running_app(_settings(db_url, analysis_workers=0)) as api:
        mallory, victim = await api.user("mallory"), await api.user("victim")
        games = []
        for _ in range(8):
            r = await mallory.post("/api/games/import", json=bot_record())
            games.append(r.json()["id"])
        now = utcnow()
        owners = [mallory.id] * 5 + [None, None] + [victim.id]
        async with api.services.db.write() as s:
            for gid, owner in zip(games, owners):
                s.add(Analysis(game_id=gid, status="pending", settings={}, entries=[],
                               requested_by=owner, created_at=now, updated_at=now))
            await s.commit()
        async with api.services.db.read() as s:
            ids = {gid: aid for aid, gid in (await s.execute(
                select(Analysis.id, Analysis.game_id))).all()}
            order = await fair_order(s, (Analysis.status == "pending",), 8)
        assert order == [ids[games[0]], ids[games[5]], ids[games[7]],   # turn 1
                         ids[games[1]], ids[games[6]],                  # turn 2
                         ids[games[2]], ids[games[3]], ids[games[4]]]
        worker = api.services.analysis.worker
        taken = await worker.claim(3)
        assert [gid for _, gid in taken] == [games[0], games[5], games[7]]


async def test_the_victims_analysis_runs_beside_a_long_queue(db_url):
    async with running_app(_settings(db_url, analysis_workers=1)) as api:
        mallory = await api.user("mallory")
        r = await mallory.post("/api/games/import", json=bot_record())
        assert (await mallory.post(f"/api/games/{r.json()['id']}/analysis")).status_code == 202
        gid, ada, _ = await finished_toy(api)
        assert (await ada.post(f"/api/games/{gid}/analysis")).status_code == 202
        done = await wait_status(ada, gid)
        assert done["status"] == "done" and done["report"] is not None


# --------------------------------------------------------------------------- hints
async def test_hints_are_limited_per_user(db_url):
    async with running_app(_settings(db_url, rate_hints_burst=2)) as api:
        gid, ada, bob = await hints_game(api)
        for _ in range(2):
            assert (await bob.get(f"/api/games/{gid}/hint")).status_code == 200
        r = await bob.get(f"/api/games/{gid}/hint")
        assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited"
        assert "Retry-After" in r.headers
        # another user is not affected
        assert (await ada.get(f"/api/games/{gid}/hint")).status_code in (200, 409)


async def test_one_hint_at_a_time_per_user_and_the_victim_is_served(db_url):
    """While the hint process is busy (held here), mallory asks for hints in five games at
    once: one waits its turn, four are refused at once; the victim's hint waits behind one
    hint of mallory's at most, and is answered."""
    async with running_app(_settings(db_url)) as api:
        mallory, victim = await api.user("mallory"), await api.user("victim")
        games = [await _hints_game(api, mallory, await api.user()) for _ in range(5)]
        vgame = await _hints_game(api, victim, await api.user())
        await api.services.signals.drain()
        pool = api.services.analysis.hints
        await pool._lock.acquire()  # the process is busy with somebody's hint
        try:
            asks = [asyncio.create_task(_hint_when_due(api, mallory, g)) for g in games]
            for _ in range(500):
                if mallory.id in pool.pending and sum(t.done() for t in asks) == 4:
                    break
                await asyncio.sleep(0.01)
            victim_ask = asyncio.create_task(_hint_when_due(api, victim, vgame))
            for _ in range(500):
                if victim.id in pool.pending:
                    break
                await asyncio.sleep(0.01)
            refused = [t.result() for t in asks if t.done()]
            assert [r.status_code for r in refused] == [429] * 4
            assert {r.json()["error"]["code"] for r in refused} == {"hint_pending"}
        finally:
            pool._lock.release()
        answered = [r for r in await asyncio.gather(*asks) if r.status_code == 200]
        assert len(answered) == 1
        assert (await victim_ask).status_code == 200
        assert pool.pending == {}


async def _hint_when_due(api, player, gid):
    """A hint for ``player``'s seat in ``gid`` (played up to a decision of theirs)."""
    return await player.get(f"/api/games/{gid}/hint")


async def test_the_hint_process_is_niced(db_url):
    async with running_app(_settings(db_url, hint_nice=7)) as api:
        gid, _, bob = await hints_game(api)
        assert (await bob.get(f"/api/games/{gid}/hint")).status_code == 200
        pid = api.services.analysis.hints.pid
        assert pid is not None
        assert os.getpriority(os.PRIO_PROCESS, pid) - os.getpriority(os.PRIO_PROCESS, 0) \
            == 7 or os.getpriority(os.PRIO_PROCESS, pid) == 19
