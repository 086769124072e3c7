"""Invitations and friends (issue #33, item 4: app/invites.py, app/friends.py) on SQLite and
PostgreSQL: seats kept for named players, accept/decline/withdraw, joins refused to anyone
else, the notices, follows and what friends' lists may show."""

from __future__ import annotations

from sqlalchemy import select

from app.models import Seat
from app.models_delivery import OutboxEvent

from .conftest import make_settings, running_app


def code(r) -> str:
    return r.json()["error"]["code"]


async def invite(owner, *names, seats: int = 2, unlisted: bool = True, bots=(), **more):
    return await owner.post("/api/invitations", json={
        "game": "toy", "seats": seats, "invite": list(names), "unlisted": unlisted,
        "bots": list(bots), **more})


async def notices(api, gid: int) -> list[dict]:
    async with api.services.db.read() as s:
        return [r.payload for r in (await s.execute(
            select(OutboxEvent).where(OutboxEvent.game_id == gid, OutboxEvent.kind == "notice")
            .order_by(OutboxEvent.id))).scalars().all()]


async def test_invitation_keeps_a_seat_and_accepting_starts_the_game(api):
    ada, bob, eve = await api.user("ada"), await api.user("bob"), await api.user("eve")
    api.services.signals.wake_outbox = lambda: None  # keep the notice rows to read them
    r = await invite(ada, "BOB")
    assert r.status_code == 201, r.text
    g = r.json()
    gid = g["id"]
    assert g["unlisted"] is True and g["status"] == "open"
    assert [(x["seat"], x["user"]["username"] if x["user"] else None, x["invited"])
            for x in g["seats"]] == [(0, "ada", False), (1, "bob", True)]
    # bob is told: a game_invitation notice for him alone, by ada
    [n] = await notices(api, gid)
    assert (n["kind"], n["users"], n["by"], n["game"]) == ("game_invitation", [bob.id], "ada",
                                                           "toy")
    # the lists: bob's received, ada's sent; nobody's public lobby
    got = (await bob.get("/api/invitations")).json()
    assert [x["id"] for x in got["received"]] == [gid] and got["sent"] == []
    assert [x["id"] for x in (await ada.get("/api/invitations")).json()["sent"]] == [gid]
    public = (await eve.get("/api/games")).json()
    assert gid not in [x["id"] for x in public]
    assert gid not in [x["id"] for x in (await api.client.get("/api/games")).json()]
    # eve may not join, nor answer, nor withdraw
    r = await eve.post(f"/api/games/{gid}/join")
    assert r.status_code == 403 and code(r) == "not_invited"
    r = await eve.post(f"/api/games/{gid}/invitation/accept")
    assert r.status_code == 403 and code(r) == "not_invited"
    r = await eve.delete(f"/api/games/{gid}/invitations/bob")
    assert r.status_code == 403 and code(r) == "not_creator"
    # the creator cannot start it while bob has not answered
    r = await ada.post(f"/api/games/{gid}/start")
    assert r.status_code == 409 and code(r) == "seats_invited"
    # bob's own join says he has the seat already
    r = await bob.post(f"/api/games/{gid}/join")
    assert r.status_code == 409 and code(r) == "already_seated"
    r = await bob.post(f"/api/games/{gid}/invitation/accept")
    assert r.status_code == 200, r.text
    g = r.json()
    assert g["status"] == "running" and g["your_seat"] == 1
    assert [x["invited"] for x in g["seats"]] == [False, False]
    r = await bob.post(f"/api/games/{gid}/invitation/accept")
    assert r.status_code == 403 and code(r) == "not_invited"
    assert (await bob.get("/api/invitations")).json()["received"] == []


async def test_decline_frees_the_seat_and_tells_the_creator(api):
    ada, bob, cyd = await api.user("ada"), await api.user("bob"), await api.user("cyd")
    api.services.signals.wake_outbox = lambda: None
    gid = (await invite(ada, "bob", "cyd", seats=3)).json()["id"]
    r = await bob.post(f"/api/games/{gid}/invitation/decline")
    assert r.status_code == 200, r.text
    seats = r.json()["seats"]
    assert seats[1]["user"] is None and not seats[1]["invited"]
    assert seats[2]["user"]["username"] == "cyd" and seats[2]["invited"]
    kinds = [(n["kind"], n["users"], n["by"]) for n in await notices(api, gid)]
    assert kinds == [("game_invitation", sorted([bob.id, cyd.id]), "ada"),
                     ("invitation_declined", [ada.id], "bob")]
    # in an unlisted game the free seat is nobody's but a new invitee's
    r = await bob.post(f"/api/games/{gid}/join")
    assert r.status_code == 403 and code(r) == "not_invited"
    dan = await api.user("dan")
    r = await ada.post(f"/api/games/{gid}/invitations", json={"invite": ["dan"]})
    assert r.status_code == 200, r.text
    assert r.json()["seats"][1]["user"]["username"] == "dan"
    # the creator withdraws cyd's invitation: the seat is free, cyd cannot accept any more
    r = await ada.delete(f"/api/games/{gid}/invitations/cyd")
    assert r.status_code == 200 and r.json()["seats"][2]["user"] is None
    r = await cyd.post(f"/api/games/{gid}/invitation/accept")
    assert r.status_code == 403 and code(r) == "not_invited"
    r = await ada.delete(f"/api/games/{gid}/invitations/cyd")
    assert r.status_code == 404 and code(r) == "no_invitation"
    # dan accepts; one seat is still empty, so the game waits
    assert (await dan.post(f"/api/games/{gid}/invitation/accept")).json()["status"] == "open"


