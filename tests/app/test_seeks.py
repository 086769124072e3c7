"""Quick match (issue #33, item 5; app/seeks/): post, list, cancel, expire; which seeks pair
(game, seats, options, time control, rated, both rating ranges, never one player's two
seeks), oldest first then closest rating; accepting a seek; the quotas; a race of two
servers on one database pairing each seek once. SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from sqlalchemy import select

from app.models import Game, Rating, Seek
from app.seeks import match
from app.times import utcnow

from .conftest import make_settings, play_to_end, running_app
from .test_processes import pg_url  # noqa: F401 - the fixture
from .wsclient import Socket

TOY = {"game": "toy", "seats": 2, "minutes": 30}


async def set_rating(api, player, rating: float, game: str = "toy") -> None:
    async with api.services.db.write() as s:
        s.add(Rating(user_id=player.id, game=game, rating=rating, rd=80.0, volatility=0.06,
                     games=10, updated_at=utcnow()))
        await s.commit()


async def seek(player, status: int = 201, **body) -> dict:
    r = await player.post("/api/seeks", json={**TOY, **body})
    assert r.status_code == status, r.text
    return r.json()


async def seek_rows(api) -> dict[int, Seek]:
    async with api.services.db.read() as s:
        return {x.id: x for x in (await s.execute(select(Seek))).scalars().all()}


# ----------------------------------------------------------------------------- the API

async def test_post_list_and_cancel(api):
    ada, bob = await api.user("ada"), await api.user("bob")
    posted = await seek(ada, rating_min=1200, rating_max=1800, rated=False)
    assert posted["game"] is None
    s = posted["seek"]
    assert (s["status"], s["seats"], s["rated"], s["rating"], s["rating_min"],
            s["rating_max"]) == ("open", 2, False, 1500, 1200, 1800)
    listed = (await api.client.get("/api/seeks")).json()  # anyone may read the lobby's list
    assert [(x["id"], x["user"]["username"], x["title"]) for x in listed["seeks"]] == [
        (s["id"], "ada", "Hidden high card (test game)")]
    assert listed["mine"] == []
    theirs = (await bob.get("/api/seeks")).json()
    # a casual seek in another pool than bob's would be: bob may accept it (1500 in range)
    assert theirs["seeks"][0]["can_accept"] is True and theirs["seeks"][0]["mine"] is False
    mine = (await ada.get("/api/seeks")).json()
    assert mine["seeks"][0]["mine"] is True and mine["seeks"][0]["can_accept"] is False
    assert [x["id"] for x in mine["mine"]] == [s["id"]] and mine["ratings"]["toy"] == 1500
    # only its player cancels it; once closed it stays closed
    r = await bob.delete(f"/api/seeks/{s['id']}")
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
    assert (await ada.delete(f"/api/seeks/{s['id']}")).status_code == 204
    r = await ada.delete(f"/api/seeks/{s['id']}")
    assert r.status_code == 409 and r.json()["error"]["code"] == "seek_closed"
    assert (await api.client.get("/api/seeks")).json()["seeks"] == []
    assert [x["status"] for x in (await ada.get("/api/seeks")).json()["mine"]] == ["cancelled"]
    # bad seeks: a clear 4xx, nothing stored
    for body, status, code in (
            ({"game": "nope"}, 422, "unknown_game"),
            ({"seats": 1}, 422, "bad_seats"),
            ({"seats": 5}, 422, "bad_seats"),
            ({"rating_min": 1600, "rating_max": 1400}, 422, "bad_rating_range"),
            ({"options": {"rounds": 9}}, 422, "bad_options"),
            ({"minutes": 0}, 422, "invalid_request"),
            ({"minutes": 7 * 24 * 60 + 1}, 422, "invalid_request"),
            ({"time_control": {"mode": "move", "seconds": 3600, "bot": "zz"}}, 422,
             "unknown_bot")):
        r = await ada.post("/api/seeks", json={**TOY, **body})
        assert r.status_code == status and r.json()["error"]["code"] == code, (body, r.text)
    assert len(await seek_rows(api)) == 1
    assert (await api.client.post("/api/seeks", json=TOY)).status_code == 401


async def test_two_compatible_seeks_start_a_game(api):
    ada, bob = await api.user("ada"), await api.user("bob")
    r = await ada.post("/api/me/webhooks", json={"url": "https://example.invalid/hook/ada"})
    assert r.status_code == 201, r.text
    tc = {"mode": "move", "seconds": 3600}
    first = await seek(ada, time_control=tc, options={"rounds": 2})
    assert first["game"] is None
    second = await seek(bob, time_control=tc, options={"rounds": 2})
    g = second["game"]
    assert g["status"] == "running" and g["version"] == 0 and g["casual"] is False
    assert [x["user"]["username"] for x in g["seats"]] == ["ada", "bob"]  # the oldest in 0
    assert g["options"] == {"rounds": 2} and g["time_control"]["seconds"] == 3600
    assert g["created_by"]["username"] == "ada" and g["your_seat"] == 1
    assert second["seek"]["status"] == "paired" and second["seek"]["game_id"] == g["id"]
    mine = (await ada.get("/api/seeks")).json()
    assert mine["seeks"] == [] and [(x["status"], x["game_id"]) for x in mine["mine"]] == [
        ("paired", g["id"])]
    assert (await ada.game(g["id"]))["your_seat"] == 0
    # each player is told through their channels (the outbox, exactly once): ada's webhook
    await api.services.signals.drain()
    async with api.services.db.read() as s:
        from app.models_delivery import WebhookDelivery

        sent = (await s.execute(select(WebhookDelivery))).scalars().all()
    matched = [x.payload for x in sent if x.event == "matched"]
    assert [(m["game"]["id"], m["by"], m["user"]["username"]) for m in matched] == [
        (g["id"], "bob", "ada")]
    r = await ada.delete(f"/api/seeks/{first['seek']['id']}")
    assert r.status_code == 409 and r.json()["error"]["code"] == "seek_closed"


@pytest.mark.parametrize("differ", ["game", "seats", "options", "time_control", "rated",
                                    "first_range", "second_range", "same_player"])
async def test_incompatible_seeks_wait(api, differ):
    ada, bob = await api.user(), await api.user()
    await set_rating(api, ada, 1500)
    await set_rating(api, bob, 1700)
    one, two = {}, {}
    if differ == "game":
        two = {"game": "zoocracy"}
    elif differ == "seats":
        two = {"seats": 3}
    elif differ == "options":
        one, two = {"options": {"rounds": 2}}, {"options": {"rounds": 3}}
    elif differ == "time_control":
        two = {"time_control": {"mode": "move", "seconds": 3600}}
    elif differ == "rated":
        two = {"rated": False}
    elif differ == "first_range":   # ada (1500) wants at most 1650: bob is 1700
        one = {"rating_max": 1650}
    elif differ == "second_range":  # bob (1700) wants at least 1600: ada is 1500
        two = {"rating_min": 1600}
    second_player = ada if differ == "same_player" else bob
    assert (await seek(ada, **one))["game"] is None
    assert (await seek(second_player, **two))["game"] is None
    assert [x.status for x in (await seek_rows(api)).values()] == ["open", "open"]
    # the same two seeks in range pair: the control of the test
    if differ in ("first_range", "second_range"):
        carol = await api.user()
        await set_rating(api, carol, 1620)
        made = await seek(carol)
        assert made["game"] is not None
        names = {x["user"]["id"] for x in made["game"]["seats"]}
        assert names == {carol.id, ada.id}  # fits both: the oldest seek is served first


async def test_oldest_first_then_closest_rating(api):
    # two seats: each open seek fits the newcomer; the oldest wins over the closer rating
    p = [await api.user(f"pp{i}") for i in range(3)]
    for player, rating in zip(p, (1500, 1640, 1630)):
        await set_rating(api, player, rating)
    a1 = await seek(p[0], rating_min=1450, rating_max=1650)
    a2 = await seek(p[1], rating_min=1600, rating_max=1800)  # excludes p0: both wait
    assert a1["game"] is None and a2["game"] is None
    g = (await seek(p[2]))["game"]
    assert [x["user"]["id"] for x in g["seats"]] == [p[0].id, p[2].id]
    assert (await seek_rows(api))[a2["seek"]["id"]].status == "open"

    # three seats: the oldest seek is served with the partners closest to its rating
    q = [await api.user(f"qq{i}") for i in range(4)]
    for player, rating in zip(q, (1500, 1900, 1550, 1520)):
        await set_rating(api, player, rating)
    await seek(q[0], seats=3)                                      # 1500, anyone
    await seek(q[1], seats=3)                                      # 1900, older than q2
    b2 = await seek(q[2], seats=3, rating_max=1800)                # 1550: not with q1
    assert b2["game"] is None
    g = (await seek(q[3], seats=3))["game"]                        # 1520
    # q0's partners by closeness: q3 (20), q2 (50), q1 (400): q1 waits though older than q2
    assert [x["user"]["id"] for x in g["seats"]] == [q[0].id, q[3].id, q[2].id]


async def test_a_table_whose_anchor_is_not_its_oldest_seek_starts(api):
    """Three seats: the oldest seek (a) cannot lead a table (its closest partner x accepts
    nobody else), a later anchor (y) takes it in: y's player creates and starts the game."""
    a, x, y, z = [await api.user(f"tt{n}") for n in "axyz"]
    for player, rating in zip((a, x, y, z), (1500, 1501, 1600, 1610)):
        await set_rating(api, player, rating)
    await seek(a, seats=3)
    await seek(x, seats=3, rating_min=1490, rating_max=1502)
    await seek(y, seats=3)
    g = (await seek(z, seats=3))["game"]
    assert g["status"] == "running" and g["created_by"]["id"] == y.id
    assert [s["user"]["id"] for s in g["seats"]] == [y.id, z.id, a.id]


