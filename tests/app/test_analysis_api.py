"""Post-game analysis and hints through the API (issue #19): request, reuse, cancel, resume
after a restart, who sees what, the automatic request when a rated game ends, and hints in
casual games (off by default, only for a seat that owes a decision, legal, from that seat's view
only). Small engine settings (``analysis_playouts``/``hint_playouts`` = 1, the cheap ``mix`` look)
keep them fast; the jobs run in real worker processes."""

from __future__ import annotations

import asyncio
import json
import re
from datetime import timedelta

import pytest
from sqlalchemy import func, select, update

from app.models import Analysis, Game
from app.times import utcnow

from .conftest import make_settings, play_to_end

PRELOAD = "tests.toygame:TOY"


@pytest.fixture
def settings(db_url):
    return make_settings(db_url, analysis_playouts=1, analysis_policy="mix", hint_playouts=1,
                         analysis_preload=PRELOAD, analysis_flush_seconds=0.05,
                         analysis_poll_seconds=0.3)


async def finished_toy(api, players=None, **kw):
    ada, bob = players or (await api.user(), await api.user())
    gid = await api.toy_game(ada, others=[bob], **kw)
    await play_to_end(api, gid, [ada, bob])
    await api.services.signals.drain()
    return gid, ada, bob


async def wait_status(player_or_client, gid, want=("done",), timeout=90.0) -> dict:
    get = player_or_client.get
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while True:
        r = await get(f"/api/games/{gid}/analysis")
        assert r.status_code == 200, r.text
        body = r.json()
        if body["status"] in want:
            return body
        assert body["status"] not in ("failed",), body
        assert loop.time() < end, f"analysis still {body['status']} ({body['done']}/{body['total']})"
        await asyncio.sleep(0.1)


async def rows(api, gid):
    async with api.services.db.read() as s:
        return (await s.execute(select(Analysis).where(Analysis.game_id == gid))).scalars().all()


# --------------------------------------------------------------------------- analysis

def test_the_servers_analysis_look_is_a_setting(monkeypatch):
    """``MENAGERIE_ANALYSIS_POLICY`` picks the look (unset: the engine's default, ``plan``);
    a look the engine does not have is refused when the server starts, not at the first job."""
    from pydantic import ValidationError

    from app.analysis.service import engine_settings
    from app.settings import Settings
    from engine.bots.analysis import Settings as Look

    default = engine_settings(make_settings("sqlite+aiosqlite:///unused.db"))
    assert default == Look().as_dict() and default["policy"] == "plan"
    mix = engine_settings(make_settings("sqlite+aiosqlite:///unused.db", analysis_policy="mix",
                                        analysis_playouts=3))
    assert mix == {**default, "policy": "mix", "playouts": 3}
    monkeypatch.setenv("MENAGERIE_ANALYSIS_POLICY", "deep")
    with pytest.raises(ValidationError):
        Settings(database_url="sqlite+aiosqlite:///unused.db")
    monkeypatch.setenv("MENAGERIE_ANALYSIS_POLICY", "own")
    own = Settings(database_url="sqlite+aiosqlite:///unused.db")
    assert engine_settings(own)["policy"] == "own"


async def test_request_runs_once_and_reports(api):
    gid, ada, bob = await finished_toy(api)
    watcher = await api.user()
    # only the game's players may ask (issue #31): anyone else could fill the queue
    r = await watcher.post(f"/api/games/{gid}/analysis")
    assert r.status_code == 403 and r.json()["error"]["code"] == "not_a_player"
    r = await bob.post(f"/api/games/{gid}/analysis")
    assert r.status_code == 202, r.text
    assert r.json()["status"] in ("pending", "running")
    # a second request (the other player) reuses the game's row
    r2 = await ada.post(f"/api/games/{gid}/analysis")
    assert r2.status_code in (200, 202), r2.text
    done = await wait_status(api.client, gid)  # anybody may read a finished game's analysis
    assert len(await rows(api, gid)) == 1
    report = done["report"]
    assert done["done"] == done["total"] == report["total"] > 0
    assert report["complete"] is True
    assert len(report["entries"]) == report["total"]
    assert [x["seat"] for x in report["seats"]] == [0, 1]
    # the server's overrides reach the job; the rest are the engine's defaults
    assert done["settings"]["playouts"] == 1 and done["settings"]["policy"] == "mix"
    assert done["settings"]["accuracy"] == "win"
    assert len(report["series"]) == 2
    assert sum(x["decisions"] for x in report["seats"]) == report["total"]
    # entries name the replay's versions: the state before the answer at that version
    log = (await ada.get(f"/api/games/{gid}/log?after=0")).json()["entries"]
    made = {e["version"] - 1: e["seat"] for e in log}
    for e in report["entries"]:
        assert made[e["version"]] == e["seat"]
    # done: asking again answers 200 with the report, still one row
    r3 = await bob.post(f"/api/games/{gid}/analysis")
    assert r3.status_code == 200 and r3.json()["status"] == "done"
    assert r3.json()["report"]["entries"] == report["entries"]
    assert len(await rows(api, gid)) == 1


