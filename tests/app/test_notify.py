"""Email notices (issue #21) against a real SMTP server on 127.0.0.1 (aiosmtpd): the address
and its verification link, "your turn" mails in the user's language with a link to the game,
quiet hours, kinds switched off, one-click unsubscribe, the per-game throttle, "only when away",
a crash between queueing and sending, retries and dead letters, the daily digest, and a server
without SMTP. Every test runs on SQLite and PostgreSQL (``db_url``)."""

from __future__ import annotations

import asyncio
import contextlib
import email
import email.policy
import time
from datetime import UTC, datetime, timedelta
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo

import pytest
from aiosmtpd.controller import Controller
from sqlalchemy import select

from app.models_delivery import EmailJob
from app.signals import YourTurn

from .conftest import free_port, make_settings, running_app

FAST = dict(email_backoff_base=0.02, email_poll_seconds=0.05, smtp_timeout=5.0,
            smtp_security="none", secret_key="test-secret", public_url="https://menagerie.test")


class Inbox:
    """An SMTP server on 127.0.0.1 that keeps every mail; ``replies`` are the answers to the
    DATA of each mail in turn (the last one repeats)."""

    def __init__(self, replies=("250 OK",)) -> None:
        self.replies = list(replies)
        self.mails: list[email.message.EmailMessage] = []
        self.raw: list[bytes] = []  #: each accepted mail as it came over SMTP
        self.tries = 0
        self.port = free_port()
        self.controller = Controller(self, hostname="127.0.0.1", port=self.port)

    async def handle_DATA(self, server, session, envelope):
        reply = self.replies[min(self.tries, len(self.replies) - 1)]
        self.tries += 1
        if reply.startswith("250"):
            self.raw.append(envelope.original_content or envelope.content)
            self.mails.append(email.message_from_bytes(envelope.content,
                                                       policy=email.policy.default))
        return reply

    def to(self, address: str, kind: str | None = None) -> list:
        """The mails to ``address`` (of one kind: ``X-Menagerie-Kind``; "notice": your_turn)."""
        kind = "your_turn" if kind == "notice" else kind
        return [m for m in self.mails if m["To"] == address
                and (kind is None or m["X-Menagerie-Kind"] == kind)]


def body(mail) -> str:
    return mail.get_body(("plain",)).get_content()


@pytest.fixture
def inbox():
    box = Inbox()
    box.controller.start()
    yield box
    box.controller.stop()


@pytest.fixture
def settings(db_url, inbox):
    return make_settings(db_url, smtp_host="127.0.0.1", smtp_port=inbox.port, **FAST)


async def _jobs(api) -> list[EmailJob]:
    async with api.services.db.read() as s:
        return list((await s.execute(select(EmailJob).order_by(EmailJob.id))).scalars().all())


async def settle(api, timeout: float = 60.0) -> list[EmailJob]:
    """Wait for the signal listeners, then until no mail is pending."""
    await api.services.signals.drain()
    deadline = time.monotonic() + timeout
    while True:
        rows = await _jobs(api)
        if not any(r.status == "pending" for r in rows):
            return rows
        if time.monotonic() > deadline:
            raise AssertionError([(r.id, r.kind, r.status, r.attempts, r.last_error)
                                  for r in rows])
        await asyncio.sleep(0.05)


async def with_email(api, inbox, player, address: str, **prefs) -> None:
    """Set and verify ``player``'s address (through the mailed link), then ``prefs``."""
    r = await player.post("/api/me/email", json={"address": address})
    assert r.status_code == 200, r.text
    assert r.json()["email"] == {"available": True, "address": address, "verified": False}
    await settle(api)
    [mail] = inbox.to(address, "verify")
    link = next(w for w in body(mail).split() if "/api/email/verify?token=" in w)
    assert link.startswith("https://menagerie.test/api/email/verify?token=")
    token = link.split("token=", 1)[1]
    r = await api.client.post("/api/email/verify", json={"token": token})
    assert r.status_code == 200 and r.json() == {"verified": True, "address": address}
    if prefs:
        r = await api.client.put("/api/me/notifications", json=prefs, headers=player.headers)
        assert r.status_code == 200, r.text