def test_the_pairing_order_in_pure_terms():
    c = match.Candidate
    seeks = [c(1, 10, 1500, None, None, 1.0), c(2, 11, 1800, None, None, 2.0),
             c(3, 12, 1510, None, None, 3.0), c(4, 10, 1505, None, None, 4.0)]
    # the oldest (1) takes the closest other player's seek (4 is its own player's: never)
    assert [[x.id for x in t] for t in match.groups(seeks, 2)] == [[1, 3], [2, 4]]
    assert match.groups(seeks[:1], 2) == []
    assert match.pool_of("toy", 2, {}, None, True) != match.pool_of("toy", 2, {}, None, False)


async def test_expiry_through_the_sweep(api):
    ada, bob = await api.user(), await api.user()
    s = (await seek(ada, minutes=1))["seek"]
    keep = (await seek(ada, minutes=90, seats=3))["seek"]
    swept = await api.services.seeks.sweep(utcnow() + timedelta(seconds=30))
    assert swept["expired"] == 0
    swept = await api.services.seeks.sweep(utcnow() + timedelta(minutes=2))
    assert swept["expired"] == 1
    rows = await seek_rows(api)
    assert (rows[s["id"]].status, rows[keep["id"]].status) == ("expired", "open")
    # an expired seek pairs with nobody, cannot be cancelled, and is not listed
    assert (await seek(bob))["game"] is None
    r = await ada.delete(f"/api/seeks/{s['id']}")
    assert r.status_code == 409 and r.json()["error"]["code"] == "seek_closed"
    assert [x["id"] for x in (await api.client.get("/api/seeks")).json()["seeks"]] == [
        keep["id"], max(rows) + 1]


