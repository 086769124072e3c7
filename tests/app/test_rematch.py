"""Rematches: one per finished game, the other humans invited to their old seats, accept and
decline, the game starting by itself once nobody is left to wait for."""

from __future__ import annotations

import asyncio
import json

from sqlalchemy import select

from app.bus import USER_CHANNEL
from app.models import Game, Seat
from app.models_delivery import OutboxEvent

from .conftest import play_to_end


async def finished_game(api, seats=3, bots=(), rounds=2):
    ps = [await api.user() for _ in range(seats - len(bots))]
    gid = await api.toy_game(ps[0], seats=seats, bots=bots, others=ps[1:],
                             options={"rounds": rounds})
    await play_to_end(api, gid, ps)
    return gid, ps


async def test_rematch_invites_the_other_players(api):
    gid, (a, b, c) = await finished_game(api)
    outsider = await api.user()
    r = await b.post(f"/api/games/{gid}/rematch")
    assert r.status_code == 201, r.text
    new = r.json()
    assert new["status"] == "open" and new["rematch_of"] == gid and new["game"] == "toy"
    assert new["options"] == {"rounds": 2} and len(new["seats"]) == 3
    assert new["created_by"]["username"] == b.name and new["your_seat"] == 1
    assert new["invited"] == [0, 2]
    assert [x["user"]["username"] for x in new["seats"]] == [a.name, b.name, c.name]
    # a second click, or another player's click: the same game
    r = await b.post(f"/api/games/{gid}/rematch")
    assert r.status_code == 200 and r.json()["id"] == new["id"]
    r = await a.post(f"/api/games/{gid}/rematch")
    assert r.status_code == 200 and r.json()["id"] == new["id"]
    assert (await outsider.get(f"/api/games/{gid}/rematch")).json()["rematch"]["id"] == new["id"]
    async with api.services.db.read() as s:
        old_seed = (await s.get(Game, gid)).seed
        assert (await s.get(Game, new["id"])).seed != old_seed
    # invitations: for a and c, not for b or an outsider
    for who, wanted in ((a, [new["id"]]), (c, [new["id"]]), (b, []), (outsider, [])):
        got = (await who.get("/api/rematch/invitations")).json()
        assert [g["id"] for g in got] == wanted
    # invited seats are taken: nobody else may join them
    r = await outsider.post(f"/api/games/{new['id']}/join")
    assert r.status_code == 409
    # only invited players accept; a accepts, then c: the game starts by itself
    assert (await outsider.post(f"/api/games/{new['id']}/rematch/accept")).status_code == 403
    assert (await b.post(f"/api/games/{new['id']}/rematch/accept")).json()["error"]["code"] \
        == "not_invited"
    r = await a.post(f"/api/games/{new['id']}/rematch/accept")
    assert r.status_code == 200 and r.json()["invited"] == [2] and r.json()["status"] == "open"
    assert (await a.post(f"/api/games/{new['id']}/rematch/accept")).status_code == 403
    r = await c.post(f"/api/games/{new['id']}/rematch/accept")
    assert r.status_code == 200, r.text
    assert r.json()["status"] == "running" and r.json()["invited"] == []
    assert (await c.get("/api/rematch/invitations")).json() == []
    # the rematch can be played to its end, and has a rematch of its own
    await play_to_end(api, new["id"], [a, b, c])
    r = await c.post(f"/api/games/{new['id']}/rematch")
    assert r.status_code == 201 and r.json()["rematch_of"] == new["id"]


async def test_decline_frees_the_seat(api):
    gid, (a, b) = await finished_game(api, seats=2)
    new = (await a.post(f"/api/games/{gid}/rematch")).json()
    assert new["invited"] == [1]
    r = await b.post(f"/api/games/{new['id']}/rematch/decline")
    assert r.status_code == 200, r.text
    assert r.json()["invited"] == [] and r.json()["seats"][1]["user"] is None
    assert r.json()["your_seat"] is None and r.json()["status"] == "open"
    assert (await b.post(f"/api/games/{new['id']}/rematch/decline")).status_code == 403
    # an ordinary open game now: anyone may join, the creator starts it
    newcomer = await api.user()
    assert (await newcomer.post(f"/api/games/{new['id']}/join")).json()["seat"] == 1
    r = await a.post(f"/api/games/{new['id']}/start")
    assert r.status_code == 200 and r.json()["status"] == "running"


