"""Vacations (issue #33, app/vacations.py, app/clock.py ``off``): whole days in the player's
time zone, at most 30 a year; every clock of theirs stops meanwhile (a deadline that falls
inside a vacation moves by it, a bank does not run down); opponents see it in the public clock;
SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

from app import clock as clock_mod
from app.times import iso

T0 = datetime(2027, 3, 1, 12, 0, tzinfo=UTC)


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def parse(text: str) -> datetime:
    return clock_mod.parse(text)


# ----------------------------------------------------------------------------- the clock

def test_deadlines_and_banks_skip_the_vacations():
    off = [[iso(at(100)), iso(at(200))], [iso(at(1000)), iso(at(5000))]]
    assert clock_mod.deadline_after(T0, 50, off) == at(50)          # before the first
    assert clock_mod.deadline_after(T0, 150, off) == at(250)        # moved by the first
    assert clock_mod.deadline_after(T0, 950, off) == at(5050)       # by both
    assert clock_mod.deadline_after(at(150), 10, off) == at(210)    # from inside one
    assert clock_mod.spent(T0, at(300), off) == 200
    assert clock_mod.spent(at(150), at(6000), off) == 6000 - 150 - 50 - 4000
    # a bank runs down only outside the vacation
    tc = {"mode": "bank", "seconds": 600, "increment": 0}
    clock, _ = clock_mod.start(tc, 2, [0], {0, 1}, T0)
    clock, deadline = clock_mod.with_vacations(tc, clock, [0], off[:1], [0], {0, 1}, at(10))
    assert deadline == at(700)  # 600 s of bank, 100 s of them on vacation
    clock, _ = clock_mod.advance(tc, clock, 0, "move", [0], [1], {0, 1}, at(300))
    assert clock["seats"]["0"]["bank"] == 400
    assert clock_mod.on_vacation(clock["seats"]["0"], at(150)) is None  # (over: pruned)


# ----------------------------------------------------------------------------- the API

async def timed_game(api, a, b, seconds: int) -> int:
    gid = (await a.post("/api/games", json={
        "game": "toy", "seats": 2,
        "time_control": {"mode": "move", "seconds": seconds}})).json()["id"]
    assert (await b.post(f"/api/games/{gid}/join")).status_code == 200
    assert (await a.post(f"/api/games/{gid}/start")).status_code == 200
    return gid


async def seat_clock(player, gid: int, seat: int) -> dict:
    return (await player.game(gid))["clock"]["seats"][str(seat)]


async def test_a_deadline_inside_a_vacation_moves_by_it(api):
    ada, bob = await api.user("ada"), await api.user("bob")
    gid = await timed_game(api, ada, bob, 2 * 86400)
    before = await seat_clock(ada, gid, 0)
    since, old = parse(before["since"]), parse(before["deadline"])
    # from tomorrow, three days: the old deadline (in two days) falls inside
    r = await ada.get("/api/me/vacations")
    tz = ZoneInfo(r.json()["tz"])
    tomorrow = datetime.now(tz).date() + timedelta(days=1)
    r = await ada.post("/api/me/vacations", json={"start": tomorrow.isoformat(), "days": 3})
    assert r.status_code == 201, r.text
    v = r.json()
    start, end = parse(v["starts_at"]), parse(v["ends_at"])
    assert start < old < end and v["days"] == 3
    assert end - start == timedelta(days=3)
    after = await seat_clock(ada, gid, 0)
    assert parse(after["since"]) == since
    assert parse(after["deadline"]) == end + (old - start)
    assert after["off"] == [[v["starts_at"], v["ends_at"]]]
    # the opponent's clock is untouched, and sees the vacation (the public clock)
    assert (await seat_clock(bob, gid, 1))["deadline"] == (await seat_clock(ada, gid, 1))[
        "deadline"]
    assert (await seat_clock(bob, gid, 0))["off"] == after["off"]
    # past the old deadline ada's seat is not expired (bob's is); the game's earliest
    # deadline is bob's
    c = await api.services.games.current(gid)
    assert clock_mod.expired(c.clock, c.waiting, c.timed(), old + timedelta(seconds=1)) == [1]
    assert clock_mod.expired(c.clock, c.waiting, c.timed(),
                             end + (old - start) + timedelta(seconds=1)) == [0, 1]
    # a game started now copies the vacation in
    other = await timed_game(api, ada, bob, 2 * 86400)
    got = await seat_clock(ada, other, 0)
    assert got["off"] == after["off"]
    assert parse(got["deadline"]) == end + (parse(got["since"]) + timedelta(days=2) - start)
    # taking the vacation back (not begun yet) gives the old deadline back
    assert (await ada.delete(f"/api/me/vacations/{v['id']}")).status_code == 204
    back = await seat_clock(ada, gid, 0)
    assert parse(back["deadline"]) == old and "off" not in back
    assert (await ada.get("/api/me/vacations")).json()["vacations"] == []


async def test_a_vacation_from_now_stops_the_clock_until_it_ends(api):
    ada, bob = await api.user("ada"), await api.user("bob")
    gid = await timed_game(api, ada, bob, 3600)
    before = await seat_clock(ada, gid, 0)
    old = parse(before["deadline"])
    r = await ada.post("/api/me/vacations", json={"days": 1})
    assert r.status_code == 201, r.text
    v = r.json()
    start, end = parse(v["starts_at"]), parse(v["ends_at"])
    assert start <= datetime.now(UTC) < end  # from now to the end of today
    after = await seat_clock(ada, gid, 0)
    assert parse(after["deadline"]) == end + (old - start)
    # bob's move is stored with ada's new clock (every process read the game again)
    card = (await bob.legal(gid))["actions"][0]
    assert (await bob.act(gid, card, version=0)).status_code == 200
    assert (await seat_clock(ada, gid, 0))["deadline"] == after["deadline"]
    # ended early: the rest of the wait counts from now
    assert (await ada.delete(f"/api/me/vacations/{v['id']}")).status_code == 204
    ended = await seat_clock(ada, gid, 0)
    stop = parse(ended["off"][0][1]) if ended.get("off") else None
    assert stop is not None and start <= stop <= datetime.now(UTC)
    assert parse(ended["deadline"]) == stop + (old - start)
    r = await ada.delete(f"/api/me/vacations/{v['id']}")
    assert r.status_code == 409 and r.json()["error"]["code"] == "vacation_over"


async def test_whole_days_in_the_time_zone_and_thirty_a_year(api):
    ada, eve = await api.user("ada"), await api.user("eve")
    r = await api.client.put("/api/me/notifications", json={"time_zone": "Europe/Kyiv"},
                             headers=ada.headers)
    assert r.status_code == 200, r.text
    year = datetime.now(UTC).year + 1
    first = date(year, 3, 2)
    r = await ada.post("/api/me/vacations", json={"start": first.isoformat(), "days": 20})
    assert r.status_code == 201, r.text
    v = r.json()
    kyiv = ZoneInfo("Europe/Kyiv")
    assert parse(v["starts_at"]) == datetime(year, 3, 2, tzinfo=kyiv)
    assert parse(v["ends_at"]) == datetime(year, 3, 22, tzinfo=kyiv)
    assert (v["first_day"], v["last_day"]) == (first.isoformat(), date(year, 3, 21).isoformat())
    listed = (await ada.get("/api/me/vacations")).json()
    assert listed["tz"] == "Europe/Kyiv" and listed["days_left"][str(year)] == 10
    r = await ada.post("/api/me/vacations", json={"start": f"{year}-06-01", "days": 11})
    assert r.status_code == 409 and r.json()["error"]["code"] == "vacation_limit"
    assert r.json()["error"]["message"] == f"At most 30 days of vacation a year: 10 left in {year}."
    r = await ada.post("/api/me/vacations", json={"start": f"{year}-03-21", "days": 2})
    assert r.status_code == 409 and r.json()["error"]["code"] == "vacation_overlap"
    assert (await ada.post("/api/me/vacations", json={"start": f"{year}-06-01",
                                                      "days": 10})).status_code == 201
    # the other user's vacations are theirs
    assert (await eve.delete(f"/api/me/vacations/{v['id']}")).status_code == 404
    r = await eve.post("/api/me/vacations", json={"start": "2020-01-01", "days": 2})
    assert r.status_code == 422 and r.json()["error"]["code"] == "vacation_past"
    r = await eve.post("/api/me/vacations", json={"days": 31})
    assert r.status_code == 422 and r.json()["error"]["code"] == "bad_vacation"
    r = await eve.post("/api/me/vacations", json={"days": 0})
    assert r.status_code == 422
    assert (await api.client.get("/api/me/vacations")).status_code == 401


async def test_no_reminder_on_vacation(api):
    ada, bob = await api.user("ada"), await api.user("bob")
    gid = await timed_game(api, ada, bob, 3600)
    c = await api.services.games.current(gid)
    soon = parse(c.clock["seats"]["1"]["deadline"]) - timedelta(minutes=30)
    notify = api.services.notify
    seen: list[list[int]] = []

    async def record(notice, users):
        seen.append(list(users))

    notify.dispatch = record  # the players the reminders go to
    await notify.run_reminders(soon)
    assert sorted(u for us in seen for u in us) == [ada.id, bob.id]
    seen.clear()
    # today and tomorrow (the vacation's days are the user's calendar days): ``soon`` is half an
    # hour ahead, so after 23:30 it falls on tomorrow and a one-day vacation would not cover it
    assert (await ada.post("/api/me/vacations", json={"days": 2})).status_code == 201
    await notify.run_reminders(soon)
    assert [u for us in seen for u in us] == [bob.id]