async def test_the_page_hears_its_match_and_its_expiry(server):
    host, api = server
    ada, bob = await api.user(), await api.user()
    ws = await Socket.open_path(host, "/api/me/ws", ada.token)
    try:
        assert (await ws.recv())["type"] == "hello"
        mine = (await seek(ada))["seek"]
        g = (await seek(bob))["game"]
        msg, _ = await ws.recv_type("seek")
        assert msg == {"type": "seek", "seek": mine["id"], "status": "paired", "game": g["id"],
                       "name": "toy", "title": "Hidden high card (test game)"}
        late = (await seek(ada, minutes=1))["seek"]
        await api.services.seeks.sweep(utcnow() + timedelta(minutes=5))
        msg, _ = await ws.recv_type("seek")
        assert msg == {"type": "seek", "seek": late["id"], "status": "expired"}
    finally:
        await ws.ws.close()


async def test_accept_a_seek(api):
    ada, bob, carol = await api.user("ada"), await api.user("bob"), await api.user("carol")
    await set_rating(api, carol, 1900)
    s = (await seek(ada, rating_max=1800))["seek"]
    r = await ada.post(f"/api/seeks/{s['id']}/accept")
    assert r.status_code == 409 and r.json()["error"]["code"] == "own_seek"
    r = await carol.post(f"/api/seeks/{s['id']}/accept")
    assert r.status_code == 409 and r.json()["error"]["code"] == "seek_out_of_range"
    three = (await seek(ada, seats=3))["seek"]
    r = await bob.post(f"/api/seeks/{three['id']}/accept")
    assert r.status_code == 409 and r.json()["error"]["code"] == "seek_not_direct"
    r = await bob.post(f"/api/seeks/{s['id']}/accept")
    assert r.status_code == 201, r.text
    g = r.json()["game"]
    assert g["status"] == "running" and [x["user"]["username"] for x in g["seats"]] == [
        "ada", "bob"]
    assert r.json()["seek"]["status"] == "paired"
    r = await carol.post(f"/api/seeks/{s['id']}/accept")
    assert r.status_code == 409 and r.json()["error"]["code"] == "seek_closed"
    r = await bob.post("/api/seeks/999999/accept")
    assert r.status_code == 404