async def test_a_listed_invitation_game_keeps_the_seat_but_lets_others_join_the_rest(api):
    ada, bob, eve = await api.user("ada"), await api.user("bob"), await api.user("eve")
    gid = (await invite(ada, "bob", seats=3, unlisted=False)).json()["id"]
    assert gid in [x["id"] for x in (await eve.get("/api/games")).json()]
    r = await eve.post(f"/api/games/{gid}/join", json={"seat": 1})
    assert r.status_code == 409 and code(r) == "seat_taken"
    r = await eve.post(f"/api/games/{gid}/join")
    assert r.status_code == 200 and r.json()["seat"] == 2
    r = await bob.post(f"/api/games/{gid}/invitation/accept")
    assert r.json()["status"] == "running"


async def test_bad_invitations_are_refused_with_their_codes(api):
    ada = await api.user("ada")
    await api.user("bob")
    r = await invite(ada, "nobody")
    assert r.status_code == 404 and code(r) == "unknown_player" and \
        r.json()["error"]["name"] == "nobody"
    r = await invite(ada, "ada")
    assert r.status_code == 422 and code(r) == "self_invite"
    r = await invite(ada, "bob", bots=[1])
    assert r.status_code == 422 and code(r) == "too_many_invites"
    r = await ada.post("/api/invitations", json={"game": "toy", "seats": 2, "invite": []})
    assert r.status_code == 422
    r = await invite(ada, "  ")
    assert r.status_code == 422 and code(r) == "no_invitees"
    # nothing was stored by any of them
    async with api.services.db.read() as s:
        assert (await s.execute(select(Seat))).first() is None


async def test_the_game_store_drops_the_cached_game_whose_invitations_it_changes(
        api, monkeypatch):
    """The invitations' seats are written by the game store (app/games/store_invites.py),
    which drops the game's cached copy itself: the next read sees the new seats."""
    ada, bob, cy = await api.user("ada"), await api.user("bob"), await api.user("cyd")
    api.services.signals.wake_outbox = lambda: None
    gid = (await invite(ada, "bob", seats=3)).json()["id"]
    games = api.services.games
    store, cache = games.store, games.cache

    async def unannounced(game_id: int, session=None) -> None:
        return None  # the seats notice (whose listener drops the cache too) stays unsent

    monkeypatch.setattr(store, "seats_changed", unannounced)

    async def seat_users() -> list[int | None]:
        c = await games.current(gid)
        assert cache.get(gid) is not None  # cached by the read
        seats = {seat: user for user, seat in (c.users or {}).items()}  # users: user -> seat
        return [seats.get(s) for s in range(3)]

    assert await seat_users() == [ada.id, bob.id, None]

    async def cy_only(session) -> list[tuple[int, str]]:
        return [(cy.id, "cyd")]

    name, invited = await store.add_invitations(gid, ada.id, cy_only,
                                                lambda game, users: {"users": users})
    assert (name, invited) == ("toy", [cy.id]) and cache.get(gid) is None
    assert await seat_users() == [ada.id, bob.id, cy.id]
    done = await store.answer_invite(gid, bob.id, accept=False,
                                     declined=lambda game, users: {"users": users})
    assert (done.game, done.created_by, done.user_id) == ("toy", ada.id, bob.id)
    assert cache.get(gid) is None
    assert await seat_users() == [ada.id, None, cy.id]
    done = await store.withdraw_invite(gid, ada.id, "CYD")
    assert done.user_id == cy.id and cache.get(gid) is None
    assert await seat_users() == [ada.id, None, None]
    # the notices went out in the same transactions: cy's invitation, ada's decline notice
    assert [n["users"] for n in await notices(api, gid)][1:] == [[cy.id], [ada.id]]