async def test_running_unknown_and_sealed_games(api):
    ada, bob = await api.user(), await api.user()
    gid = await api.toy_game(ada, others=[bob])
    r = await ada.post(f"/api/games/{gid}/analysis")
    assert r.status_code == 409 and r.json()["error"]["code"] == "game_not_finished"
    got = (await ada.get(f"/api/games/{gid}/analysis")).json()
    assert got["status"] == "none" and got["report"] is None and got["can_request"] is False
    assert (await ada.post("/api/games/987654/analysis")).status_code == 404
    assert (await api.client.get("/api/games/987654/analysis")).status_code == 404
    assert (await api.client.post(f"/api/games/{gid}/analysis")).status_code == 401
    # a sealed game (a daily challenge's, until its day is over): nobody's, as its record
    done, ada2, _ = await finished_toy(api)
    async with api.services.db.write() as s:
        await s.execute(update(Game).where(Game.id == done)
                        .values(sealed_until=utcnow() + timedelta(days=1)))
        await s.commit()
    for who in (ada2, api.client):
        r = await who.get(f"/api/games/{done}/analysis")
        assert r.status_code == 403 and r.json()["error"]["code"] == "game_sealed"
    r = await ada2.post(f"/api/games/{done}/analysis")
    assert r.status_code == 403 and r.json()["error"]["code"] == "game_sealed"
    assert (await ada2.get(f"/api/games/{done}/record")).status_code == 403  # the same rule


async def test_cancel_then_request_again(api):
    gid, ada, bob = await finished_toy(api)
    watcher = await api.user()
    worker = api.services.analysis.worker
    await worker.stop()  # nothing runs: the job stays queued while we look at it
    r = await ada.post(f"/api/games/{gid}/analysis")
    assert r.status_code == 202 and r.json()["status"] == "pending"
    assert r.json()["can_cancel"] is True
    r = await watcher.delete(f"/api/games/{gid}/analysis")
    assert r.status_code == 403 and r.json()["error"]["code"] == "not_a_player"
    assert (await watcher.get(f"/api/games/{gid}/analysis")).json()["can_cancel"] is False
    r = await bob.delete(f"/api/games/{gid}/analysis")
    assert r.status_code == 200 and r.json()["status"] == "cancelled"
    r = await bob.delete(f"/api/games/{gid}/analysis")
    assert r.status_code == 409 and r.json()["error"]["code"] == "analysis_not_running"
    worker.start()
    worker.wake()
    await asyncio.sleep(1.0)
    assert (await rows(api, gid))[0].status == "cancelled"  # a cancelled job is not taken
    # asked again (by a player: issue #31), the same row is queued again and runs
    r = await watcher.post(f"/api/games/{gid}/analysis")
    assert r.status_code == 403 and r.json()["error"]["code"] == "not_a_player"
    r = await bob.post(f"/api/games/{gid}/analysis")
    assert r.status_code == 202
    await wait_status(watcher, gid)
    assert len(await rows(api, gid)) == 1


