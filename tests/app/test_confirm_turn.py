"""Issue #30: Confirm turn / Restart turn (SQLite and PostgreSQL).

A move sent with ``hold`` that ends its player's turn (preference ``confirm_turn``, on by
default) is stored, but the turn waits: nobody else may act, bots do not move, the next seat's
clock does not start and no "your turn" goes out until ``POST .../confirm``. ``POST
.../restart`` takes back every decision of the turn; a timeout confirms.
"""

from __future__ import annotations

import asyncio

from sqlalchemy import select

import engine
from app.models_delivery import OutboxEvent

from .test_async_play import Clock

GAME = engine.get_game("arknova")


async def _arknova(api, a, b=None, tc=None) -> int:
    """Ark Nova, ``a`` in seat 0 and ``b`` (or the greedy bot) in seat 1, past the opening
    (both seats keep their first offer at once), with seat 0 to move."""
    body = {"game": "arknova", "seats": 2, "bots": [] if b else [1]}
    if tc:
        body["time_control"] = tc
    r = await a.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    if b:
        assert (await b.post(f"/api/games/{gid}/join")).status_code == 200
    assert (await a.post(f"/api/games/{gid}/start")).status_code == 200
    for p in (a, b) if b else (a,):
        for _ in range(5):  # (the bot may keep its cards in between: stale, try again)
            legal = await p.legal(gid)
            r = await p.act(gid, legal["actions"][0], version=legal["version"])
            if r.status_code != 409:
                break
        assert r.status_code == 200, r.text
    await api.idle()
    for _ in range(6):  # (the bot, or b, may move first: b passes its turns until a moves)
        g = await a.game(gid)
        if g["waiting_for"] == [0]:
            return gid
        assert b is not None, g["waiting_for"]
        await _play(api, b, gid, 1)
    raise AssertionError("seat 0 never got the turn")


def _turn(state: dict, seat: int) -> list[dict]:
    """Decisions of ``seat`` that end its turn (the next decision is another seat's) and that
    can all be taken back (they reveal nothing hidden)."""
    base = GAME.undo_depth(state, seat)  # (the opening's choice may be taken back too)
    todo: list[tuple[dict, list]] = [(state, [])]
    while todo:
        s, path = todo.pop(0)
        for action in GAME.legal_actions(s, seat):
            new, _ = GAME.apply(s, seat, action)
            if GAME.undo_depth(new, seat) != base + len(path) + 1:
                continue
            if seat not in GAME.waiting_for(new):
                return path + [action]
            if len(path) < 3:
                todo.append((new, path + [action]))
    seen = [(a.get("type"), GAME.undo_depth(GAME.apply(state, seat, a)[0], seat),
             sorted(GAME.waiting_for(GAME.apply(state, seat, a)[0])))
            for a in GAME.legal_actions(state, seat)]
    raise AssertionError(f"no turn without hidden information: {seen}")


async def _play(api, p, gid: int, seat: int, *, hold: bool = True) -> list[dict]:
    """``p`` plays a whole turn (``hold`` on each decision); returns the last reply."""
    path = _turn((await api.services.games.current(gid)).state, seat)
    replies = []
    for action in path:
        v = (await p.game(gid))["version"]
        r = await p.post(f"/api/games/{gid}/actions",
                         json={"version": v, "action": action, "hold": hold})
        assert r.status_code == 200, r.text
        replies.append(r.json())
    return replies


async def _turn_notices(api, gid: int, p) -> list[int]:
    """The versions of the "your turn" rows of the outbox (notices, webhooks, push) for ``p``."""
    async with api.services.db.read() as s:
        rows = (await s.execute(select(OutboxEvent).where(OutboxEvent.game_id == gid,
                                                          OutboxEvent.kind == "your_turn")
                                .order_by(OutboxEvent.id))).scalars().all()
    return [r.version for r in rows if p.id in r.payload["users"]]


def _code(r) -> tuple[int, str]:
    return r.status_code, r.json()["error"]["code"]


