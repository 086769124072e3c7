"""Issue #15, item 2: take-backs refund no time (SQLite and PostgreSQL).

The attack: move, take it back, move again, take it back... In bank mode each cycle added the
increment to the mover's bank; in move mode each take-back started a fresh deadline, so the seat
never timed out; each cycle also told the opponent "your turn" again. Now a take-back restores
the clock exactly as it was before the decision taken back (the same bank, the same wait start
and deadline), announces no turn, and take-backs are rate-limited per user.
"""

from __future__ import annotations

import pytest

import engine
from app.times import utcnow

from .conftest import make_settings, running_app
from .test_async_play import Clock, _timed_game


async def _reveal(a, b, gid) -> int:
    """Both play their first card; returns the seat of the winner (who owes the reward)."""
    for p in (a, b):
        r = await p.act(gid, (await p.legal(gid))["actions"][0])
        assert r.status_code == 200, r.text
    g = await a.game(gid)
    assert g["view"]["public"]["phase"] == "reward"
    return g["waiting_for"][0]


async def test_take_backs_give_no_fresh_deadline(api, monkeypatch):
    clock = Clock(monkeypatch)
    a, b = await api.user(), await api.user()
    tc = {"mode": "move", "seconds": 60, "abandon_after": 5, "bot": "random"}
    gid, _ = await _timed_game(api, a, b, tc)
    seat = await _reveal(a, b, gid)
    w = (a, b)[seat]
    told = []

    async def listener(event):
        told.append(event)

    api.services.signals.on_your_turn(listener)
    g = await w.game(gid)
    entry = g["clock"]["seats"][str(seat)]
    deadline, since = entry["deadline"], entry["since"]
    for _ in range(3):
        clock.advance(15)
        r = await w.act(gid, {"type": "score"})
        assert r.status_code == 200, r.text
        r = await w.post(f"/api/games/{gid}/undo", json={"version": r.json()["version"]})
        assert r.status_code == 200, r.text
        undo_version = r.json()["version"]
        g = await w.game(gid)
        entry = g["clock"]["seats"][str(seat)]
        assert (entry["deadline"], entry["since"]) == (deadline, since)
        assert g["turn_deadline"].replace("+00:00", "Z") == deadline.replace("+00:00", "Z")
        other = 1 - seat
        assert g["clock"]["seats"][str(other)]["deadline"] is None
        await api.services.signals.drain()
        assert not [e for e in told if e.version == undo_version]  # no turn announced
    # 45 s of cycles + 20 s: past the deadline of the wait that began at the reveal
    clock.advance(20)
    assert gid in await api.services.games.expired_games(utcnow() + clock.offset)
    assert await api.services.games.play_timeouts(gid) >= 1
    g = await w.game(gid)
    assert g["clock"]["seats"][str(seat)]["timeouts"] == 1


async def test_take_backs_refund_no_bank_time(api, monkeypatch):
    """Bank mode, 600 s + 30 s: the opening card choice of Ark Nova ends the second player's
    part (the increment is added), and it can be taken back. Each cycle used to add ~30 s."""
    clock = Clock(monkeypatch)
    a, b = await api.user(), await api.user()
    tc = {"mode": "bank", "seconds": 600, "increment": 30, "bot": "greedy"}
    r = await a.post("/api/games", json={"game": "arknova", "seats": 2, "time_control": tc})
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    assert (await b.post(f"/api/games/{gid}/join")).status_code == 200
    assert (await a.post(f"/api/games/{gid}/start")).status_code == 200
    r = await a.act(gid, (await a.legal(gid))["actions"][0])  # both owe it: no take-back
    assert r.status_code == 200, r.text
    g = await b.game(gid)
    assert g["waiting_for"] == [1]
    start = g["clock"]["seats"]["1"]
    keep = (await b.legal(gid))["actions"][0]
    for cycle in range(1, 4):
        clock.advance(10)
        r = await b.act(gid, keep)
        assert r.status_code == 200, r.text
        g = await b.game(gid)
        assert 1 not in g["waiting_for"]
        # charged for all the time since the wait began, then the increment
        assert g["clock"]["seats"]["1"]["bank"] == pytest.approx(600 - 10 * cycle + 30, abs=5)
        r = await b.post(f"/api/games/{gid}/undo", json={"version": g["version"]})
        assert r.status_code == 200, r.text
        g = await b.game(gid)
        assert g["waiting_for"] == [1]
        now = g["clock"]["seats"]["1"]
        assert (now["bank"], now["since"], now["deadline"]) == \
            (start["bank"], start["since"], start["deadline"])
    clock.advance(10)
    r = await b.act(gid, keep)
    assert r.status_code == 200
    bank = (await b.game(gid))["clock"]["seats"]["1"]["bank"]
    assert bank == pytest.approx(600 - 40 + 30, abs=5)  # not 600 + 3 x 20 + 20