async def test_resume_after_restart_keeps_stored_entries(api):
    """A row left ``running`` by a dead process, with half its entries stored and its lease
    over, is taken by a worker and finished without recomputing the stored entries."""
    gid, ada, _ = await finished_toy(api)
    await ada.post(f"/api/games/{gid}/analysis")
    full = (await wait_status(ada, gid))["report"]
    entries = full["entries"]
    half = len(entries) // 2
    assert half >= 2
    planted = [{**e, "value_best": e["value_best"] + 50.0, "loss": e["loss"] + 50.0,
                "planted": True} for e in entries[:half]]
    await api.services.analysis.worker.stop()
    async with api.services.db.write() as s:
        await s.execute(update(Analysis).where(Analysis.game_id == gid).values(
            status="running", owner="dead-process", attempts=1, entries=planted, done=half,
            report=None, finished_at=None, lease_until=utcnow() - timedelta(seconds=5)))
        await s.commit()
    # "a new server": a fresh worker claims the expired lease
    ended: list = []
    worker = api.services.analysis.worker
    worker.on_end = lambda row_id, status: ended.append(status)
    worker.start()
    worker.wake()
    report = (await wait_status(ada, gid))["report"]
    for _ in range(200):  # the worker reaps its process, then reports the end
        if ended:
            break
        await asyncio.sleep(0.05)
    assert ended == ["done"]
    assert report["total"] == full["total"] and len(report["entries"]) == len(entries)
    resumed = {e["index"]: e for e in report["entries"]}
    for e in entries[:half]:  # the stored ones as stored (not computed again)
        assert resumed[e["index"]].get("planted") is True
        assert resumed[e["index"]]["loss"] == e["loss"] + 50.0
    for e in entries[half:]:  # the rest computed now, the same as the first run's
        assert "planted" not in resumed[e["index"]]
        assert resumed[e["index"]]["value_chosen"] == e["value_chosen"]
    # the planted losses are now the biggest mistakes of the report
    assert {m["index"] for m in report["mistakes"]} >= {e["index"] for e in entries[:half]}
    row = (await rows(api, gid))[0]
    assert row.attempts == 2 and row.owner is None and row.status == "done"


async def test_a_row_whose_process_keeps_dying_fails(api):
    ada = await api.user()
    gid = await api.toy_game(ada, bots=[1])  # with a bot: not rated, not queued by itself
    await play_to_end(api, gid, [ada])
    await api.services.signals.drain()
    await api.services.analysis.worker.stop()
    now = utcnow()
    async with api.services.db.write() as s:
        s.add(Analysis(game_id=gid, status="running", owner="dead", attempts=3, settings={},
                       entries=[], created_at=now, updated_at=now,
                       lease_until=now - timedelta(seconds=1)))
        await s.commit()
    api.services.analysis.worker.start()
    api.services.analysis.worker.wake()
    body = await wait_status(ada, gid, want=("failed",))
    assert body["error"] and body["can_request"] is True


async def test_rated_games_are_analysed_when_they_end(api):
    gid, ada, _ = await finished_toy(api)  # two humans, no bot: rated
    async with api.services.db.read() as s:
        assert (await s.get(Game, gid)).rated is True
    body = await wait_status(ada, gid)
    assert body["report"]["complete"] is True
    # not rated (here a bot seat; hints: see below): nothing is queued
    carl = await api.user()
    bot_game = await api.toy_game(carl, bots=[1])
    await play_to_end(api, bot_game, [carl])
    await api.services.signals.drain()
    assert await rows(api, bot_game) == []
    assert (await carl.get(f"/api/games/{bot_game}/analysis")).json()["status"] == "none"


# --------------------------------------------------------------------------- hints

async def hints_game(api, name="toy", hints=True, options=None):
    ada, bob = await api.user(), await api.user()
    body = {"game": name, "seats": 2, "options": options or {}}
    if hints is not None:
        body["hints"] = hints
    r = await ada.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    # a joiner sees "hints allowed" before joining
    listed = (await bob.get("/api/games?status=open")).json()
    assert next(g for g in listed if g["id"] == gid)["hints"] is bool(hints)
    assert (await bob.post(f"/api/games/{gid}/join")).status_code == 200
    assert (await ada.post(f"/api/games/{gid}/start")).status_code == 200
    await api.services.signals.drain()
    return gid, ada, bob


