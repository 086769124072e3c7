"""Catalog, create / join / start, and the game lists."""

from __future__ import annotations

from sqlalchemy import select

from app.models import Game, Snapshot


async def test_catalog_lists_registered_games(api):
    r = await api.client.get("/api/catalog")
    assert r.status_code == 200
    toy = next(g for g in r.json() if g["name"] == "toy")
    assert toy["seats"] == {"min": 2, "max": 4}
    assert toy["options"][0]["name"] == "rounds"
    r = await api.client.get("/api/catalog/toy")
    assert r.status_code == 200
    body = r.json()
    assert body.pop("i18n", {}) == {}  # the toy has no translated data
    assert body == {}
    r = await api.client.get("/api/catalog/nope")
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
    r = await api.client.get("/api/bots")
    assert "random" in r.json()


async def test_create_join_start(api):
    ada, bob, cy = await api.user("ada"), await api.user("bob"), await api.user("cyd")
    r = await ada.post("/api/games", json={"game": "toy", "seats": 3, "options": {"rounds": 2}})
    assert r.status_code == 201
    g = r.json()
    gid = g["id"]
    assert g["status"] == "open" and g["version"] == 0 and g["your_seat"] == 0
    assert [s["user"] and s["user"]["username"] for s in g["seats"]] == ["ada", None, None]
    assert g["options"] == {"rounds": 2}
    assert "seed" not in g

    # start needs every seat filled, and only the creator may start
    r = await ada.post(f"/api/games/{gid}/start")
    assert r.status_code == 409 and r.json()["error"]["code"] == "seats_empty"
    r = await bob.post(f"/api/games/{gid}/join", json={"seat": 2})
    assert r.status_code == 200 and r.json()["seat"] == 2
    r = await bob.post(f"/api/games/{gid}/join")
    assert r.status_code == 409 and r.json()["error"]["code"] == "already_seated"
    r = await cy.post(f"/api/games/{gid}/join", json={"seat": 2})
    assert r.status_code == 409 and r.json()["error"]["code"] == "seat_taken"
    r = await cy.post(f"/api/games/{gid}/join", json={"seat": 7})
    assert r.status_code == 422 and r.json()["error"]["code"] == "bad_seat"
    r = await cy.post(f"/api/games/{gid}/join")
    assert r.status_code == 200 and r.json()["seat"] == 1
    dan = await api.user("dan")
    r = await dan.post(f"/api/games/{gid}/join")
    assert r.status_code == 409 and r.json()["error"]["code"] == "game_full"
    r = await bob.post(f"/api/games/{gid}/start")
    assert r.status_code == 403 and r.json()["error"]["code"] == "not_creator"

    r = await ada.post(f"/api/games/{gid}/start")
    assert r.status_code == 200
    g = r.json()
    assert g["status"] == "running" and g["version"] == 0 and g["waiting_for"] == [0, 1, 2]
    r = await ada.post(f"/api/games/{gid}/start")
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_open"
    r = await dan.post(f"/api/games/{gid}/join")
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_open"

    # the initial state is stored with a snapshot at version 0
    async with api.services.db.read() as s:
        row = await s.get(Game, gid)
        snaps = (await s.execute(select(Snapshot.version).where(Snapshot.game_id == gid))).all()
    assert row.state["game"] == "toy" and [v for (v,) in snaps] == [0]

    # seats see their own hand only; the spectator sees none
    view_a = (await ada.game(gid))["view"]
    view_b = (await bob.game(gid))["view"]
    spect = (await api.client.get(f"/api/games/{gid}")).json()
    assert view_a["public"] == view_b["public"] == spect["view"]["public"]
    assert spect["view"]["private"] is None and spect["your_seat"] is None
    assert view_a["private"]["hand"] != view_b["private"]["hand"]
    assert len(view_a["private"]["hand"]) == 3