async def heard(got: list[dict], want: int) -> list[dict]:
    """The invitation notices on the user channel heard so far (the channel also carries the
    games' turns), once ``want`` of them arrived (5 s at most: the PostgreSQL bus delivers them
    through LISTEN, after the request returned)."""
    for _ in range(100):
        if sum("about" in n for n in got) >= want:
            break
        await asyncio.sleep(0.05)
    return [{k: n[k] for k in ("g", "users", "about", "by")} for n in got if "about" in n]


async def test_answers_are_told_as_an_invitation_s(api):
    """Accepting or declining a rematch tells the others as an invitation's answers do: their
    open pages hear it on the user channel (the lobby's toast, the lists refresh), and a decline
    queues the creator's ``invitation_declined`` notice (email, push) in the same transaction."""
    api.services.signals.wake_outbox = lambda: None  # keep the notice rows to read them
    got: list[dict] = []
    api.services.games.bus.listen(USER_CHANNEL, lambda raw: got.append(json.loads(raw)))
    gid, (a, b, c) = await finished_game(api)
    new = (await b.post(f"/api/games/{gid}/rematch")).json()["id"]
    assert (await a.post(f"/api/games/{new}/rematch/accept")).status_code == 200
    assert await heard(got, 1) == [{"g": new, "users": sorted([b.id, c.id]), "about": "accepted",
                                    "by": a.name}]
    got.clear()
    assert (await c.post(f"/api/games/{new}/rematch/decline")).status_code == 200
    assert await heard(got, 1) == [{"g": new, "users": [b.id], "about": "declined",
                                    "by": c.name}]
    async with api.services.db.read() as s:
        notices = [(r.payload["kind"], r.payload["users"], r.payload["by"]) for r in (
            await s.execute(select(OutboxEvent).where(OutboxEvent.game_id == new,
                                                      OutboxEvent.kind == "notice")
                            .order_by(OutboxEvent.id))).scalars().all()]
    assert notices == [("invitation", sorted([a.id, c.id]), b.name),
                       ("invitation_declined", [b.id], c.name)]


async def test_a_game_against_bots_restarts_at_once(api):
    gid, (a,) = await finished_game(api, seats=2, bots=(1,))
    r = await a.post(f"/api/games/{gid}/rematch")
    assert r.status_code == 201, r.text
    new = r.json()
    assert new["status"] == "running" and new["seats"][1]["bot"] == "random"
    assert new["invited"] == []
    await api.idle()


async def test_who_may_ask_and_when(api):
    a, b, outsider = await api.user(), await api.user(), await api.user()
    running = await api.toy_game(a, others=[b])
    r = await a.post(f"/api/games/{running}/rematch")
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_finished"
    assert (await outsider.post(f"/api/games/{running}/rematch")).status_code == 403
    assert (await api.client.post(f"/api/games/{running}/rematch")).status_code == 401
    assert (await a.post("/api/games/777777/rematch")).status_code == 404
    assert (await a.get("/api/games/777777/rematch")).status_code == 404
    assert (await a.get(f"/api/games/{running}/rematch")).json() == {"rematch": None}
    assert (await a.post("/api/games/777777/rematch/accept")).status_code == 404
    assert (await api.client.get("/api/rematch/invitations")).status_code == 401
    gid, (p, q) = await finished_game(api, seats=2)
    assert (await outsider.post(f"/api/games/{gid}/rematch")).status_code == 403


async def test_simultaneous_rematch_requests_make_one_game(api):
    gid, (a, b, c) = await finished_game(api)
    results = await asyncio.gather(*(p.post(f"/api/games/{gid}/rematch") for p in (a, b, c)))
    assert sorted(r.status_code for r in results) == [200, 200, 201]
    assert len({r.json()["id"] for r in results}) == 1
    async with api.services.db.read() as s:
        games = (await s.execute(select(Game.id).where(Game.rematch_of == gid))).all()
        assert len(games) == 1
        invited = (await s.execute(select(Seat.seat).where(Seat.game_id == games[0][0],
                                                           Seat.invited.is_(True)))).all()
        assert len(invited) == 2