async def test_casual_games_are_never_rated(api):
    ada, bob = await api.user(), await api.user()
    await seek(ada, rated=False)
    g = (await seek(bob, rated=False))["game"]
    assert g["casual"] is True
    done = await play_to_end(api, g["id"], [ada, bob])
    assert done["status"] == "finished"
    await api.services.signals.drain()
    async with api.services.db.read() as s:
        assert (await s.scalar(select(Game.rated).where(Game.id == g["id"]))) is False
        assert (await s.execute(select(Rating))).scalars().all() == []
    # and a rated pair is rated like any game between two accounts
    await seek(ada)
    g = (await seek(bob))["game"]
    await play_to_end(api, g["id"], [ada, bob])
    await api.services.signals.drain()
    async with api.services.db.read() as s:
        assert (await s.scalar(select(Game.rated).where(Game.id == g["id"]))) is True


async def test_quotas(db_url):
    settings = make_settings(db_url, max_open_seeks_per_user=2, rate_seeks_burst=4,
                             rate_seeks_per_minute=0.001)
    async with running_app(settings) as api:
        ada = await api.user()
        await seek(ada)
        await seek(ada, seats=3)
        r = await ada.post("/api/seeks", json={**TOY, "seats": 4})
        assert r.status_code == 409 and r.json()["error"]["code"] == "seek_quota"
        assert r.json()["error"]["limit"] == 2
        await ada.delete(f"/api/seeks/{(await seek_rows(api)).popitem()[0]}")
        await seek(ada, seats=4)  # the fourth post of the burst
        r = await ada.post("/api/seeks", json=TOY)
        assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited"
    # open seeks count as unfinished games
    settings = make_settings(db_url, max_active_games_per_user=2)
    async with running_app(settings) as api:
        bob = await api.user()
        await api.toy_game(bob, start=False)
        assert (await seek(bob, rated=False))["game"] is None  # (ada's seek is rated)
        r = await bob.post("/api/seeks", json={**TOY, "seats": 3})
        assert r.status_code == 409 and r.json()["error"]["code"] == "game_quota"
    # accepting opens no seek: a player at the cap of open seeks may still accept one
    async with running_app(make_settings(db_url, max_open_seeks_per_user=1)) as api:
        carol, dave = await api.user(), await api.user()
        await seek(carol, seats=3)
        theirs = (await seek(dave, options={"rounds": 2}))["seek"]  # (a pool of its own)
        r = await carol.post(f"/api/seeks/{theirs['id']}/accept")
        assert r.status_code == 201 and r.json()["game"]["status"] == "running", r.text


async def test_a_crash_between_pairing_and_start_is_repaired(api):
    """A pairing stored the game but its process died before the start: the sweep starts it
    and tells the players."""
    from app.seeks import store

    ada, bob = await api.user(), await api.user()
    svc = api.services.seeks
    started = svc._started
    svc._started = lambda ids: asyncio.sleep(0)  # the process "dies" after the commit
    try:
        await seek(ada)
        second = await seek(bob)
    finally:
        svc._started = started
    gid = second["seek"]["game_id"]
    assert second["game"]["status"] == "open"
    async with api.services.db.read() as s:
        assert await store.unstarted(s, svc.games.store, utcnow()) == [(gid, ada.id)]
    await svc.sweep(utcnow() + timedelta(seconds=30))
    assert (await ada.game(gid))["status"] == "running"