async def test_pending_invitations_and_the_invitation_rate_are_limited(db_url):
    settings = make_settings(db_url, max_pending_invitations_per_user=2,
                             rate_invites_burst=4, rate_invites_per_hour=1.0)
    async with running_app(settings) as api:
        ada = await api.user("ada")
        for name in ("bo1", "bo2", "bo3"):
            await api.user(name)
        assert (await invite(ada, "bo1")).status_code == 201
        assert (await invite(ada, "bo2")).status_code == 201
        r = await invite(ada, "bo3")
        assert r.status_code == 409 and code(r) == "invitation_quota"
        assert r.json()["error"]["limit"] == 2
        r = await invite(ada, "bo3")  # the fourth request of the burst, refused the same way
        assert r.status_code == 409
        r = await invite(ada, "bo3")  # the fifth: the hourly rate
        assert r.status_code == 429 and code(r) == "rate_limited"


# ----------------------------------------------------------------------------- friends

async def test_follow_unfollow_and_the_friends_list(api):
    ada, bob = await api.user("ada"), await api.user("bob")
    r = await ada.api.client.put("/api/me/following/BOB", headers=ada.headers)
    assert r.status_code == 200 and r.json()["user"] == {"id": bob.id, "username": "bob"}
    again = await ada.api.client.put("/api/me/following/bob", headers=ada.headers)
    assert again.json()["since"] == r.json()["since"]  # following twice changes nothing
    got = (await ada.get("/api/me/following")).json()
    assert [x["user"]["username"] for x in got] == ["bob"]
    assert (await bob.get("/api/me/following")).json() == []  # one-sided
    r = await ada.api.client.put("/api/me/following/ada", headers=ada.headers)
    assert r.status_code == 422 and code(r) == "cannot_follow_self"
    r = await ada.api.client.put("/api/me/following/nobody", headers=ada.headers)
    assert r.status_code == 404 and code(r) == "unknown_player"
    r = await api.client.put("/api/me/following/bob")
    assert r.status_code == 401
    assert (await ada.delete("/api/me/following/bob")).status_code == 204
    assert (await ada.get("/api/me/following")).json() == []



async def test_the_friends_list_is_in_name_order_whatever_the_case(api):
    ada = await api.user("ada")
    for name in ("Zed", "bob", "Cyd"):  # made (and followed) out of name order
        await api.user(name)
        r = await api.client.put(f"/api/me/following/{name}", headers=ada.headers)
        assert r.status_code == 200
    got = (await ada.get("/api/me/following")).json()
    assert [x["user"]["username"] for x in got] == ["bob", "Cyd", "Zed"]

async def test_follows_are_limited(db_url):
    settings = make_settings(db_url, max_follows_per_user=1, rate_follows_burst=3,
                             rate_follows_per_hour=1.0)
    async with running_app(settings) as api:
        ada = await api.user("ada")
        await api.user("bo1"), await api.user("bo2")
        put = api.client.put
        assert (await put("/api/me/following/bo1", headers=ada.headers)).status_code == 200
        r = await put("/api/me/following/bo2", headers=ada.headers)
        assert r.status_code == 409 and code(r) == "follow_quota"
        assert (await put("/api/me/following/bo2", headers=ada.headers)).status_code == 409
        r = await put("/api/me/following/bo2", headers=ada.headers)
        assert r.status_code == 429 and code(r) == "rate_limited"


async def test_friends_games_never_show_an_unlisted_game_to_an_outsider(api):
    ada, bob, cyd, eve = (await api.user("ada"), await api.user("bob"), await api.user("cyd"),
                          await api.user("eve"))
    for who in (eve, cyd):
        r = await api.client.put("/api/me/following/bob", headers=who.headers)
        assert r.status_code == 200
    public = await api.toy_game(bob, others=[ada])          # running, listed
    hidden = (await invite(bob, "cyd")).json()["id"]          # unlisted, cyd invited
    opened = (await bob.post("/api/games", json={"game": "toy", "seats": 2})).json()["id"]
    r = await eve.get("/api/me/friends/games")
    assert r.status_code == 200
    got = {g["id"]: g["friends"] for g in r.json()}
    assert got == {public: ["bob"], opened: ["bob"]}
    # cyd has a seat (an invitation) in the unlisted game: it is on cyd's list
    got = {g["id"] for g in (await cyd.get("/api/me/friends/games")).json()}
    assert got == {public, hidden, opened}
    # once cyd declined, it is gone from cyd's list again
    await cyd.post(f"/api/games/{hidden}/invitation/decline")
    got = {g["id"] for g in (await cyd.get("/api/me/friends/games")).json()}
    assert got == {public, opened}
    # an invited friend is not "playing" yet: bob invited to ada's unlisted game
    hers = (await invite(ada, "bob")).json()["id"]
    assert hers not in {g["id"] for g in (await eve.get("/api/me/friends/games")).json()}
    # finished games are not "playing"
    await bob.post(f"/api/games/{public}/resign")
    assert public not in {g["id"] for g in (await eve.get("/api/me/friends/games")).json()}
    assert (await api.client.get("/api/me/friends/games")).status_code == 401