async def test_hints_are_off_by_default(api):
    gid, ada, _ = await hints_game(api, hints=None)
    assert (await ada.game(gid))["hints"] is False
    r = await ada.get(f"/api/games/{gid}/hint")
    assert r.status_code == 403 and r.json()["error"]["code"] == "hints_off"
    r = await ada.post("/api/games", json={"game": "toy", "seats": 2, "hints": "yes"})
    assert r.status_code == 422


async def test_hint_for_the_seat_that_owes_a_decision(api):
    gid, ada, bob = await hints_game(api)
    assert (await ada.game(gid))["hints"] is True
    watcher = await api.user()
    r = await watcher.get(f"/api/games/{gid}/hint")
    assert r.status_code == 403 and r.json()["error"]["code"] == "not_a_player"
    assert (await api.client.get(f"/api/games/{gid}/hint")).status_code == 401
    r = await bob.get(f"/api/games/{gid}/hint")
    assert r.status_code == 200, r.text
    hint = r.json()
    legal = await bob.legal(gid)
    assert hint["seat"] == 1 and hint["version"] == legal["version"]
    assert hint["action"] in legal["actions"]
    assert hint["reason"]["key"].startswith("analysis.reason.")
    # seat 0 answers the simultaneous decision: it owes nothing until the others did
    played = (await ada.legal(gid))["actions"][0]
    assert (await ada.act(gid, played, version=legal["version"])).status_code == 200
    r = await ada.get(f"/api/games/{gid}/hint")
    assert r.status_code == 409 and r.json()["error"]["code"] == "no_decision"
    # the hint is an answer bob can give
    g = await bob.game(gid)
    r = await bob.act(gid, (await bob.get(f"/api/games/{gid}/hint")).json()["action"],
                      version=g["version"])
    assert r.status_code == 200, r.text
    await play_to_end(api, gid, [ada, bob])
    r = await ada.get(f"/api/games/{gid}/hint")
    assert r.status_code == 409 and r.json()["error"]["code"] == "no_decision"
    # a game with hints is never rated (and so not analysed by itself)
    await api.services.signals.drain()
    async with api.services.db.read() as s:
        assert (await s.get(Game, gid)).rated is False
    assert await rows(api, gid) == []


async def test_a_hint_that_times_out_stops_computing(api, settings):
    """A hint past its bound answers 503 ``hint_timeout``, and its search stops there: no
    process goes on computing it (the one that searched ends within a short wait, where it
    would otherwise search for minutes); the next hint gets a fresh process and its answer."""
    import multiprocessing

    gid, ada, _ = await hints_game(api, name="arknova")
    hints = api.services.analysis.hints
    before = {p.pid for p in multiprocessing.active_children()}
    # the opening keep (70 answers), several of them compared (a wide margin: the compared
    # answers are not only the levels' shared favourite, which would need no playout at all),
    # at 10,000 playouts each: minutes of search
    long_search = {"playouts": 10_000, "margin": 1000.0, "candidates": 8}
    hints.engine_settings = lambda: long_search  # (shadows the method for this test)
    hints.settings = settings.model_copy(update={"hint_timeout": 0.5})
    r = await ada.get(f"/api/games/{gid}/hint")
    assert r.status_code == 503 and r.json()["error"]["code"] == "hint_timeout", r.text
    loop = asyncio.get_running_loop()
    end = loop.time() + 15.0
    while left := [p for p in multiprocessing.active_children() if p.pid not in before]:
        assert loop.time() < end, f"the timed-out hint is still computing in {left}"
        await asyncio.sleep(0.1)
    assert hints.pid is None
    # a burst: each one past its bound ends its own search the same way
    for _ in range(2):
        r = await ada.get(f"/api/games/{gid}/hint")
        assert r.status_code == 503 and r.json()["error"]["code"] == "hint_timeout", r.text
    end = loop.time() + 15.0
    while left := [p for p in multiprocessing.active_children() if p.pid not in before]:
        assert loop.time() < end, f"timed-out hints are still computing in {left}"
        await asyncio.sleep(0.1)
    del hints.engine_settings
    hints.settings = settings
    r = await ada.get(f"/api/games/{gid}/hint")
    assert r.status_code == 200, r.text
    assert r.json()["action"] in (await ada.legal(gid))["actions"]
    assert hints.pid is not None and hints.pid not in before


# --------------------------------------------------------------------------- hidden information

