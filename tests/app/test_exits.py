"""Resign, abort, cancel and leave (issue #33, app/games/exits.py, app/outcome.py): on SQLite
and PostgreSQL, with their effects on the result, the ratings, the log, the record, replay,
notices and webhooks."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from app.models import Rating, Seat
from app.models_delivery import OutboxEvent
from app.outcome import ended_by_resignation, play_began, with_resignations
from app.ratings import Glicko, rate_game

from .conftest import play_to_end


async def ratings_of(api, game: str = "toy") -> dict[int, Rating]:
    async with api.services.db.read() as s:
        return {r.user_id: r for r in (await s.execute(
            select(Rating).where(Rating.game == game))).scalars().all()}


async def settle(api) -> None:
    await api.idle()
    await api.services.signals.drain()


def expected_ratings(places: dict[int, int]) -> dict[int, Glicko]:
    return rate_game({s: Glicko() for s in places}, places)


# ----------------------------------------------------------------------------- pure rules

def test_outcome_rules():
    engine_result = {"scores": {"0": 9, "1": 5, "2": 7}, "ranking": [0, 2, 1], "details": {}}
    got = with_resignations(engine_result, [0])
    assert got["ranking"] == [2, 1, 0]
    assert got["details"]["places"] == {"0": 3, "1": 2, "2": 1}
    assert got["resigned"] == [0]
    # two resigned: the first to resign is the very last
    assert with_resignations(engine_result, [2, 0])["ranking"] == [1, 0, 2]
    assert ended_by_resignation(2, [1])["details"]["places"] == {"0": 1, "1": 2}
    assert ended_by_resignation(4, [3, 1])["ranking"] == [0, 2, 1, 3]
    # the opening: each seat's first answer to a simultaneous first decision
    assert not play_began({0, 1}, [0, 1])
    assert play_began({0, 1}, [0, 1, 0])
    assert play_began({0, 1}, [0, 0])
    assert play_began({0}, [0])  # a single first decision is already play


# ----------------------------------------------------------------------------- resign

async def test_two_players_resign_ends_the_game_and_is_a_rated_loss(api):
    ada, bob = await api.user("ada"), await api.user("bob")
    gid = await api.toy_game(ada, others=[bob])
    card = (await ada.legal(gid))["actions"][0]
    assert (await ada.act(gid, card, version=0)).status_code == 200
    r = await bob.post(f"/api/games/{gid}/resign")
    assert r.status_code == 200, r.text
    g = r.json()
    assert g["status"] == "finished" and g["version"] == 2 and g["waiting_for"] == []
    assert g["result"]["ranking"] == [0, 1]
    assert g["result"]["resigned"] == [1]
    assert g["result"]["details"]["places"] == {"0": 1, "1": 2}
    assert g["result"]["bot_played"] == []
    detail = await ada.game(gid)
    assert detail["result"]["resigned"] == [1] and detail["status"] == "finished"
    # nobody moves any more, nobody resigns again
    assert (await ada.legal(gid))["actions"] == []
    r = await ada.act(gid, {"type": "score"}, version=2)
    assert r.status_code == 403 and r.json()["error"]["code"] == "game_over"
    r = await ada.post(f"/api/games/{gid}/resign")
    assert r.status_code == 409 and r.json()["error"]["code"] == "game_over"
    # the log says so (everyone sees it)
    log = (await api.client.get(f"/api/games/{gid}/log")).json()["entries"]
    assert log[-1]["version"] == 2
    assert log[-1]["events"] == [{"kind": "resign", "data": {"seat": 1, "ends": True}}]
    # rated: bob lost to ada
    await settle(api)
    want = expected_ratings({0: 1, 1: 2})
    got = await ratings_of(api)
    assert got[ada.id].rating == pytest.approx(want[0].rating)
    assert got[bob.id].rating == pytest.approx(want[1].rating)
    assert got[bob.id].rating < 1500 < got[ada.id].rating
    # notices: ada is told bob resigned (the outbox ran them)
    async with api.services.db.read() as s:
        assert not (await s.execute(select(OutboxEvent).where(
            OutboxEvent.game_id == gid))).scalars().all()
    # replay reproduces the state and reports the recorded result
    rep = await api.services.games.replay(gid)
    assert rep["match"] and rep["result_match"]
    assert rep["result"]["resigned"] == [1] and rep["engine_result"] is None
    # the record states the resignation; its import gives the same result
    rec = (await api.client.get(f"/api/games/{gid}/record")).json()
    assert rec["result"]["resigned"] == [1] and len(rec["actions"]) == 1
    r = await ada.post("/api/games/import", json=rec)
    assert r.status_code == 201, r.text
    assert r.json()["result"]["ranking"] == [0, 1]
    # a record whose resignation does not end the game is refused
    rec["result"] = {}
    r = await ada.post("/api/games/import", json=rec)
    assert r.status_code == 422 and r.json()["error"]["code"] == "not_finished"


async def test_three_players_a_bot_plays_the_resigned_seat_which_finishes_last(api):
    ada, bob, cyd = await api.user("ada"), await api.user("bob"), await api.user("cyd")
    gid = await api.toy_game(ada, seats=3, others=[bob, cyd])
    r = await cyd.post(f"/api/games/{gid}/resign")
    assert r.status_code == 200, r.text
    g = r.json()
    assert g["status"] == "running" and g["version"] == 1
    assert [x["away"] for x in g["seats"]] == [False, False, True]
    await api.idle()
    # the bot answered cyd's card: the game waits for ada and bob only
    g = await ada.game(gid)
    assert 2 not in g["waiting_for"] and g["version"] == 2
    # cyd cannot take the seat back nor resign again
    r = await cyd.post(f"/api/games/{gid}/reclaim")
    assert r.status_code == 409 and r.json()["error"]["code"] == "resigned"
    r = await cyd.post(f"/api/games/{gid}/resign")
    assert r.status_code == 409 and r.json()["error"]["code"] == "already_resigned"
    done = await play_to_end(api, gid, [ada, bob])
    result = done["result"]
    assert result["ranking"][-1] == 2 and result["resigned"] == [2]
    assert result["details"]["places"]["2"] == 3
    assert 2 not in result["bot_played"]
    await settle(api)
    places = {int(k): v for k, v in result["details"]["places"].items()}
    want = expected_ratings(places)
    got = await ratings_of(api)
    for p, seat in ((ada, 0), (bob, 1), (cyd, 2)):
        assert got[p.id].rating == pytest.approx(want[seat].rating)
    assert got[cyd.id].rating < 1500
    rep = await api.services.games.replay(gid)
    assert rep["match"] and rep["result_match"] and rep["result"]["resigned"] == [2]


async def test_the_last_resignation_but_one_ends_the_game(api):
    ada, bob, cyd = await api.user("ada"), await api.user("bob"), await api.user("cyd")
    gid = await api.toy_game(ada, seats=3, others=[bob, cyd])
    assert (await cyd.post(f"/api/games/{gid}/resign")).status_code == 200
    await api.idle()
    r = await ada.post(f"/api/games/{gid}/resign")
    assert r.status_code == 200, r.text
    g = r.json()
    assert g["status"] == "finished"
    assert g["result"]["ranking"] == [1, 0, 2]
    assert g["result"]["details"]["places"] == {"0": 2, "1": 1, "2": 3}
    await settle(api)
    got = await ratings_of(api)
    want = expected_ratings({0: 2, 1: 1, 2: 3})
    assert got[bob.id].rating == pytest.approx(want[1].rating)
    assert got[cyd.id].rating == pytest.approx(want[2].rating)
    rep = await api.services.games.replay(gid)
    assert rep["match"] and rep["result_match"]


async def test_resign_against_a_bot_ends_the_game_unrated(api):
    ada = await api.user("ada")
    gid = await api.toy_game(ada, bots=[1])
    r = await ada.post(f"/api/games/{gid}/resign")
    assert r.status_code == 200 and r.json()["result"]["ranking"] == [1, 0]
    await settle(api)
    assert await ratings_of(api) == {}


async def test_resign_refusals(api):
    ada, bob, eve = await api.user("ada"), await api.user("bob"), await api.user("eve")
    gid = await api.toy_game(ada, others=[bob], start=False)
    r = await ada.post(f"/api/games/{gid}/resign")
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_started"
    assert (await ada.post(f"/api/games/{gid}/start")).status_code == 200
    r = await eve.post(f"/api/games/{gid}/resign")
    assert r.status_code == 403 and r.json()["error"]["code"] == "no_seat"
    r = await api.client.post(f"/api/games/{gid}/resign")
    assert r.status_code == 401
    r = await ada.post("/api/games/999999/resign")
    assert r.status_code == 404


async def test_a_move_computed_before_a_resignation_is_refused(api):
    ada, bob, cyd = await api.user("ada"), await api.user("bob"), await api.user("cyd")
    gid = await api.toy_game(ada, seats=3, others=[bob, cyd])
    card = (await ada.legal(gid))["actions"][0]
    assert (await cyd.post(f"/api/games/{gid}/resign")).status_code == 200
    r = await ada.act(gid, card, version=0)
    assert r.status_code == 409 and r.json()["error"]["code"] == "stale_version"


async def test_a_resignation_cannot_be_taken_back(api):
    ada, bob, cyd = await api.user("ada"), await api.user("bob"), await api.user("cyd")
    gid = await api.toy_game(ada, seats=3, others=[bob, cyd])
    assert (await ada.act(gid, (await ada.legal(gid))["actions"][0], version=0)).status_code == 200
    assert (await cyd.post(f"/api/games/{gid}/resign")).status_code == 200
    await api.idle()
    v = (await ada.game(gid))["version"]
    r = await ada.post(f"/api/games/{gid}/undo", json={"version": v})
    assert r.status_code == 409 and r.json()["error"]["code"] == "cannot_undo"


# ----------------------------------------------------------------------------- abort

async def test_abort_in_the_opening_is_unrated_and_too_late_after_it(api):
    ada, bob = await api.user("ada"), await api.user("bob")
    gid = await api.toy_game(ada, others=[bob])
    assert (await ada.act(gid, (await ada.legal(gid))["actions"][0], version=0)).status_code == 200
    r = await bob.post(f"/api/games/{gid}/abort")
    assert r.status_code == 200, r.text
    g = r.json()
    assert g["status"] == "finished" and g["result"]["aborted"] == 1
    assert g["result"]["ranking"] == []
    await settle(api)
    assert await ratings_of(api) == {}
    rep = await api.services.games.replay(gid)
    assert rep["match"] and rep["result_match"]
    log = (await api.client.get(f"/api/games/{gid}/log")).json()["entries"]
    assert log[-1]["events"] == [{"kind": "abort", "data": {"seat": 1}}]

    # a game whose play began (both cards played, the winner's reward taken): too late
    gid = await api.toy_game(ada, others=[bob])
    for p, v in ((ada, 0), (bob, 1)):
        assert (await p.act(gid, (await p.legal(gid))["actions"][0], version=v)).status_code == 200
    g = await ada.game(gid)
    winner = ada if g["waiting_for"] == [0] else bob
    assert (await winner.act(gid, {"type": "score"}, version=2)).status_code == 200
    r = await ada.post(f"/api/games/{gid}/abort")
    assert r.status_code == 409 and r.json()["error"]["code"] == "abort_too_late"
    assert (await ada.game(gid))["status"] == "running"


# ----------------------------------------------------------------------------- cancel, leave

async def test_cancel_and_leave_before_the_start(api):
    ada, bob = await api.user("ada"), await api.user("bob")
    gid = await api.toy_game(ada, others=[bob], start=False)
    r = await bob.post(f"/api/games/{gid}/cancel")
    assert r.status_code == 403 and r.json()["error"]["code"] == "not_creator"
    r = await ada.post(f"/api/games/{gid}/leave")
    assert r.status_code == 409 and r.json()["error"]["code"] == "creator_cannot_leave"
    r = await bob.post(f"/api/games/{gid}/leave")
    assert r.status_code == 200, r.text
    assert r.json()["seats"][1]["user"] is None and r.json()["your_seat"] is None
    r = await bob.post(f"/api/games/{gid}/leave")
    assert r.status_code == 403 and r.json()["error"]["code"] == "no_seat"
    # the seat is free again: bob can come back
    assert (await bob.post(f"/api/games/{gid}/join")).status_code == 200
    r = await ada.post(f"/api/games/{gid}/cancel")
    assert r.status_code == 204
    assert (await ada.get(f"/api/games/{gid}")).status_code == 404
    async with api.services.db.read() as s:
        assert not (await s.execute(select(Seat).where(Seat.game_id == gid))).all()
    # a started game: neither
    gid = await api.toy_game(ada, others=[bob])
    r = await ada.post(f"/api/games/{gid}/cancel")
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_open"
    r = await bob.post(f"/api/games/{gid}/leave")
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_open"


# ----------------------------------------------------------------------------- my next game

async def test_next_game_is_the_closest_deadline_where_it_is_my_move(api):
    ada, bob = await api.user("ada"), await api.user("bob")

    async def game(seconds=None) -> int:
        body = {"game": "toy", "seats": 2}
        if seconds:
            body["time_control"] = {"mode": "move", "seconds": seconds}
        gid = (await ada.post("/api/games", json=body)).json()["id"]
        assert (await bob.post(f"/api/games/{gid}/join")).status_code == 200
        assert (await ada.post(f"/api/games/{gid}/start")).status_code == 200
        return gid

    untimed, day, hour = await game(), await game(86400), await game(3600)
    # ada moves in the hour game: it waits for bob only there
    assert (await ada.act(hour, (await ada.legal(hour))["actions"][0], 0)).status_code == 200
    waiting_on_bob = await game(600)
    assert (await ada.act(waiting_on_bob, (await ada.legal(waiting_on_bob))["actions"][0],
                          0)).status_code == 200
    r = await ada.get("/api/games/next")
    assert r.status_code == 200 and r.json()["game"]["id"] == day
    assert (await ada.get(f"/api/games/next?after={day}")).json()["game"]["id"] == untimed
    # bob: every game waits for him; the ten-minute one first, then the hour, then the day
    assert (await bob.get("/api/games/next")).json()["game"]["id"] == waiting_on_bob
    mine = (await bob.get("/api/games?mine=1")).json()
    assert [g["id"] for g in mine] == [waiting_on_bob, hour, day, untimed]
    mine = (await ada.get("/api/games?mine=1")).json()
    assert [g["id"] for g in mine][:2] == [day, untimed]
    # nothing else waits for ada once she answered both
    for gid in (day, untimed):
        assert (await ada.act(gid, (await ada.legal(gid))["actions"][0])).status_code == 200
    assert (await ada.get("/api/games/next")).json() == {"game": None}
    assert (await api.client.get("/api/games/next")).status_code == 401


async def test_can_abort_is_told_to_the_players(api):
    ada, bob, eve = await api.user("ada"), await api.user("bob"), await api.user("eve")
    gid = await api.toy_game(ada, others=[bob])
    assert (await ada.game(gid))["can_abort"] is True
    assert (await eve.game(gid))["can_abort"] is False
    for p, v in ((ada, 0), (bob, 1)):
        assert (await p.act(gid, (await p.legal(gid))["actions"][0], version=v)).status_code == 200
    assert (await ada.game(gid))["can_abort"] is True  # the opening is over, nobody played yet
    g = await ada.game(gid)
    winner = ada if g["waiting_for"] == [0] else bob
    assert (await winner.act(gid, {"type": "score"}, version=2)).status_code == 200
    assert (await ada.game(gid))["can_abort"] is False
