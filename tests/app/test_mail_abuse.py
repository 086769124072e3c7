"""Issue #31, findings 7, 8, 11 and 12, each attack performed and refused: verification mails
to one stranger's address from several fresh accounts; the one-click unsubscribe header as
it goes over SMTP; mail links without ``MENAGERIE_SECRET_KEY`` across processes and restarts;
addresses that are not addresses. On SQLite and PostgreSQL (``db_url``); the cross-process
case with a real second server process on PostgreSQL."""

from __future__ import annotations

import asyncio
import re
from urllib.parse import urlsplit

import httpx
import pytest
from sqlalchemy import select

from app.models_delivery import ServerKey
from app.notify import mail

from .conftest import TABLES, _pg_admin, make_settings, running_app
from .test_notify import FAST, Inbox, b_turn_by_a, body, settle, with_email
from .test_processes import Remote, server_process

NO_KEY = {**FAST, "secret_key": None}


@pytest.fixture
def inbox():
    box = Inbox()
    box.controller.start()
    yield box
    box.controller.stop()


def _smtp(inbox, **extra):
    return dict(smtp_host="127.0.0.1", smtp_port=inbox.port, **{**FAST, **extra})


# ------------------------------------------------------------- 7: mails per recipient
async def test_fresh_accounts_cannot_flood_one_address(db_url, inbox):
    """Four new accounts each ask for three verification mails to one stranger's address:
    the recipient's bucket (burst 3) lets three through in all, whichever account asks."""
    settings = make_settings(db_url, **_smtp(inbox))
    async with running_app(settings) as api:
        codes = []
        for _ in range(4):
            p = await api.user()
            for _ in range(3):
                r = await p.post("/api/me/email", json={"address": "Victim@Example.org"})
                codes.append((r.status_code, r.json().get("error", {}).get("code")))
        assert codes[:3] == [(200, None)] * 3
        assert codes[3:] == [(429, "rate_limited")] * 9
        # the same address spelt with another case of its domain is the same recipient
        r = await (await api.user()).post("/api/me/email",
                                          json={"address": "Victim@EXAMPLE.ORG"})
        assert r.status_code == 429
        # another address is not affected
        r = await (await api.user()).post("/api/me/email", json={"address": "x@example.org"})
        assert r.status_code == 200
        await settle(api)
    assert len(inbox.to("Victim@example.org", "verify")) == 3
    assert len(inbox.mails) == 4


async def test_the_recipient_limit_holds_across_two_processes(pg_url, inbox):
    """Fresh accounts on two processes of one PostgreSQL database, alternating: still three
    mails to the address in all (the bucket is a row of ``rate_buckets``)."""
    settings = make_settings(pg_url, **_smtp(inbox))
    async with running_app(settings) as one, running_app(settings) as two:
        codes = []
        for i in range(6):
            api = (one, two)[i % 2]
            p = await api.user()
            r = await p.post("/api/me/email", json={"address": "shared@example.org"})
            codes.append(r.status_code)
        assert codes == [200, 200, 200, 429, 429, 429]
        await settle(one)
        await settle(two)
    assert len(inbox.to("shared@example.org", "verify")) == 3


# ------------------------------------------------------------- 8: List-Unsubscribe
async def test_list_unsubscribe_goes_out_as_one_uri_not_encoded_words(db_url, inbox):
    settings = make_settings(db_url, **_smtp(inbox))
    async with running_app(settings) as api:
        a, b = await api.user(), await api.user()
        gid = await api.toy_game(a, others=[b])
        await settle(api)
        await with_email(api, inbox, b, "bea@example.org")
        await b_turn_by_a(api, a, b, gid)
        await settle(api)
    [mail_] = inbox.to("bea@example.org", "your_turn")
    [raw] = [r for r in inbox.raw if b"X-Menagerie-Kind: your_turn" in r]
    head = raw.split(b"\r\n\r\n", 1)[0]
    line = re.search(rb"\r\nList-Unsubscribe: ([^\r\n]*)\r\n(?![ \t])", head)
    assert line is not None, head
    url = line.group(1).decode("ascii")
    assert len(url) > 78  # long enough that the standard policy would have encoded it
    assert url.startswith("<https://menagerie.test/api/email/unsubscribe?token=") \
        and url.endswith(">")
    assert b"=?" not in line.group(0)
    assert b"\r\nList-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n" in head
    assert mail_["List-Unsubscribe"] == url
    # the link in the header works (one-click POST)
    split = urlsplit(url.strip("<>"))
    assert split.query.startswith("token=")


def test_the_smtp_policy_still_encodes_other_headers():
    m = mail.EmailMessage()
    m["Subject"] = "Ти на черзі: " + "довга назва гри " * 6
    m["List-Unsubscribe"] = "<https://x.example/api/email/unsubscribe?token=" + "a" * 120 + ">"
    m.set_content("x")
    raw = mail.to_bytes(m)
    assert b"Subject: =?utf-8?" in raw  # non-ASCII subject: encoded-words, folded
    assert b"List-Unsubscribe: <https://x.example/api/email/unsubscribe?token=" + b"a" * 120 \
        + b">\r\n" in raw
    m2 = mail.EmailMessage()
    m2["List-Unsubscribe"] = "<https://x.example/\u00e9>"
    with pytest.raises(ValueError):
        mail.to_bytes(m2)