CARD = re.compile(r'"([A-Z]\d{2,3})"')


async def test_a_hint_uses_only_the_asking_seats_view(api):
    """An Ark Nova hint at the opening (each seat keeps 4 of its 8 secret cards): the answer
    names none of the other seat's secret cards, and it is the same when everything hidden from
    the asking seat (the other hand and offer, the decks, the generator) is changed."""
    from engine import get_game
    from tests.engine.hidden import PERTURBERS

    gid, ada, bob = await hints_game(api, name="arknova")
    r = await ada.get(f"/api/games/{gid}/hint")
    assert r.status_code == 200, r.text
    first = r.json()
    mine = await ada.game(gid)
    other = await bob.game(gid)
    theirs = set(other["view"]["private"]["hand"] or [])
    decision = other["view"]["private"].get("decision") or {}
    theirs |= set(decision.get("offer") or [])
    public = set(CARD.findall(json.dumps(mine["view"]["public"])))
    assert theirs and not (theirs - public) & set(CARD.findall(r.text))
    legal = await ada.legal(gid)
    assert first["action"] in legal["actions"]
    # everything hidden from seat 0 changes; the hint does not
    game = get_game("arknova")
    async with api.services.db.write() as s:
        row = await s.get(Game, gid)
        changed = PERTURBERS["arknova"](game.load(row.state), 1)
        row.state = game.dump(changed)
        await s.commit()
    api.services.games.cache.drop(gid)
    api.services.analysis.hints.forget()
    after = (await bob.game(gid))["view"]["private"]
    assert (after.get("decision") or {}).get("offer") != decision.get("offer")
    again = (await ada.get(f"/api/games/{gid}/hint")).json()
    assert again == first


async def test_analysis_of_a_running_game_shows_nothing(api):
    ada, bob = await api.user(), await api.user()
    gid = await api.toy_game(ada, others=[bob])
    for who in (ada, bob, api.client):
        body = (await who.get(f"/api/games/{gid}/analysis")).json()
        assert body == {"status": "none", "done": 0, "total": None, "report": None,
                        "can_request": False, "can_cancel": False}
    async with api.services.db.read() as s:
        assert await s.scalar(select(func.count()).select_from(Analysis)) == 0


async def test_cancel_stops_a_running_job_at_its_next_entry_and_it_resumes(api):
    """A real Ark Nova game (imported): a server that stops leaves the job due again with its
    entries (no attempt spent); cancelled while it runs, the job stops with part of its entries
    stored; asked again, it computes only the rest."""
    from tests.arkrecord import greedy_record

    if "postgres" in api.services.settings.database_url:
        pytest.skip("one real analysis is enough: it runs on SQLite (the queue's SQL is "
                    "covered on both by the tests above)")
    ada = await api.user()
    r = await ada.post("/api/games/import", json=greedy_record())
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    ended: list = []
    api.services.analysis.worker.on_end = lambda row_id, status: ended.append(status)
    assert (await ada.post(f"/api/games/{gid}/analysis")).status_code == 202
    loop = asyncio.get_running_loop()
    end = loop.time() + 60
    while True:  # running, with some entries stored
        body = (await ada.get(f"/api/games/{gid}/analysis")).json()
        if body["status"] == "running" and body["done"] >= 5:
            break
        assert body["status"] in ("pending", "running") and loop.time() < end, body
        await asyncio.sleep(0.05)
    # the server stops: the job stops at its next decision, its entries kept, due again
    worker = api.services.analysis.worker
    await worker.stop()
    row = (await rows(api, gid))[0]
    assert row.status == "pending" and row.owner is None and row.attempts == 0
    assert row.done == len(row.entries) >= 5
    kept = row.done
    ended.clear()
    worker.start()
    worker.wake()
    while True:  # running again, from there on
        body = (await ada.get(f"/api/games/{gid}/analysis")).json()
        if body["status"] == "running" and body["done"] >= kept + 5:
            break
        assert body["status"] in ("pending", "running") and loop.time() < end + 60, body
        await asyncio.sleep(0.05)
    r = await ada.delete(f"/api/games/{gid}/analysis")
    assert r.status_code == 200 and r.json()["status"] == "cancelled"
    while not ended:
        assert loop.time() < end
        await asyncio.sleep(0.05)
    assert ended == ["cancelled"]
    row = (await rows(api, gid))[0]
    assert row.status == "cancelled" and 5 <= row.done < row.total
    assert len(row.entries) == row.done and row.report["complete"] is False
    stored = {e["index"]: e for e in row.entries}
    # again: the same row resumes from its entries
    r = await ada.post(f"/api/games/{gid}/analysis")
    assert r.status_code == 202 and r.json()["status"] == "pending"
    report = (await wait_status(ada, gid, timeout=120))["report"]
    assert report["complete"] is True and len(report["entries"]) == report["total"] == row.total
    got = {e["index"]: e for e in report["entries"]}
    assert all(got[i] == e for i, e in stored.items())
    while len(ended) < 2:  # the worker reaps its process, then reports the end
        assert loop.time() < end + 240
        await asyncio.sleep(0.05)
    assert ended == ["cancelled", "done"]


