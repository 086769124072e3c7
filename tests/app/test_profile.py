"""A player's profile (issue #33, item 7: app/profile.py, GET /api/players/{name}) on SQLite and
PostgreSQL: its games as the viewer may see them, results, counts, maps and cards, ratings with
their history, the daily streak; nothing hidden."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import update

from app.models import ActionRecord, DailyAttempt, Game
from app.profile import control_label
from app.times import utcnow

from .conftest import play_to_end
from .test_exits import settle


def test_control_labels():
    assert control_label(None) == "untimed"
    assert control_label({"mode": "move", "seconds": 86400}) == "move:86400"
    assert control_label({"mode": "bank", "seconds": 600, "increment": 10}) == "bank:600+10"


async def test_profile_shows_games_results_counts_and_the_rating_history(api):
    ada, bob, eve = await api.user("ada"), await api.user("bob"), await api.user("eve")
    done = await api.toy_game(ada, others=[bob])
    end = await play_to_end(api, done, [ada, bob])
    await settle(api)
    running = await api.toy_game(ada, others=[bob])
    timed = (await ada.post("/api/games", json={
        "game": "toy", "seats": 2,
        "time_control": {"mode": "move", "seconds": 3600}})).json()["id"]
    # a card the engine says ada played in the finished game (public), and one it says only
    # to her seat (private: never counted)
    async with api.services.db.write() as s:
        s.add(ActionRecord(game_id=done, version=900, seat=0, action={}, kind="move", events=[
            {"kind": "animal", "data": {"seat": 0, "card": "A101"}},
            {"kind": "sponsor", "data": {"seat": 1, "card": "S201"}},
            {"kind": "animal", "data": {"seat": 0, "card": "A999"}, "only": [0]}]))
        await s.commit()
    r = await api.client.get("/api/players/ADA")
    assert r.status_code == 200, r.text
    p = r.json()
    assert p["user"]["username"] == "ada" and p["user"]["id"] == ada.id
    assert p["me"] is False and p["following"] is False
    assert [g["id"] for g in p["current"]] == [timed, running]
    assert [g["id"] for g in p["finished"]] == [done]
    assert p["finished"][0]["result"] == {**end["result"], "bot_played": []}
    assert p["played"] == [{"game": "toy", "time_control": "untimed", "count": 1}]
    assert p["cards"] == [{"game": "toy", "card": "A101", "count": 1}]
    assert p["maps"] == []
    [rating] = p["ratings"]
    assert rating["game"] == "toy" and rating["games"] == 1
    assert [(h["game_id"], h["rating"]) for h in rating["history"]] == [(done,
                                                                         rating["rating"])]
    assert p["streak"] == {"current": 0, "best": 0, "today": False}
    # nothing hidden: no view, no seed, no state in any game listed
    text = r.text
    async with api.services.db.read() as s:
        seeds = [g.seed for g in (await s.execute(
            Game.__table__.select())).all()]
    assert not any(seed in text for seed in seeds)
    assert all("view" not in g and "state" not in g for g in p["current"] + p["finished"])
    # who looks: ada herself; eve following her
    assert (await ada.get("/api/players/ada")).json()["me"] is True
    await api.client.put("/api/me/following/ada", headers=eve.headers)
    assert (await eve.get("/api/players/ada")).json()["following"] is True
    r = await api.client.get("/api/players/nobody")
    assert r.status_code == 404 and r.json()["error"]["code"] == "unknown_player"


async def test_profile_never_lists_an_unlisted_or_sealed_game_to_an_outsider(api):
    ada, bob, eve = await api.user("ada"), await api.user("bob"), await api.user("eve")
    listed = await api.toy_game(ada, others=[bob])
    hidden = (await ada.post("/api/invitations", json={
        "game": "toy", "seats": 2, "invite": ["bob"]})).json()["id"]
    sealed = await api.toy_game(ada, others=[bob])
    async with api.services.db.write() as s:
        await s.execute(update(Game).where(Game.id == sealed)
                        .values(sealed_until=utcnow() + timedelta(hours=3)))
        await s.commit()
    ids = [(None, {listed}), (eve, {listed}), (bob, {listed, hidden, sealed}),
           (ada, {listed, hidden, sealed})]
    for viewer, want in ids:
        get = api.client.get if viewer is None else viewer.get
        got = (await get("/api/players/ada")).json()
        assert {g["id"] for g in got["current"]} == want, viewer
    # bob has only an invitation to the unlisted game: it is not on *his* profile's list of
    # games he plays, to anyone
    assert hidden not in {g["id"] for g in (await ada.get("/api/players/bob")).json()["current"]}
    # once the sealed game ends it is still sealed: its result stays off the lists
    await ada.post(f"/api/games/{sealed}/resign")
    got = (await eve.get("/api/players/ada")).json()
    assert sealed not in {g["id"] for g in got["finished"]}
    assert got["played"] == []  # counts only what the viewer may see


async def test_profile_daily_streak(api):
    ada = await api.user("ada")
    games = [await api.toy_game(ada, bots=[1]) for _ in range(2)]
    today = utcnow().date()
    async with api.services.db.write() as s:
        for back, gid in enumerate(games):
            s.add(DailyAttempt(user_id=ada.id, kind=f"k{back}", day=today - timedelta(days=back),
                               game_id=gid, in_time=True, finished_at=utcnow(), score=1.0))
        await s.commit()
    streak = (await api.client.get("/api/players/ada")).json()["streak"]
    assert streak == {"current": 2, "best": 2, "today": True}
