"""Glicko-2 ratings: the mathematics against Glickman's worked example, pairwise results of
multi-player games, and the rating of finished games through the API (once per game; games
with bots, platform-played seats, imports or a single human are not rated)."""

from __future__ import annotations

import math

import pytest
from sqlalchemy import update

from app.models import Game
from app.ratings import (
    DEFAULT_RD,
    Glicko,
    glicko2_update,
    pairwise,
    places_of,
    rate_game,
    why_unrated,
)

from .conftest import play_to_end

# --------------------------------------------------------------------------- the mathematics

def test_glickman_worked_example():
    """The example of "Example of the Glicko-2 system" (Glickman, 2013): a 1500/200/0.06
    player beats a 1400/30 player and loses to 1550/100 and 1700/300, tau = 0.5."""
    after = glicko2_update(Glicko(1500, 200, 0.06),
                           [(Glicko(1400, 30), 1.0), (Glicko(1550, 100), 0.0),
                            (Glicko(1700, 300), 0.0)], tau=0.5)
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.rd == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_intermediate_quantities_follow_the_published_formulas():
    """v and delta of the example (the paper: v = 1.7785, delta = -0.4834), recomputed from
    the formulas by hand, independently of the module."""
    mu, phi = 0.0, 200 / 173.7178
    opp = [((1400 - 1500) / 173.7178, 30 / 173.7178, 1), ((1550 - 1500) / 173.7178,
                                                          100 / 173.7178, 0),
           ((1700 - 1500) / 173.7178, 300 / 173.7178, 0)]
    g = lambda p: 1 / math.sqrt(1 + 3 * p * p / math.pi ** 2)  # noqa: E731
    e = lambda m, pj: 1 / (1 + math.exp(-g(pj) * (mu - m)))  # noqa: E731
    v = 1 / sum(g(pj) ** 2 * e(m, pj) * (1 - e(m, pj)) for m, pj, _ in opp)
    delta = v * sum(g(pj) * (s - e(m, pj)) for m, pj, s in opp)
    assert v == pytest.approx(1.7785, abs=0.0005)
    assert delta == pytest.approx(-0.4834, abs=0.001)  # the paper rounds as it goes
    assert phi == pytest.approx(1.1513, abs=0.0001)


def test_a_win_between_newcomers_is_symmetric():
    new = rate_game({0: Glicko(), 1: Glicko()}, {0: 1, 1: 2})
    assert new[0].rating > 1500 > new[1].rating
    assert new[0].rating - 1500 == pytest.approx(1500 - new[1].rating)
    assert new[0].rd == pytest.approx(new[1].rd) and new[0].rd < DEFAULT_RD


def test_a_draw_leaves_equal_players_equal():
    new = rate_game({0: Glicko(), 1: Glicko()}, {0: 1, 1: 1})
    assert new[0].rating == pytest.approx(1500) == pytest.approx(new[1].rating)


def test_no_games_only_widen_the_rd():
    after = glicko2_update(Glicko(1600, 100, 0.06), [])
    assert after.rating == 1600 and after.rd > 100


def test_places_from_the_result():
    # Ark Nova: places given by the game
    assert places_of({"ranking": [1, 0, 2], "scores": {0: 5, 1: 7, 2: 5},
                      "details": {"places": {"0": 2, "1": 1, "2": 2}}}) == {0: 2, 1: 1, 2: 2}
    # Zoocracy: shared winners, the rest by the ranking (treasury breaks ties there)
    assert places_of({"ranking": [2, 0, 1], "scores": {0: 4, 1: 4, 2: 4},
                      "details": {"winners": [2, 0]}}) == {2: 1, 0: 1, 1: 3}
    # equal scores without more detail: level
    assert places_of({"ranking": [0, 1, 2], "scores": {0: 9, 1: 9, 2: 3},
                      "details": {}}) == {0: 1, 1: 1, 2: 3}


def test_pairwise_results_of_a_three_player_game():
    pairs = pairwise({0: 1, 1: 1, 2: 3}, [0, 1, 2])
    assert sorted(pairs[0]) == [(1, 0.5), (2, 1.0)]
    assert sorted(pairs[2]) == [(0, 0.0), (1, 0.0)]
    new = rate_game({s: Glicko() for s in range(3)}, {0: 1, 1: 1, 2: 3})
    assert new[0].rating == pytest.approx(new[1].rating)
    assert new[0].rating > 1500 > new[2].rating


# --------------------------------------------------------------------------- through the API


async def finish(api, gid: int) -> None:
    """The game service announces a finished game (the signal the lead wires); wait for the
    listeners."""
    api.services.signals.emit_finished(gid)
    await api.services.signals.drain()


