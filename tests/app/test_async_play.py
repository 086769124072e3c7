"""Asynchronous play: time controls and the deadline scheduler, abandoned seats, take-backs,
the per-user "your turn" socket. Each test runs on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from websockets.asyncio.client import connect

from app import times as times_mod
from app.refusal import Refusal
from app.times import utcnow

from .conftest import Player, make_settings, running_app
from .wsclient import Socket

TIMED = {"mode": "move", "seconds": 60, "abandon_after": 2, "bot": "random"}


class Clock:
    """Moves the server's idea of "now" forward (the app reads it through ``utcnow``)."""

    def __init__(self, monkeypatch) -> None:
        self.offset = timedelta()
        monkeypatch.setattr(times_mod, "utcnow", lambda: utcnow() + self.offset)

    def advance(self, seconds: float) -> None:
        self.offset += timedelta(seconds=seconds)


async def _timed_game(api, a, b, tc=TIMED):
    r = await a.post("/api/games", json={"game": "toy", "seats": 2, "time_control": tc})
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    assert r.json()["time_control"]["mode"] == tc["mode"]
    assert (await b.post(f"/api/games/{gid}/join")).status_code == 200
    r = await a.post(f"/api/games/{gid}/start")
    assert r.status_code == 200, r.text
    return gid, r.json()


@pytest.mark.parametrize("tc,code", [
    ({"mode": "blitz", "seconds": 60}, "invalid_request"),
    ({"mode": "move", "seconds": 3}, "invalid_request"),
    ({"mode": "move", "seconds": 60, "bot": "nobody"}, "unknown_bot"),
    ({"mode": "bank", "seconds": 600, "increment": -1}, "invalid_request"),
])
async def test_bad_time_controls_are_refused(api, tc, code):
    a = await api.user()
    r = await a.post("/api/games", json={"game": "toy", "seats": 2, "time_control": tc})
    assert r.status_code == 422, r.text
    assert r.json()["error"]["code"] == code


async def test_a_timed_out_decision_is_played_by_the_bot_and_the_seat_is_handed_over(
        api, monkeypatch):
    clock = Clock(monkeypatch)
    a, b = await api.user(), await api.user()
    gid, summary = await _timed_game(api, a, b)
    seats = summary["clock"]["seats"]
    assert seats["0"]["deadline"] and seats["1"]["deadline"]  # both owe the secret card
    legal = await a.legal(gid)
    assert (await a.act(gid, legal["actions"][0])).status_code == 200
    clock.advance(30)
    assert await api.services.scheduler.tick() == 0  # not yet
    clock.advance(31)
    assert await api.services.scheduler.tick() >= 1  # b's card, played by the bot
    g = await a.game(gid)
    assert g["status"] == "running" and g["version"] >= 2
    log = (await a.get(f"/api/games/{gid}/log?after=0")).json()["entries"]
    assert log[1]["seat"] == 1
    async with api.services.db.read() as s:
        from sqlalchemy import select

        from app.models import ActionRecord
        kinds = (await s.execute(select(ActionRecord.seat, ActionRecord.kind)
                                 .where(ActionRecord.game_id == gid)
                                 .order_by(ActionRecord.version))).all()
    assert kinds[0] == (0, "move") and kinds[1] == (1, "auto")
    # b keeps not answering: after 2 timeouts in a row the bot takes the seat for good
    for _ in range(10):
        g = await a.game(gid)
        if g["seats"][1]["away"] or g["status"] != "running":
            break
        if 0 in g["waiting_for"]:
            legal = await a.legal(gid)
            r = await a.act(gid, legal["actions"][0], g["version"])
            assert r.status_code in (200, 409), r.text
            continue
        clock.advance(61)
        await api.services.scheduler.tick()
    await api.idle()
    g = await b.game(gid)
    assert g["seats"][1]["away"] is True
    assert g["clock"]["seats"]["1"]["timeouts"] >= 2
    if g["status"] == "running" and 1 in g["waiting_for"]:
        r = await b.act(gid, (await b.legal(gid))["actions"][0], g["version"])
        assert r.status_code == 409 and r.json()["error"]["code"] == "seat_away"
    # b reclaims the seat; a second reclaim is refused
    r = await b.post(f"/api/games/{gid}/reclaim")
    assert r.status_code == 200, r.text
    assert r.json()["seats"][1]["away"] is False
    r = await b.post(f"/api/games/{gid}/reclaim")
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_away"
    r = await (await api.user()).post(f"/api/games/{gid}/reclaim")
    assert r.status_code == 403
    # play the game out (a answers, b answers itself now); the result names bot-played seats
    for _ in range(40):
        g = await a.game(gid)
        if g["status"] == "finished":
            break
        for p, seat in ((a, 0), (b, 1)):
            if seat in g["waiting_for"]:
                r = await p.act(gid, (await p.legal(gid))["actions"][0], g["version"])
                assert r.status_code in (200, 409), r.text
                break
        await api.idle()
    g = await a.game(gid)
    assert g["status"] == "finished"
    summary = (await a.get("/api/games?status=finished")).json()
    mine = next(x for x in summary if x["id"] == gid)
    assert mine["result"]["bot_played"] == [1]
    replay = await api.services.games.replay(gid)
    assert replay["match"] is True