async def test_two_take_backs_go_two_decisions_back(api):
    """A chain of decisions taken back one by one returns to the state before the chain (a
    second take-back used to restore the state the first one had just taken back)."""
    a, b = await api.user(), await api.user()
    r = await a.post("/api/games", json={"game": "arknova", "seats": 2})
    gid = r.json()["id"]
    assert (await b.post(f"/api/games/{gid}/join")).status_code == 200
    assert (await a.post(f"/api/games/{gid}/start")).status_code == 200
    for p in (a, b):  # the opening card choices
        assert (await p.act(gid, (await p.legal(gid))["actions"][0])).status_code == 200
    g = await a.game(gid)
    mover = (a, b)[g["waiting_for"][0]]
    seat = g["waiting_for"][0]
    game = engine.get_game("arknova")
    state = (await api.services.games.current(gid)).state
    chain = None
    for first in game.legal_actions(state, seat):  # two decisions that can both be taken back
        one, _ = game.apply(state, seat, first)
        if set(game.waiting_for(one)) != {seat}:
            continue
        for second in game.legal_actions(one, seat):
            two, _ = game.apply(one, seat, second)
            if game.undo_depth(two, seat) >= 2:
                chain = (first, second)
                break
        if chain:
            break
    assert chain is not None
    before = (await mover.game(gid))
    for action in chain:
        r = await mover.act(gid, action)
        assert r.status_code == 200, r.text
    after_one = None
    for step in (1, 2):
        v = (await mover.game(gid))["version"]
        r = await mover.post(f"/api/games/{gid}/undo", json={"version": v})
        assert r.status_code == 200, r.text
        if step == 1:
            after_one = r.json()["view"]
    g = await mover.game(gid)
    assert g["view"] == before["view"]
    assert after_one != before["view"]
    log = (await mover.get(f"/api/games/{gid}/log?after={before['version']}")).json()["entries"]
    v0 = before["version"]
    assert [e["events"][0]["data"] for e in log[2:]] == [
        {"seat": seat, "to": v0 + 1, "undone": v0 + 2},
        {"seat": seat, "to": v0, "undone": v0 + 1}]
    r = await mover.post(f"/api/games/{gid}/undo", json={"version": g["version"]})
    assert r.status_code == 409 and r.json()["error"]["code"] == "cannot_undo"
    assert (await api.services.games.replay(gid))["match"] is True


async def test_take_backs_are_rate_limited(db_url):
    async with running_app(make_settings(db_url, rate_undo_burst=2)) as api:
        a, b = await api.user(), await api.user()
        gid = await api.toy_game(a, others=[b])
        seat = await _reveal(a, b, gid)
        w = (a, b)[seat]
        for cycle in range(3):
            r = await w.act(gid, {"type": "score"})
            assert r.status_code == 200, r.text
            version = r.json()["version"]
            r = await w.post(f"/api/games/{gid}/undo", json={"version": version})
            if cycle < 2:
                assert r.status_code == 200, r.text
        assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited"
        assert int(r.headers["retry-after"]) >= 1
        assert (await w.game(gid))["version"] == version  # nothing taken back