async def test_a_finished_game_is_rated_once(api):
    a, b = await api.user("alice_r"), await api.user("bob_r")
    gid = await api.toy_game(a, others=[b], options={"rounds": 2})
    g = await play_to_end(api, gid, [a, b])
    # the game service announces the end by itself
    await api.services.signals.drain()
    async with api.services.db.read() as s:
        assert (await s.get(Game, gid)).rated is True
    await finish(api, gid)
    board = (await api.client.get("/api/ratings/toy")).json()
    assert board["total"] == 2 and [e["rank"] for e in board["entries"]] == [1, 2]
    assert all(e["games"] == 1 for e in board["entries"])
    first = board["entries"][0]
    winner = g["result"]["ranking"][0]
    names = {x["seat"]: x["user"]["username"] for x in g["seats"]}
    scores = g["result"]["scores"]
    if scores[str(winner)] != scores[str(1 - winner)]:
        assert first["user"]["username"] == names[winner] and first["rating"] > 1500
    # the signal again (another process, a retry): nothing changes
    await finish(api, gid)
    again = (await api.client.get("/api/ratings/toy")).json()
    assert again["entries"] == board["entries"]
    mine = (await api.client.get("/api/users/ALICE_R/ratings")).json()
    assert mine["user"]["username"] == "alice_r"
    assert [r["game"] for r in mine["ratings"]] == ["toy"]
    assert mine["ratings"][0]["games"] == 1 and mine["ratings"][0]["rank"] in (1, 2)
    # paging
    page = (await api.client.get("/api/ratings/toy?limit=1&offset=1")).json()
    assert [e["rank"] for e in page["entries"]] == [2]


async def test_three_players_rate_pairwise(api):
    ps = [await api.user() for _ in range(3)]
    gid = await api.toy_game(ps[0], seats=3, others=ps[1:], options={"rounds": 2})
    await play_to_end(api, gid, ps)
    await finish(api, gid)
    board = (await api.client.get("/api/ratings/toy")).json()
    assert board["total"] == 3
    assert sum(e["rating"] for e in board["entries"]) == pytest.approx(4500, abs=1)


async def test_games_that_are_not_rated(api):
    a, b = await api.user(), await api.user()
    # a bot seat
    gid = await api.toy_game(a, bots=[1], options={"rounds": 2})
    await play_to_end(api, gid, [a])
    await finish(api, gid)
    # a seat the platform played (the listener waits until the result says so)
    listener = api.services.ratings.on_finished
    api.services.signals.finished.remove(listener)
    gid2 = await api.toy_game(a, others=[b], options={"rounds": 2})
    await play_to_end(api, gid2, [a, b])
    await api.services.signals.drain()
    api.services.signals.on_finished(listener)
    async with api.services.db.write() as s:
        row = await s.get(Game, gid2)
        await s.execute(update(Game).where(Game.id == gid2)
                        .values(result={**row.result, "bot_played": [1]}))
        await s.commit()
    await finish(api, gid2)
    # a running game
    gid3 = await api.toy_game(a, others=[b])
    await finish(api, gid3)
    board = (await api.client.get("/api/ratings/toy")).json()
    assert board["total"] == 0 and board["entries"] == []
    for g in (gid, gid2, gid3):
        async with api.services.db.read() as s:
            assert (await s.get(Game, g)).rated is False


def test_why_unrated():
    class G:  # a stand-in row
        status, result, source, hints = "finished", {"ranking": [0, 1]}, "play", False
        casual = False

    class S:
        def __init__(self, seat, user_id=None, bot=None):
            self.seat, self.user_id, self.bot = seat, user_id, bot

    assert why_unrated(G, [S(0, 1), S(1, 2)]) is None
    assert why_unrated(G, [S(0, 1), S(1, 1)]) is not None  # one human (impossible, but)
    assert why_unrated(G, [S(0, 1), S(1, None, "random")]) == "bot seat"
    assert why_unrated(G, [S(0, 1), S(1, None)]) is not None  # a seat without its user

    class Imported(G):
        source = "import"

    assert why_unrated(Imported, [S(0, 1), S(1, 2)]) == "imported"

    class Casual(G):  # the players agreed to hints (issue #19)
        hints = True

    assert why_unrated(Casual, [S(0, 1), S(1, 2)]) == "hints allowed"

    class QuickCasual(G):  # a quick match of casual seeks (issue #33)
        casual = True

    assert why_unrated(QuickCasual, [S(0, 1), S(1, 2)]) == "casual"


async def test_leaderboard_errors(api):
    assert (await api.client.get("/api/ratings/nogame")).status_code == 404
    r = await api.client.get("/api/users/nobody_here/ratings")
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
    assert (await api.client.get("/api/ratings/toy?limit=0")).status_code == 422