async def b_turn_by_a(api, a, b, gid: int) -> None:
    """B answers first (no notice to anyone), then A's moves until B owes a decision: that
    move of A's makes it B's turn."""
    for _ in range(3):
        g = await b.game(gid)
        if g["your_seat"] not in g["waiting_for"]:
            break
        legal = await b.legal(gid)
        best = max(legal["actions"], key=lambda x: x.get("card", 0))
        assert (await b.act(gid, best, version=legal["version"])).status_code == 200
    for _ in range(4):
        legal = await a.legal(gid)
        low = min(legal["actions"], key=lambda x: x.get("card", 99))
        if low.get("type") != "play":
            low = next(x for x in legal["actions"] if x["type"] == "score")
        assert (await a.act(gid, low, version=legal["version"])).status_code == 200
        g = await b.game(gid)
        if g["your_seat"] in g["waiting_for"]:
            return
    raise AssertionError("it never became B's turn")


async def _game(api):
    a, b = await api.user(), await api.user()
    gid = await api.toy_game(a, others=[b])
    await settle(api)  # the start's notices (nobody has an address yet)
    return a, b, gid


# --------------------------------------------------------------------------- the turn mail
async def test_turn_mail_once_in_the_users_language_with_a_link(api, inbox):
    a, b, gid = await _game(api)
    await with_email(api, inbox, b, "bea@example.org", lang="de")
    await b_turn_by_a(api, a, b, gid)
    await settle(api)
    [mail] = inbox.to("bea@example.org", "notice")
    assert mail["Subject"] == "Du bist am Zug: Hidden high card (test game)"
    text = body(mail)
    assert f"https://menagerie.test/game.html?id={gid}" in text
    html = mail.get_body(("html",)).get_content()
    assert f'href="https://menagerie.test/game.html?id={gid}"' in html
    assert mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert mail["List-Unsubscribe"].startswith("<https://menagerie.test/api/email/unsubscribe?")
    assert inbox.to("bea@example.org", "notice") == [mail]  # exactly one
    # A has no address: nothing went to anybody else
    assert {m["To"] for m in inbox.mails} == {"bea@example.org"}


async def test_throttle_one_mail_per_waiting_period(api, inbox):
    a, b, gid = await _game(api)
    await with_email(api, inbox, b, "bo@example.org", lang="uk")
    await b_turn_by_a(api, a, b, gid)
    await settle(api)
    assert len(inbox.to("bo@example.org", "notice")) == 1
    assert inbox.to("bo@example.org", "notice")[0]["Subject"].startswith("Ваш хід")
    # another "your turn" while B has not moved yet (the same waiting period): no mail
    version = (await b.game(gid))["version"]
    api.services.signals.emit_your_turn(YourTurn(gid, version, "toy", "Hidden high card (test "
                                                 "game)", (b.id,)))
    await settle(api)
    assert len(inbox.to("bo@example.org", "notice")) == 1
    # B moves: the next turn is a new waiting period, so one more mail
    await b_turn_by_a(api, a, b, gid)
    await settle(api)
    assert len(inbox.to("bo@example.org", "notice")) == 2


async def test_no_mail_in_quiet_hours_in_the_users_time_zone(api, inbox):
    a, b, gid = await _game(api)
    local = datetime.now(UTC).astimezone(ZoneInfo("Asia/Tokyo"))
    start, end = local - timedelta(hours=1), local + timedelta(hours=1)
    await with_email(api, inbox, b, "q@example.org", time_zone="Asia/Tokyo",
                     quiet_hours={"start": start.strftime("%H:%M"),
                                  "end": end.strftime("%H:%M")})
    await b_turn_by_a(api, a, b, gid)
    await settle(api)
    assert inbox.to("q@example.org", "notice") == []
    # the same window read in UTC would not cover now (Tokyo is UTC+9): the zone is used
    r = await b.get("/api/me/notifications")
    assert r.json()["time_zone"] == "Asia/Tokyo"