async def test_a_process_without_workers_queues_for_another(api, settings):
    """``MENAGERIE_ANALYSIS_WORKERS=0``: the process that takes the request runs nothing; a
    second server process on the same database (PostgreSQL: several processes) claims the job
    and finishes it."""
    from .conftest import running_app

    if not settings.is_postgres:
        pytest.skip("several server processes share a database on PostgreSQL only")
    other = make_settings(settings.database_url, analysis_workers=0, analysis_playouts=1,
                          analysis_policy="mix", analysis_preload=PRELOAD,
                          analysis_poll_seconds=0.3)
    ada = await api.user()
    gid = await api.toy_game(ada, bots=[1])  # not rated: nobody queues it by itself
    await play_to_end(api, gid, [ada])
    ran: list = []
    api.services.analysis.worker.on_end = lambda row_id, status: ran.append(status)
    async with running_app(other) as web:
        assert web.services.analysis.worker.slots == 0
        r = await web.client.post(f"/api/games/{gid}/analysis", headers=ada.headers)
        assert r.status_code == 202, r.text
        body = await wait_status(web.client, gid)
        assert body["report"]["complete"] is True
    for _ in range(200):  # the other process's worker ran it (it reports after reaping)
        if ran:
            break
        await asyncio.sleep(0.05)
    assert ran == ["done"]


def test_an_analysis_makes_way_for_live_play():
    """While moves are being made (a move less than the window ago) an entry that took t
    seconds is followed by a pause, so that the analysis computes only its share of the time;
    without live play, or with a share of 1, it never pauses."""
    import time as _time
    from types import SimpleNamespace

    from app.analysis.compute import make_way

    now = SimpleNamespace(value=_time.monotonic())
    assert make_way(now, 0.2, 0.5, 5.0) == pytest.approx(0.2)
    assert make_way(now, 0.2, 0.25, 5.0) == pytest.approx(0.6)
    assert make_way(now, 0.2, 1.0, 5.0) == 0.0
    assert make_way(SimpleNamespace(value=0.0), 0.2, 0.5, 5.0) == 0.0  # no move seen yet
    long_ago = SimpleNamespace(value=_time.monotonic() - 60)
    assert make_way(long_ago, 0.2, 0.5, 5.0) == 0.0
    assert make_way(None, 0.2, 0.5, 5.0) == 0.0


async def test_moves_tell_the_analysis_to_make_way(api):
    """A move that makes it someone's turn reaches the analysis worker (through the outbox's
    your-turn signal): its jobs then pause between entries while the window lasts."""
    worker = api.services.analysis.worker
    assert worker.live_at.value == 0.0
    ada, bob = await api.user(), await api.user()
    gid = await api.toy_game(ada, others=[bob])
    body = (await ada.get(f"/api/games/{gid}/legal")).json()
    if not body["actions"]:
        body = (await bob.get(f"/api/games/{gid}/legal")).json()
        mover = bob
    else:
        mover = ada
    r = await mover.post(f"/api/games/{gid}/actions",
                         json={"version": body["version"], "action": body["actions"][0]})
    assert r.status_code == 200, r.text
    await api.services.signals.drain()
    import time as _time

    assert 0 < _time.monotonic() - worker.live_at.value < 30