# ------------------------------------------------------------- 11: a shared link key
async def _verify_link(api, inbox, player, address: str) -> str:
    r = await player.post("/api/me/email", json={"address": address})
    assert r.status_code == 200, r.text
    await settle(api)
    [m] = inbox.to(address, "verify")
    link = next(w for w in body(m).split() if "/api/email/verify?token=" in w)
    return link.split("token=", 1)[1]


async def test_links_without_a_secret_key_survive_a_restart(db_url, inbox):
    settings = make_settings(db_url, **_smtp(inbox, secret_key=None))
    async with running_app(settings) as api:
        p = await api.user()
        token = await _verify_link(api, inbox, p, "restart@example.org")
        async with api.services.db.read() as s:
            stored = await s.scalar(select(ServerKey.value).where(ServerKey.name == "mail_links"))
        assert stored and len(stored) >= 32
    async with running_app(settings) as again:  # a new process on the same database
        r = await again.client.post("/api/email/verify", json={"token": token})
        assert r.status_code == 200 and r.json() == {"verified": True,
                                                     "address": "restart@example.org"}
        r = await again.client.post("/api/email/verify", json={"token": token[:-2] + "xx"})
        assert r.status_code == 400 and r.json()["error"]["code"] == "bad_token"


async def test_links_without_a_secret_key_work_on_another_process(pg_url, inbox):
    """A link made by a server process verifies on another one (no MENAGERIE_SECRET_KEY on
    either), and an unsubscribe link made in this process works on that one."""
    env = {"MENAGERIE_SMTP_HOST": "127.0.0.1", "MENAGERIE_SMTP_PORT": str(inbox.port),
           "MENAGERIE_SMTP_SECURITY": "none", "MENAGERIE_PUBLIC_URL": "https://menagerie.test",
           "MENAGERIE_EMAIL_POLL_SECONDS": "0.05"}
    settings = make_settings(pg_url, **_smtp(inbox, secret_key=None))
    async with server_process(pg_url, **env) as proc, running_app(settings) as here:
        async with httpx.AsyncClient(base_url=f"http://{proc.base}") as client:
            there = Remote(client)
            p = await there.user()
            r = await p.post("/api/me/email", json={"address": "two@example.org"})
            assert r.status_code == 200
            # the mail is sent by whichever process claims it; the link is the other's
            for _ in range(200):
                if inbox.to("two@example.org", "verify"):
                    break
                await settle(here)
            [m] = inbox.to("two@example.org", "verify")
            token = next(w for w in body(m).split() if "token=" in w).split("token=", 1)[1]
            r = await here.client.post("/api/email/verify", json={"token": token})
            assert r.status_code == 200 and r.json()["verified"] is True
            links = await here.services.notify.email.links.ready()
            unsub = links.unsubscribe_token(p.id, "digest")
            r = await client.post(f"/api/email/unsubscribe?token={unsub}",
                                  content=b"List-Unsubscribe=One-Click",
                                  headers={"Content-Type": "application/x-www-form-urlencoded"})
            assert r.status_code == 200 and r.json() == {"unsubscribed": "digest"}


@pytest.fixture
def pg_url(pg_session_url):
    asyncio.run(_pg_admin(pg_session_url,
                          f"TRUNCATE {', '.join(TABLES)} RESTART IDENTITY CASCADE"))
    return pg_session_url


# ------------------------------------------------------------- 12: address syntax
@pytest.mark.parametrize("address", [
    "a@b.test@c.test", "a@b.example.org@c.example.org", "Ada <ada@example.org>",
    '"quoted"@example.org', "ada@[127.0.0.1]", "ada@localhost", "ada@example", "ada@.example.org",
    "ada@example.org\r\nBcc: x@example.org", "ada@exa mple.org", "@example.org", "ada@",
    "ada..x@example.org", ".ada@example.org"])
async def test_addresses_that_are_not_addresses_are_refused(db_url, inbox, address):
    settings = make_settings(db_url, **_smtp(inbox))
    async with running_app(settings) as api:
        p = await api.user()
        r = await p.post("/api/me/email", json={"address": address})
        assert r.status_code == 422 and r.json()["error"]["code"] == "bad_email", r.text
        view = (await p.get("/api/me/notifications")).json()["email"]
        assert view["address"] is None
        await settle(api)
    assert inbox.mails == [] and inbox.tries == 0


async def test_a_valid_address_is_stored_normalized(db_url, inbox):
    settings = make_settings(db_url, **_smtp(inbox))
    async with running_app(settings) as api:
        p = await api.user()
        r = await p.post("/api/me/email", json={"address": " Ada.Lovelace+zoo@Example.ORG "})
        assert r.status_code == 200
        assert r.json()["email"]["address"] == "Ada.Lovelace+zoo@example.org"