async def test_create_validation(api):
    ada = await api.user()
    cases = [
        ({"game": "nope", "seats": 2}, 422, "unknown_game"),
        ({"game": "toy", "seats": 9}, 422, "bad_seats"),
        ({"game": "toy", "seats": 1}, 422, "bad_seats"),
        ({"game": "toy", "seats": 2, "options": {"rounds": 7}}, 422, "bad_options"),
        ({"game": "toy", "seats": 2, "options": {"colour": 1}}, 422, "bad_options"),
        ({"game": "toy", "seats": 2, "bots": [0]}, 422, "bad_bots"),
        ({"game": "toy", "seats": 2, "bots": [2]}, 422, "bad_bots"),
        ({"game": "toy", "seats": 3, "bots": [1, 1]}, 422, "bad_bots"),
        ({"game": "toy", "seats": 2, "bots": [1], "bot": "genius"}, 422, "unknown_bot"),
        ({"game": "toy", "seats": "2"}, 422, "invalid_request"),
        ({"game": "toy", "seats": 2, "bots": "1"}, 422, "invalid_request"),
        ({"game": "toy"}, 422, "invalid_request"),
    ]
    for body, status, code in cases:
        r = await ada.post("/api/games", json=body)
        assert (r.status_code, r.json()["error"]["code"]) == (status, code), body
    r = await api.client.post("/api/games", json={"game": "toy", "seats": 2})
    assert r.status_code == 401


async def test_lists_and_your_turn(api):
    ada, bob = await api.user("ada"), await api.user("bob")
    open_id = await api.toy_game(ada, start=False)
    g1 = await api.toy_game(ada, others=[bob])
    g2 = await api.toy_game(bob, others=[ada])
    # ada answers in g1: then g1 waits only for bob; g2 waits for both
    card = (await ada.legal(g1))["actions"][0]
    assert (await ada.act(g1, card)).status_code == 200

    r = await ada.get("/api/games?mine=1")
    assert r.status_code == 200
    mine = r.json()
    assert [g["id"] for g in mine][:1] == [g2] and mine[0]["your_turn"] is True
    by_id = {g["id"]: g for g in mine}
    assert set(by_id) == {open_id, g1, g2}
    assert by_id[g1]["your_turn"] is False and by_id[g1]["waiting_for"] == [1]
    assert by_id[open_id]["your_turn"] is False

    r = await bob.get("/api/games?mine=1")
    assert [g["your_turn"] for g in r.json()] == [True, True]

    r = await api.client.get("/api/games?status=open")
    assert [g["id"] for g in r.json()] == [open_id]
    r = await api.client.get("/api/games?status=running")
    assert {g["id"] for g in r.json()} == {g1, g2}
    r = await api.client.get("/api/games?status=finished")
    assert r.json() == []
    r = await api.client.get("/api/games?status=bogus")
    assert r.status_code == 422 and r.json()["error"]["code"] == "invalid_request"
    r = await api.client.get("/api/games?mine=1")
    assert r.status_code == 401
    r = await api.client.get("/api/games?limit=1")
    assert len(r.json()) == 1


async def test_arknova_takes_one_seat_for_the_solo_game(api):
    """The zoo builder alone declares 1 seat; the creator starts a solo game at once."""
    r = await api.client.get("/api/catalog")
    ark = next(g for g in r.json() if g["name"] == "arknova")
    assert ark["seats"] == {"min": 1, "max": 4}
    solo = next(o for o in ark["options"] if o["name"] == "solo_appeal")
    assert solo["default"] == 20 and 20 in solo["choices"]
    zoc = next(g for g in r.json() if g["name"] == "zoocracy")
    assert zoc["seats"]["min"] > 1
    ada = await api.user("ada")
    r = await ada.post("/api/games", json={"game": "arknova", "seats": 1,
                                           "options": {"solo_appeal": 15}})
    assert r.status_code == 201
    gid = r.json()["id"]
    r = await ada.post(f"/api/games/{gid}/start")
    assert r.status_code == 200 and r.json()["waiting_for"] == [0]
    view = (await ada.game(gid))["view"]
    assert view["public"]["solo"] == {"appeal": 15, "covered": 0, "turns_left": 27, "breaks": 6}
    assert view["public"]["players"][0]["appeal"] == 15
    legal = await ada.legal(gid)
    r = await ada.act(gid, legal["actions"][0], version=legal["version"])
    assert r.status_code == 200
    r = await ada.post("/api/games", json={"game": "arknova", "seats": 1,
                                           "options": {"solo_appeal": 17}})
    assert r.status_code == 422 and r.json()["error"]["code"] == "bad_options"