# ----------------------------------------------------------------------------- the race

async def test_two_servers_pair_each_seek_once(db_url):
    """Two app instances (two engines, two pools of connections) on one database: 16 players
    post at once through both, half through each; every seek ends in exactly one game, no game
    has a player twice, nothing is left open (they are all compatible)."""
    settings = make_settings(db_url)
    async with running_app(settings) as one, running_app(make_settings(db_url)) as two:
        players = [await one.user() for _ in range(16)]
        posts = []
        for i, p in enumerate(players):
            via = (one, two)[i % 2]
            posts.append(via.client.post("/api/seeks", json=TOY, headers=p.headers))
        replies = await asyncio.gather(*posts)
        assert all(r.status_code == 201 for r in replies), [r.text for r in replies]
        await check_each_seek_once(one, players)


async def check_each_seek_once(api, players) -> None:
    rows = list((await seek_rows(api)).values())
    assert len(rows) == len(players)
    assert all(x.status == "paired" for x in rows), [x.status for x in rows]
    games: dict[int, list[int]] = {}
    for x in rows:
        games.setdefault(x.game_id, []).append(x.user_id)
    assert len(games) == len(players) // 2
    assert all(len(users) == 2 and len(set(users)) == 2 for users in games.values())
    async with api.services.db.read() as s:
        from app.models import Seat

        seated = (await s.execute(select(Seat.game_id, Seat.user_id))).all()
        stored = (await s.execute(select(Game.id, Game.status))).all()
    assert sorted(seated) == sorted((g, u) for g, users in games.items() for u in users)
    assert {status for _, status in stored} == {"running"} and len(stored) == len(games)


async def test_two_server_processes_pair_each_seek_once(pg_url):
    """The same race between two real server processes (``python -m tests.app.launcher``) on
    one PostgreSQL database: 20 players post at once, alternately through each process."""
    import httpx

    from .test_processes import Remote, server_process

    async with server_process(pg_url) as p1, server_process(pg_url) as p2:
        # (generous timeouts: a loaded 2-core machine is slower, not wrong)
        async with httpx.AsyncClient(base_url=f"http://{p1.base}", timeout=120) as c1, \
                httpx.AsyncClient(base_url=f"http://{p2.base}", timeout=120) as c2:
            players = [await Remote(c1).user() for _ in range(20)]
            replies = await asyncio.gather(*[
                (c1, c2)[i % 2].post("/api/seeks", json=TOY, headers=p.headers)
                for i, p in enumerate(players)])
            assert all(r.status_code == 201 for r in replies), [r.text for r in replies]
            games = {r.json()["seek"]["game_id"] for r in replies} - {None}
            # each pairing answered its own post; the others read theirs now
            mine = [(await (c1, c2)[i % 2].get("/api/seeks", headers=p.headers)).json()["mine"]
                    for i, p in enumerate(players)]
    assert all(len(m) == 1 and m[0]["status"] == "paired" for m in mine), mine
    by_game: dict[int, list[int]] = {}
    for p, m in zip(players, mine):
        by_game.setdefault(m[0]["game_id"], []).append(p.id)
    assert games <= set(by_game) and len(by_game) == 10
    assert all(len(set(users)) == 2 for users in by_game.values())


@pytest.mark.parametrize("lang", ["en", "uk", "de"])
def test_the_matched_notice_in_every_language(lang):
    from app.notify.texts import TEXTS
    from app.push import PushService

    out = PushService.payload("matched", 7, "Zoo", 0, None, lang, by="bob")
    assert "bob" in out["body"] and "#7" in out["body"] and "Zoo" in out["title"]
    assert out["tag"] == "menagerie-match-7" and out["url"] == "game.html?id=7"
    assert "{by}" in TEXTS[lang]["matched.subject"] and "{title}" in TEXTS[lang]["matched.body"]
    if lang != "en":
        assert out["body"] != PushService.payload("matched", 7, "Zoo", 0, None, "en",
                                                  by="bob")["body"]