async def test_no_mail_when_the_kind_is_off_or_a_page_is_open(api, inbox):
    a, b, gid = await _game(api)
    await with_email(api, inbox, b, "off@example.org", kinds={"your_turn": False})
    await b_turn_by_a(api, a, b, gid)
    await settle(api)
    assert inbox.to("off@example.org", "notice") == []

    a2, c, gid2 = await _game(api)
    await with_email(api, inbox, c, "here@example.org")  # only_when_away is the default
    page = object()
    api.services.userfeed.add(c.id, page)  # an open page of C on this process
    await b_turn_by_a(api, a2, c, gid2)
    await settle(api)
    assert inbox.to("here@example.org", "notice") == []


async def test_one_click_unsubscribe_stops_that_kind(api, inbox):
    a, b, gid = await _game(api)
    await with_email(api, inbox, b, "u@example.org")
    await b_turn_by_a(api, a, b, gid)
    await settle(api)
    [mail] = inbox.to("u@example.org", "notice")
    url = urlsplit(mail["List-Unsubscribe"].strip("<>"))
    r = await api.client.post(f"{url.path}?{url.query}", content=b"List-Unsubscribe=One-Click",
                              headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert r.status_code == 200 and r.json() == {"unsubscribed": "your_turn"}
    prefs = (await b.get("/api/me/notifications")).json()["preferences"]
    assert prefs["kinds"]["your_turn"] is False
    await b_turn_by_a(api, a, b, gid)
    await settle(api)
    assert len(inbox.to("u@example.org", "notice")) == 1
    # a forged or altered token changes nothing
    r = await api.client.post(f"{url.path}?{url.query[:-2]}xx")
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_token"


async def test_a_crash_between_queueing_and_sending_sends_exactly_once(db_url, inbox):
    settings = make_settings(db_url, smtp_host="127.0.0.1", smtp_port=inbox.port, **FAST)
    async with running_app(settings) as api:
        a, b, gid = await _game(api)
        await with_email(api, inbox, b, "crash@example.org")
        worker = api.services.notify.email.worker
        worker.abandon()  # the mail worker is gone: the notice stays queued
        await b_turn_by_a(api, a, b, gid)
        await api.services.signals.drain()
        [job] = [j for j in await _jobs(api) if j.kind == "your_turn"]
        assert job.status == "pending" and job.attempts == 0
        # a worker claims it and dies before sending (the lease is what protects it)
        worker.lease = timedelta(seconds=0.5)
        claimed = await worker.claim(datetime.now(UTC))
        assert [j.id for j in claimed] == [job.id]
        worker.abandon()
    assert inbox.to("crash@example.org", "notice") == []
    async with running_app(settings) as api:  # a new process: sends it once the lease ends
        rows = await settle(api)
        [job] = [j for j in rows if j.kind == "your_turn"]
        assert job.status == "delivered" and job.attempts == 1
        await asyncio.sleep(0.3)
    assert len(inbox.to("crash@example.org", "notice")) == 1


async def test_smtp_failures_are_retried_then_dead_lettered(db_url, inbox):
    inbox.replies = ["250 OK", "451 4.3.0 try again later", "451 4.3.0 try again later",
                     "250 OK"]
    settings = make_settings(db_url, smtp_host="127.0.0.1", smtp_port=inbox.port,
                             email_max_attempts=3, **FAST)
    async with running_app(settings) as api:
        a, b, gid = await _game(api)
        await with_email(api, inbox, b, "r@example.org")  # the first reply: 250
        await b_turn_by_a(api, a, b, gid)
        rows = await settle(api)
        [job] = [j for j in rows if j.kind == "your_turn"]
        assert job.status == "delivered" and job.attempts == 3  # 451, 451, then 250
        assert len(inbox.to("r@example.org", "notice")) == 1

        inbox.replies, inbox.tries = ["550 5.1.1 no such user"], 0
        await b_turn_by_a(api, a, b, gid)
        rows = await settle(api)
        last = [j for j in rows if j.kind == "your_turn"][-1]
        assert last.status == "failed" and last.attempts == 3
        assert last.last_error == "SMTP 550" and inbox.tries == 3
        assert len(inbox.to("r@example.org", "notice")) == 1


async def test_daily_digest_lists_the_waiting_games_once_a_day(api, inbox):
    a, b, gid = await _game(api)
    gid2 = await api.toy_game(a, others=[b])
    await with_email(api, inbox, b, "d@example.org", digest=True, time_zone="Europe/Berlin",
                     kinds={"your_turn": False})
    notify = api.services.notify
    evening = datetime(2030, 5, 1, 20, 0, tzinfo=UTC)  # 22:00 in Berlin
    assert await notify.run_digests(evening) == 1
    assert await notify.run_digests(evening + timedelta(hours=1)) == 0  # the same local day
    await settle(api)
    [mail] = inbox.to("d@example.org", "digest")
    assert mail["Subject"] == "2 games are waiting for you"
    assert f"/game.html?id={gid}" in body(mail) and f"/game.html?id={gid2}" in body(mail)
    # early next morning (before digest_hour) nothing; later that day one more
    assert await notify.run_digests(datetime(2030, 5, 2, 4, 0, tzinfo=UTC)) == 0
    assert await notify.run_digests(datetime(2030, 5, 2, 9, 0, tzinfo=UTC)) == 1


async def test_preferences_and_bad_input(api, inbox):
    p = await api.user()
    r = await p.get("/api/me/notifications", headers={"Accept-Language": "uk"})
    assert r.status_code == 200
    got = r.json()
    assert got["lang"] == "uk" and got["email"] == {"available": True, "address": None,
                                                   "verified": False}
    assert got["preferences"]["kinds"]["your_turn"] is True
    assert got["preferences"]["only_when_away"] is True and got["preferences"]["digest"] is False
    r = await api.client.put("/api/me/notifications", headers=p.headers,
                             json={"throttle_minutes": 30, "channels": {"push": False}})
    assert r.status_code == 200
    assert r.json()["preferences"]["throttle_minutes"] == 30
    assert r.json()["preferences"]["channels"] == {"email": True, "push": False, "webhook": True}
    for bad, code in (({"time_zone": "Mars/Olympus"}, "bad_time_zone"),
                      ({"kinds": {"spam": True}}, "invalid_input"),
                      ({"quiet_hours": {"start": "25:00", "end": "07:00"}}, "invalid_input")):
        r = await api.client.put("/api/me/notifications", headers=p.headers, json=bad)
        assert r.status_code == 422, r.text
        if code != "invalid_input":
            assert r.json()["error"]["code"] == code
    r = await p.post("/api/me/email", json={"address": "not an address"})
    assert r.status_code == 422 and r.json()["error"]["code"] == "bad_email"
    r = await api.client.post("/api/email/verify", json={"token": "forged"})
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_token"
    assert (await api.client.get("/api/me/notifications")).status_code == 401


async def test_verification_link_opened_in_a_browser(api, inbox):
    p = await api.user()
    await p.post("/api/me/email", json={"address": "link@example.org"})
    await settle(api)
    [mail] = inbox.to("link@example.org", "verify")
    link = next(w for w in body(mail).split() if "token=" in w)
    url = urlsplit(link)
    r = await api.client.get(f"{url.path}?{url.query}")
    assert r.status_code == 303 and r.headers["location"].startswith("/?email=verified")
    assert (await p.get("/api/me/notifications")).json()["email"]["verified"] is True
    # a new address needs its own verification; the old link no longer verifies it
    await p.post("/api/me/email", json={"address": "other@example.org"})
    r = await api.client.get(f"{url.path}?{url.query}")
    assert r.status_code == 400
    assert (await p.get("/api/me/notifications")).json()["email"]["verified"] is False


async def test_a_server_without_smtp_offers_no_email(db_url):
    async with running_app(make_settings(db_url)) as api:
        p = await api.user()
        r = await p.get("/api/me/notifications")
        assert r.json()["email"]["available"] is False
        r = await p.post("/api/me/email", json={"address": "x@example.org"})
        assert r.status_code == 409 and r.json()["error"]["code"] == "email_unavailable"
        with contextlib.suppress(Exception):
            await api.services.signals.drain()
        assert await _jobs(api) == []


async def test_the_webhook_switch_stops_the_users_webhooks(api, inbox):
    a, b, gid = await _game(api)
    r = await b.post("/api/me/webhooks", json={"url": "https://example.org/b-hook"})
    assert r.status_code == 201
    r = await api.client.put("/api/me/notifications", headers=b.headers,
                             json={"channels": {"webhook": False}})
    assert r.status_code == 200
    api.services.signals.emit_your_turn(YourTurn(gid, 5, "toy", "T", (b.id,)))
    await api.services.signals.drain()
    listed = (await b.get("/api/me/webhooks")).json()["webhooks"]
    assert listed[0]["last_delivery"] is None  # nothing queued
    await api.client.put("/api/me/notifications", headers=b.headers,
                         json={"channels": {"webhook": True}})
    api.services.signals.emit_your_turn(YourTurn(gid, 6, "toy", "T", (b.id,)))
    await api.services.signals.drain()
    listed = (await b.get("/api/me/webhooks")).json()["webhooks"]
    assert listed[0]["last_delivery"] is not None


async def test_a_reminder_before_the_deadline_once_per_waiting_period(api, inbox):
    from sqlalchemy import update

    from app.models import Game

    a, b, gid = await _game(api)
    await with_email(api, inbox, b, "rem@example.org", lang="uk", time_zone="Europe/Kyiv")
    now = datetime.now(UTC)
    deadline = (now + timedelta(minutes=30)).replace(microsecond=0)
    async with api.services.db.write() as s:  # both seats owe their first card
        await s.execute(update(Game).where(Game.id == gid).values(turn_deadline=deadline))
        await s.commit()
    notify = api.services.notify
    assert await notify.run_reminders(now) == 2  # A and B owe it; A has no address
    assert await notify.run_reminders(now + timedelta(minutes=1)) == 2
    await settle(api)
    [mail] = inbox.to("rem@example.org", "reminder")
    assert mail["Subject"].startswith("Нагадування")
    local = deadline.astimezone(ZoneInfo("Europe/Kyiv"))
    assert f"{local:%Y-%m-%d %H:%M} (Europe/Kyiv)" in body(mail)
    assert f"https://menagerie.test/game.html?id={gid}" in body(mail)
    assert {m["To"] for m in inbox.mails} == {"rem@example.org"}
    # far from the deadline: nothing to remind of
    assert await notify.run_reminders(now - timedelta(hours=5)) == 0


async def test_game_over_mail_once(api, inbox):
    from .conftest import play_to_end

    a, b, gid = await _game(api)
    await with_email(api, inbox, b, "end@example.org", lang="en")
    await play_to_end(api, gid, [a, b])
    await settle(api)
    [mail] = inbox.to("end@example.org", "game_over")
    assert mail["Subject"] == "Hidden high card (test game) is over"
    assert f"/game.html?id={gid}" in body(mail)


async def test_two_processes_send_each_mail_once(db_url, inbox):
    if not db_url.startswith("postgresql"):
        pytest.skip("SQLite serves one process")
    settings = make_settings(db_url, smtp_host="127.0.0.1", smtp_port=inbox.port, **FAST)
    async with running_app(settings) as one, running_app(settings) as two:
        users = [await one.user() for _ in range(6)]
        for u in users:
            r = await u.post("/api/me/email", json={"address": f"{u.name}@example.org"})
            assert r.status_code == 200
        # 60 more mails queued at once, claimed by both workers
        async with one.services.db.write() as s:
            for u in users:
                for i in range(10):
                    one.services.notify.email.add_job(s, u.id, f"{u.name}@example.org", {
                        "kind": "digest", "lang": "en",
                        "games": [{"id": i + 1, "title": f"g{i}", "since": None}]})
            await s.commit()
        one.services.notify.email.wake()
        two.services.notify.email.wake()
        rows = await settle(one, timeout=30)
        await settle(two, timeout=30)
        assert len(rows) == 66 and all(r.status == "delivered" and r.attempts == 1
                                       for r in rows)
    assert len(inbox.mails) == 66
    assert len({m["Message-ID"] for m in inbox.mails}) == 66


async def test_verification_mails_are_rate_limited(db_url, inbox):
    settings = make_settings(db_url, smtp_host="127.0.0.1", smtp_port=inbox.port,
                             rate_verify_mails_burst=2, **FAST)
    async with running_app(settings) as api:
        p = await api.user()
        for i in range(2):
            r = await p.post("/api/me/email", json={"address": f"v{i}@example.org"})
            assert r.status_code == 200
        r = await p.post("/api/me/email", json={"address": "v3@example.org"})
        assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited"
        await settle(api)
    assert len(inbox.mails) == 2


async def test_the_unsubscribe_link_in_a_browser_asks_first(api, inbox):
    a, b, gid = await _game(api)
    await with_email(api, inbox, b, "web@example.org", lang="de")
    await b_turn_by_a(api, a, b, gid)
    await settle(api)
    [mail] = inbox.to("web@example.org", "notice")
    link = next(w for w in body(mail).split() if "/api/email/unsubscribe?token=" in w)
    url = urlsplit(link)
    page = await api.client.get(f"{url.path}?{url.query}", headers={"Accept": "text/html",
                                                                     "Accept-Language": "de"})
    assert page.status_code == 200 and '<form method="post">' in page.text
    assert "abbestellen" in page.text
    prefs = (await b.get("/api/me/notifications")).json()["preferences"]
    assert prefs["kinds"]["your_turn"] is True  # opening the link changed nothing
    done = await api.client.post(f"{url.path}?{url.query}", headers={"Accept": "text/html"})
    assert done.status_code == 200 and done.headers["content-type"].startswith("text/html")
    prefs = (await b.get("/api/me/notifications")).json()["preferences"]
    assert prefs["kinds"]["your_turn"] is False


# --------------------------------------------------------------------------- mentions, rematches
async def test_a_chat_mention_mails_the_player_named_once_per_ten_minutes(api, inbox):
    a, b, gid = await _game(api)
    c = await api.user()  # a spectator
    await with_email(api, inbox, b, "mia@example.org", lang="uk")
    await with_email(api, inbox, c, "cy@example.org")
    say = f"/api/games/{gid}/chat"
    r = await a.post(say, json={"text": f"well played, @{b.name}! and @nobody-here, @{a.name}"})
    assert r.status_code == 201, r.text
    await settle(api)
    [mail] = inbox.to("mia@example.org", "chat_mention")
    assert mail["Subject"] == f"{a.name} згадує вас у грі Hidden high card (test game)"
    text = body(mail)
    assert f"“well played, @{b.name}! and @nobody-here, @{a.name}”" in text
    assert f"https://menagerie.test/game.html?id={gid}" in text
    assert inbox.to("cy@example.org", "chat_mention") == []  # not named
    # a second mention soon after: no second mail (at most one per game per 10 minutes)
    assert (await a.post(say, json={"text": f"@{b.name} your move"})).status_code == 201
    # a spectator names a player in the spectators' channel: the player may not read it now
    r = await c.post(say, json={"text": f"@{b.name} should play the 9", "channel": "spectators"})
    assert r.status_code == 201, r.text
    # a player names the spectator in the players' channel (public): the spectator is told
    assert (await b.post(say, json={"text": f"hello @{c.name}."})).status_code == 201
    await settle(api)
    assert len(inbox.to("mia@example.org", "chat_mention")) == 1
    [seen] = inbox.to("cy@example.org", "chat_mention")
    assert f"{b.name} mentioned you in the chat of" in body(seen)


async def test_chat_mentions_follow_the_kind_switch(api, inbox):
    a, b, gid = await _game(api)
    await with_email(api, inbox, b, "off@example.org", kinds={"chat_mention": False})
    r = await a.post(f"/api/games/{gid}/chat", json={"text": f"@{b.name} hi"})
    assert r.status_code == 201
    await settle(api)
    assert inbox.to("off@example.org", "chat_mention") == []


async def test_a_rematch_offer_mails_the_invited_players(api, inbox):
    from .test_rematch import finished_game

    gid, players = await finished_game(api, seats=2)
    a, b = players
    await with_email(api, inbox, b, "again@example.org", lang="de")
    r = await a.post(f"/api/games/{gid}/rematch")
    assert r.status_code == 201, r.text
    new = r.json()["id"]
    assert (await b.post(f"/api/games/{gid}/rematch")).status_code == 200  # the same game
    await settle(api)
    [mail] = inbox.to("again@example.org", "invitation")
    assert mail["Subject"] == f"{a.name} bietet eine Revanche für Hidden high card (test game) an"
    assert f"https://menagerie.test/game.html?id={new}" in body(mail)


async def test_a_process_dying_after_the_move_loses_no_mail_and_sends_none_twice(db_url, inbox):
    """The move's outbox row outlives the process that stored the move: the next process
    queues the mail once (app/outbox.py; tests/app/test_outbox.py has the webhook side)."""
    settings = make_settings(db_url, smtp_host="127.0.0.1", smtp_port=inbox.port, **FAST)
    async with running_app(settings) as one:
        a, b, gid = await _game(one)
        await with_email(one, inbox, b, "later@example.org")
        one.services.outbox.abandon()  # dies right after each commit
        await b_turn_by_a(one, a, b, gid)
        assert [j for j in await _jobs(one) if j.kind == "your_turn"] == []
    async with running_app(settings) as two:
        await settle(two)
        assert len(inbox.to("later@example.org", "notice")) == 1
        assert await two.services.outbox.run_once() == 0
        await settle(two)
    assert len(inbox.to("later@example.org", "notice")) == 1


async def test_todays_challenge_is_open_once_a_day_for_recent_daily_players(api, inbox):
    """Players who took a daily challenge lately and have not started today's hear it is open
    (once a day, from their local ``daily_notice_hour``); nobody else is asked."""
    from datetime import date

    from app.models import DailyAttempt

    habit, newcomer, done = await api.user(), await api.user(), await api.user()
    for p, addr in ((habit, "habit@example.org"), (newcomer, "new@example.org"),
                    (done, "done@example.org")):
        await with_email(api, inbox, p, addr, lang="de" if p is habit else "en",
                         time_zone="Asia/Tokyo" if p is habit else "UTC")
    games = [await api.toy_game(habit, others=[done]) for _ in range(3)]  # one per attempt
    today = date(2031, 5, 20)
    async with api.services.db.write() as s:
        s.add(DailyAttempt(user_id=habit.id, kind="solo", day=today - timedelta(days=2),
                           game_id=games[0]))
        s.add(DailyAttempt(user_id=done.id, kind="solo", day=today - timedelta(days=1),
                           game_id=games[1]))
        s.add(DailyAttempt(user_id=done.id, kind="duel", day=today,  # started today's
                           game_id=games[2]))
        await s.commit()
    notify = api.services.notify
    early = datetime(2031, 5, 19, 23, 0, tzinfo=UTC)  # 08:00 in Tokyo, the 20th
    assert await notify.run_daily_open(early) == 0  # before 09:00 local
    morning = datetime(2031, 5, 20, 0, 30, tzinfo=UTC)  # 09:30 in Tokyo
    assert await notify.run_daily_open(morning) == 1
    assert await notify.run_daily_open(morning + timedelta(hours=3)) == 0  # once a day
    await settle(api)
    [mail] = inbox.to("habit@example.org", "daily_challenge")
    assert mail["Subject"] == "Die heutige Herausforderung ist da"
    assert "https://menagerie.test/" in body(mail)
    assert inbox.to("new@example.org", "daily_challenge") == []  # never played one
    assert inbox.to("done@example.org", "daily_challenge") == []  # already started today
    # the kind's switch (and its unsubscribe link) stops it
    r = await api.client.put("/api/me/notifications", headers=habit.headers,
                             json={"kinds": {"daily_challenge": False}})
    assert r.status_code == 200
    assert await notify.run_daily_open(morning + timedelta(days=1)) == 0