async def test_a_held_turn_passes_only_at_the_confirm(api):
    a = await api.user()
    gid = await _arknova(api, a)
    replies = await _play(api, a, gid, 0)
    last = replies[-1]
    assert last["waiting_for"] == [0] and last["held"] == 0
    held_at = last["version"]
    await api.idle()
    g = await a.game(gid)
    assert (g["version"], g["waiting_for"], g["held_seat"]) == (held_at, [0], 0)  # no bot move
    assert GAME.waiting_for((await api.services.games.current(gid)).state) == {1}
    r = await a.post(f"/api/games/{gid}/confirm", json={"version": held_at})
    assert r.status_code == 200, r.text
    assert r.json()["waiting_for"] == [1] and "held" not in r.json()
    await api.idle()
    g = await a.game(gid)
    assert g["version"] > held_at + 1 and g["held_seat"] is None  # the bot moved
    log = (await a.get(f"/api/games/{gid}/log?after={held_at}")).json()["entries"]
    assert log[0]["events"] == [{"kind": "confirm", "data": {"seat": 0, "auto": False}}]
    assert log[1]["seat"] == 1
    assert (await api.services.games.replay(gid))["match"] is True


async def test_the_clock_and_the_notice_switch_at_the_confirm(api, monkeypatch):
    clock = Clock(monkeypatch)
    a, b = await api.user(), await api.user()
    gid = await _arknova(api, a, b, {"mode": "bank", "seconds": 600, "increment": 30})
    bank0 = (await a.game(gid))["clock"]["seats"]["0"]["bank"]
    clock.advance(20)
    last = (await _play(api, a, gid, 0))[-1]
    g = await b.game(gid)
    assert g["clock"]["seats"]["1"]["deadline"] is None
    assert g["clock"]["seats"]["0"]["deadline"] is not None
    bank = g["clock"]["seats"]["0"]["bank"]
    assert abs(bank - (bank0 - 20)) < 2  # charged for the turn, the increment not yet given
    r = await b.act(gid, {"type": "pass"})
    assert _code(r) == (409, "turn_unconfirmed")
    assert [v for v in await _turn_notices(api, gid, b) if v > 0] == []  # (0: the start)
    clock.advance(5)
    r = await a.post(f"/api/games/{gid}/confirm", json={"version": last["version"]})
    assert r.status_code == 200, r.text
    assert [v for v in await _turn_notices(api, gid, b) if v > 0] == [last["version"] + 1]
    g = await b.game(gid)
    assert g["clock"]["seats"]["1"]["deadline"] is not None
    assert g["clock"]["seats"]["0"]["deadline"] is None
    assert abs(g["clock"]["seats"]["0"]["bank"] - (bank - 5 + 30)) < 2


async def test_restart_takes_back_the_whole_turn(api):
    a = await api.user()
    gid = await _arknova(api, a)
    # (the first turn: the opening's choice may be taken back with it when the bot chose
    # first; from the second turn on, the bot's move before it bounds the turn)
    v = (await _play(api, a, gid, 0))[-1]["version"]
    assert (await a.post(f"/api/games/{gid}/confirm", json={"version": v})).status_code == 200
    await api.idle()
    before = await a.game(gid)
    assert before["waiting_for"] == [0] and before["version"] > v + 1
    replies = await _play(api, a, gid, 0)
    r = await a.post(f"/api/games/{gid}/restart", json={"version": replies[-1]["version"]})
    assert r.status_code == 200, r.text
    g = await a.game(gid)
    assert g["view"] == before["view"] and g["waiting_for"] == [0] and g["held_seat"] is None
    log = (await a.get(f"/api/games/{gid}/log?after={before['version']}")).json()["entries"]
    undo = log[-1]["events"][0]
    assert undo["kind"] == "undo" and undo["data"]["to"] == before["version"]
    assert undo["data"]["restart"] is True
    # every decision of the turn lies between the take-back's target and itself: the log
    # (static/js/table.js takenBack) leaves them all out
    assert [e["version"] for e in log[:-1]] == [before["version"] + i + 1
                                                  for i in range(len(replies))]
    await api.idle()
    assert (await a.game(gid))["version"] == g["version"]  # the bot still waits for seat 0
    # played again differently or the same: the turn can be held and confirmed again
    replies = await _play(api, a, gid, 0)
    r = await a.post(f"/api/games/{gid}/confirm", json={"version": replies[-1]["version"]})
    assert r.status_code == 200, r.text
    assert (await api.services.games.replay(gid))["match"] is True