async def test_time_bank_runs_down_and_gets_the_increment(api, monkeypatch):
    clock = Clock(monkeypatch)
    a, b = await api.user(), await api.user()
    tc = {"mode": "bank", "seconds": 100, "increment": 10, "bot": "random"}
    gid, _ = await _timed_game(api, a, b, tc)
    clock.advance(30)
    r = await a.act(gid, (await a.legal(gid))["actions"][0])
    assert r.status_code == 200
    bank = (await a.game(gid))["clock"]["seats"]["0"]["bank"]
    assert 79.0 <= bank <= 80.5  # 100 - 30 + 10 (the turn ended)
    clock.advance(101)  # b's bank is empty: the bot answers
    assert await api.services.scheduler.tick() >= 1


async def test_deadlines_survive_a_restart(settings, monkeypatch):
    clock = Clock(monkeypatch)
    quiet = make_settings(settings.database_url, scheduler=False)
    async with running_app(quiet) as api:
        a, b = await api.user(), await api.user()
        gid, _ = await _timed_game(api, a, b)
        version = (await a.game(gid))["version"]
    clock.advance(61)  # the deadlines pass while no server runs
    fast = make_settings(settings.database_url, scheduler_interval=0.05)
    async with running_app(fast) as api:
        for _ in range(200):
            g = (await api.client.get(f"/api/games/{gid}")).json()
            if g["version"] >= version + 2:
                break
            await asyncio.sleep(0.05)
        assert g["version"] >= version + 2  # both secret cards played by the bot


async def test_a_reclaim_through_one_process_holds_in_another(settings):
    """Two server processes on one database (two apps here): a seat handed to the bot and
    reclaimed through process one is the player's again in process two at once, even though
    process two had cached the game with the seat away: its bot no longer moves for the seat,
    the player's own move through process two is accepted, and a move computed from the old
    seats is never stored (the seats' revision is part of the move's condition)."""
    slow = make_settings(settings.database_url, scheduler=False, bot_delay=30)
    async with running_app(slow) as one, running_app(slow) as two:
        a, b = await one.user(), await one.user()
        gid, _ = await _timed_game(one, a, b)
        b_two = Player(two, b.name, b.token, b.id)  # the same player, through process two
        assert await one.services.games.set_away(gid, 1, True)
        stale = await two.services.games.current(gid)  # process two: seat 1 is the bot's
        assert 1 in stale.away and 1 in stale.waiting and 1 in stale.bots
        r = await b.post(f"/api/games/{gid}/reclaim")  # through process one
        assert r.status_code == 200, r.text
        version = (await a.game(gid))["version"]
        # process two's bot does not move for the reclaimed seat
        assert await two.services.games.bot_step(gid) is False
        g = await a.game(gid)
        assert g["version"] == version and 1 in g["waiting_for"]
        # a bot move computed from the cached (old) seats is refused, nothing stored
        two.services.games.cache.put(stale)
        action = (await b.legal(gid))["actions"][0]
        with pytest.raises(Refusal) as refused:
            await two.services.games.act(gid, version, action, bot_seat=1)
        assert refused.value.code == "stale_version"
        assert (await a.game(gid))["version"] == version
        # the player's own move through process two, whose cache still said "away"
        two.services.games.cache.put(stale)
        r = await b_two.act(gid, action, version)
        assert r.status_code == 200, r.text
        log = (await a.get(f"/api/games/{gid}/log?after={version}")).json()["entries"]
        assert [(e["seat"]) for e in log] == [1]


async def test_take_back_before_a_draw_and_not_after(api):
    a, b = await api.user(), await api.user()
    gid = await api.toy_game(a, others=[b])
    for p in (a, b):
        r = await p.act(gid, {"type": "play", "card": (await p.legal(gid))["actions"][0]["card"]})
        assert r.status_code == 200, r.text
    g = await a.game(gid)
    winner = g["waiting_for"][0]
    w, loser = (a, b) if winner == 0 else (b, a)
    before = await w.game(gid)
    assert before["view"]["private"]["can_undo"] is False  # the reveal was a barrier
    r = await w.act(gid, {"type": "score"})
    assert r.status_code == 200
    assert r.json()["view"]["private"]["can_undo"] is True
    v = r.json()["version"]
    # the other player cannot take it back; a stale version is refused
    r = await loser.post(f"/api/games/{gid}/undo", json={"version": v})
    assert r.status_code == 409 and r.json()["error"]["code"] == "cannot_undo"
    r = await w.post(f"/api/games/{gid}/undo", json={"version": v - 1})
    assert r.status_code == 409 and r.json()["error"]["code"] == "stale_version"
    r = await w.post(f"/api/games/{gid}/undo", json={"version": v})
    assert r.status_code == 200, r.text
    assert r.json()["version"] == v + 1
    after = await w.game(gid)
    assert after["view"]["public"] == before["view"]["public"]
    assert after["waiting_for"] == [winner]
    log = (await loser.get(f"/api/games/{gid}/log?after={v}")).json()["entries"]
    assert log[0]["events"] == [{"kind": "undo", "data": {"seat": winner, "to": v - 1,
                                                          "undone": v}}]
    # now draw: a hidden card reaches the hand, which cannot be taken back
    r = await w.act(gid, {"type": "draw"})
    assert r.status_code == 200
    assert r.json()["view"]["private"]["can_undo"] is False
    r = await w.post(f"/api/games/{gid}/undo", json={"version": r.json()["version"]})
    assert r.status_code == 409 and r.json()["error"]["code"] == "cannot_undo"
    # spectators and anonymous callers cannot take back anything
    r = await api.client.post(f"/api/games/{gid}/undo", json={"version": 1})
    assert r.status_code == 401
    # the stored game still replays to the same state
    assert (await api.services.games.replay(gid))["match"] is True
    # a process that rebuilds the frames from the log (cache dropped) sees the same versions
    api.services.games.cache.drop(gid)
    frames = await api.services.games.load_frames(gid, 0, v + 2)
    assert [f.version for f in frames] == list(range(1, v + 3))
    assert frames[v].game.public_view(frames[v].state) == before["view"]["public"]


async def _until_your_turn(ws) -> list[dict]:
    import json

    msgs = []
    while not msgs or msgs[-1]["type"] != "your_turn":
        msgs.append(json.loads(await asyncio.wait_for(ws.recv(), 5)))
    return msgs


async def test_your_turn_reaches_every_open_page_of_the_user(server):
    host, api = server
    a, b = await api.user(), await api.user()
    gid = await api.toy_game(a, others=[b])
    # a browser page (the login cookie, same origin), a client sending the token first
    pages = [(await Socket.open_path(host, "/api/me/ws", b.token, via=via)).ws
             for via in ("cookie", "message")]
    other = (await Socket.open_path(host, "/api/me/ws", a.token)).ws  # Authorization header
    try:
        import json

        for ws in pages + [other]:
            hello = json.loads(await asyncio.wait_for(ws.recv(), 5))
            assert hello["type"] == "hello"
        # both owe a secret card: the one who answers first wins the reveal (high card against
        # low card), so the reveal makes it the turn of a player who was not waiting any more
        hand_a = [x["card"] for x in (await a.legal(gid))["actions"]]
        hand_b = [x["card"] for x in (await b.legal(gid))["actions"]]
        if max(hand_a) > min(hand_b):
            order = [(a, max(hand_a)), (b, min(hand_b))]
        else:
            order = [(b, max(hand_b)), (a, min(hand_a))]
        for p, card in order:
            r = await p.act(gid, {"type": "play", "card": card})
            assert r.status_code == 200
        g = await a.game(gid)
        winner = g["waiting_for"][0]
        assert winner == (0 if order[0][0] is a else 1)
        told, others = (pages, [other]) if winner == 1 else ([other], pages)
        for ws in told:  # every page of the winner hears "your turn"
            msgs = await _until_your_turn(ws)
            assert msgs[-1]["game"] == gid and msgs[-1]["version"] == g["version"]
            assert all(m["type"] == "game" for m in msgs[:-1])
        for ws in others:  # the other player's pages only hear that the game moved
            msg = json.loads(await asyncio.wait_for(ws.recv(), 5))
            assert msg["type"] == "game" and msg["your_turn"] is False
        # without a login the socket is refused
        anon = await connect(f"ws://{host}/api/me/ws", open_timeout=5)
        msg = json.loads(await asyncio.wait_for(anon.recv(), 5))
        assert msg["error"]["code"] == "unauthorized"
        await anon.close()
    finally:
        for ws in pages + [other]:
            await ws.close()


async def test_one_scheduler_leads_and_another_takes_over(pg_session_url):
    """PostgreSQL: of two processes, one plays the deadlines; when it stops, the other does."""
    fast = make_settings(pg_session_url, scheduler_interval=0.05)
    async with running_app(fast) as first:
        async with running_app(fast) as second:
            s1, s2 = first.services.scheduler, second.services.scheduler
            for _ in range(100):
                if s1.leader or s2.leader:
                    break
                await asyncio.sleep(0.05)
            await asyncio.sleep(0.3)
            assert s1.leader != s2.leader  # exactly one leads
            leader, other = (first, s2) if s1.leader else (second, s1)
            await leader.services.scheduler.stop()  # its lock goes with its connection
            for _ in range(100):
                if other.leader:
                    break
                await asyncio.sleep(0.05)
            assert other.leader