async def test_a_timeout_confirms(api, monkeypatch):
    clock = Clock(monkeypatch)
    a, b = await api.user(), await api.user()
    gid = await _arknova(api, a, b, {"mode": "move", "seconds": 60, "abandon_after": 5})
    last = (await _play(api, a, gid, 0))[-1]
    clock.advance(30)
    assert await api.services.games.play_timeouts(gid) == 0
    clock.advance(61)
    assert await api.services.games.play_timeouts(gid) == 1
    g = await a.game(gid)
    assert g["version"] == last["version"] + 1 and g["waiting_for"] == [1]
    assert g["held_seat"] is None
    log = (await a.get(f"/api/games/{gid}/log?after={last['version']}")).json()["entries"]
    assert log[0]["events"] == [{"kind": "confirm", "data": {"seat": 0, "auto": True}}]
    assert (await api.services.games.replay(gid))["match"] is True


async def test_two_confirms_at_once_one_wins(api):
    a = await api.user()
    gid = await _arknova(api, a)
    v = (await _play(api, a, gid, 0))[-1]["version"]
    rs = await asyncio.gather(*(a.post(f"/api/games/{gid}/confirm", json={"version": v})
                                for _ in range(2)))
    assert sorted(r.status_code for r in rs) == [200, 409]
    assert [_code(r) for r in rs if r.status_code == 409] == [(409, "stale_version")]
    r = await a.post(f"/api/games/{gid}/confirm", json={"version": v + 1})
    assert _code(r) in ((409, "nothing_to_confirm"), (409, "stale_version"))


async def test_confirm_against_restart_one_wins(api):
    a = await api.user()
    gid = await _arknova(api, a)
    v = (await _play(api, a, gid, 0))[-1]["version"]
    rs = await asyncio.gather(a.post(f"/api/games/{gid}/confirm", json={"version": v}),
                              a.post(f"/api/games/{gid}/restart", json={"version": v}))
    assert sorted(r.status_code for r in rs) == [200, 409]
    assert [_code(r) for r in rs if r.status_code == 409] == [(409, "stale_version")]
    g = await a.game(gid)
    assert g["held_seat"] is None
    log = (await a.get(f"/api/games/{gid}/log?after={v}")).json()["entries"]
    won = "confirm" if rs[0].status_code == 200 else "undo"
    assert [e["kind"] for e in log[0]["events"]] == [won]  # the winner's row, once
    assert not [e for e in log[1:] if e["events"] and e["events"][0]["kind"] in
                ("confirm", "undo")]


async def test_preference_off_or_no_hold_is_todays_behaviour(api):
    a = await api.user()
    r = await a.get("/api/me/notifications")
    assert r.json()["preferences"]["confirm_turn"] is True
    gid = await _arknova(api, a)
    last = (await _play(api, a, gid, 0, hold=False))[-1]  # an API client that never asks
    assert last["waiting_for"] == [1] and "held" not in last
    await api.idle()
    assert (await a.game(gid))["version"] > last["version"]
    r = await api.client.put("/api/me/notifications", json={"confirm_turn": False},
                             headers=a.headers)
    assert r.status_code == 200 and r.json()["preferences"]["confirm_turn"] is False
    gid = await _arknova(api, a)
    last = (await _play(api, a, gid, 0))[-1]
    assert last["waiting_for"] == [1] and "held" not in last
    await api.idle()
    assert (await a.game(gid))["version"] > last["version"]


async def test_only_the_held_seat_may_confirm_or_restart(api):
    a, b, c = await api.user(), await api.user(), await api.user()
    gid = await _arknova(api, a, b)
    v = (await _play(api, a, gid, 0))[-1]["version"]
    r = await c.post(f"/api/games/{gid}/confirm", json={"version": v})
    assert _code(r) == (403, "no_seat")
    r = await c.post(f"/api/games/{gid}/restart", json={"version": v})
    assert _code(r) == (403, "no_seat")
    r = await b.post(f"/api/games/{gid}/confirm", json={"version": v})
    assert _code(r) == (403, "not_your_turn_to_confirm")
    r = await b.post(f"/api/games/{gid}/restart", json={"version": v})
    assert _code(r) == (409, "cannot_undo")
    spectator = await c.game(gid)
    assert spectator["held_seat"] == 0 and spectator["waiting_for"] == [0]
    assert (await a.game(gid))["version"] == v
