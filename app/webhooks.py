"""Outbound webhooks: a signed JSON POST to the user's URLs when it becomes their turn.

- A user registers up to ``webhooks_per_user`` http(s) URLs; each gets a random secret, shown
  once (the 201 reply of the registration).
- On :class:`app.signals.YourTurn` (emitted once per move, in the process that stored it) one
  ``webhook_deliveries`` row is inserted per active webhook of those users. The rows are the
  queue: they survive a restart.
- A delivery worker per process (the shared job queue, :mod:`app.jobqueue`) claims due rows and POSTs them (httpx, short timeout). A 2xx
  answer marks the row ``delivered``; anything else (another status, a timeout, a refused
  connection) is retried after ``webhook_backoff_base`` x 1, 6, 24, 120, 720 (5 s, 30 s, 2 min,
  10 min, 1 h by default) until ``webhook_max_attempts`` attempts, then the row is ``failed``.
- Several processes share the queue: a claim (``SELECT ... FOR UPDATE SKIP LOCKED`` on
  PostgreSQL; SQLite has one process) moves the row's ``next_attempt_at`` past a lease, so no
  other worker takes it while it is being sent. A process that dies mid-send leaves the row to
  be retried once the lease ends (receivers may see that delivery id again: deduplicate on
  ``X-Menagerie-Delivery``).

Every POST carries ``X-Menagerie-Event``, ``X-Menagerie-Delivery`` (the delivery id),
``X-Menagerie-Timestamp`` (Unix seconds) and ``X-Menagerie-Signature: sha256=<hex>``, the
HMAC-SHA256 of ``"<timestamp>.<body>"`` keyed with the secret (docs/webhooks.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import ipaddress
import logging
import secrets
import socket
import time
from collections.abc import Sequence
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import httpx

from . import jsonutil, netcheck, webhooks_store as store
from .auth import UserInfo
from .db import Duplicate
from .jobqueue import LEASE, JobWorker, stepped_backoff
from .models_delivery import Webhook, WebhookDelivery
from .refusal import Refusal, not_found, say
from .signals import Notify, YourTurn
from .times import iso, utcnow

log = logging.getLogger("menagerie.webhooks")

MAX_URL = 2000
#: waits between attempts, in units of ``webhook_backoff_base``
BACKOFF_STEPS = (1, 6, 24, 120, 720)
BATCH = 20
USER_AGENT = "Menagerie-Webhooks/1"


def sign(secret: str, timestamp: str, body: bytes) -> str:
    """The ``X-Menagerie-Signature`` value of a body sent at ``timestamp``."""
    mac = hmac.new(secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256)
    return "sha256=" + mac.hexdigest()


def backoff(settings, attempts: int) -> float:
    """Seconds to wait after the ``attempts``-th failed attempt."""
    return stepped_backoff(settings.webhook_backoff_base, BACKOFF_STEPS, attempts)


#: loopback, private, ... and the IPv6 ranges that carry an IPv4 address inside: app/netcheck.py
_private = netcheck.is_private


class RefusedTarget(Exception):
    pass


def check_url(url, allow_private: bool) -> str:
    """The URL to store, or :class:`Refusal` 422."""
    if not isinstance(url, str):
        raise Refusal("bad_webhook_url", say("bad_webhook_url"))
    url = url.strip()
    try:
        url.encode("utf-8")  # no lone surrogates
        parts = urlsplit(url)
        port = parts.port  # raises on a bad port
        host = parts.hostname
        httpx.URL(url)  # what the sender will make of it
    except (ValueError, UnicodeError, httpx.InvalidURL):
        parts, port, host = None, None, None
    if (parts is None or parts.scheme not in ("http", "https") or not host
            or len(url) > MAX_URL or any(c.isspace() or ord(c) < 32 or ord(c) == 127
                                          for c in url)):
        raise Refusal("bad_webhook_url", say("bad_webhook_url"))
    del port
    if not allow_private:
        try:
            ip = ipaddress.ip_address(host)
        except ValueError:
            ip = None
        if (ip is not None and _private(ip)) or host == "localhost" or \
                host.endswith(".localhost"):
            raise Refusal("webhook_private_address",
                          say("webhook_private_address"))
    return url


class WebhookService:
    def __init__(self, db, settings) -> None:
        self.db = db
        self.settings = settings
        self._client: httpx.AsyncClient | None = None
        #: the delivery worker (app/jobqueue.py: claim, lease, backoff, dead letters)
        self.worker = JobWorker(
            db, WebhookDelivery, name="webhooks", load=self._load, send=self._deliver,
            max_attempts=lambda: settings.webhook_max_attempts,
            backoff=lambda attempts: backoff(settings, attempts),
            poll=settings.webhook_poll_seconds, drain=settings.webhook_timeout + 1,
            lease=LEASE, batch=BATCH)

    # ---------------------------------------------------------------- the user's webhooks
    @staticmethod
    def _public(row: Webhook, last: WebhookDelivery | None = None) -> dict:
        out = {"id": row.id, "url": row.url, "active": row.active,
               "created_at": iso(row.created_at)}
        out["last_delivery"] = None if last is None else {
            "id": last.id, "status": last.status, "attempts": last.attempts,
            "last_error": last.last_error, "created_at": iso(last.created_at),
            "delivered_at": iso(last.delivered_at)}
        return out

    async def list(self, user: UserInfo) -> dict:
        async with self.db.read() as s:
            out = [self._public(row, last) for row, last in await store.hooks_of(s, user.id)]
        return {"webhooks": out, "limit": self.settings.webhooks_per_user}

    async def create(self, user: UserInfo, url) -> dict:
        url = check_url(url, self.settings.webhook_allow_private)
        secret = "whsec_" + secrets.token_urlsafe(32)
        async with self.db.write() as s:
            # one registration of this user at a time (the limit); SQLite has one writer
            count, same = await store.registered(s, user.id, url)
            if same:
                raise Refusal("webhook_exists", say("webhook_exists"))
            limit = self.settings.webhooks_per_user
            if count >= limit:
                raise Refusal("webhook_limit", say("webhook_limit", n=limit))
            try:
                row = await store.add(s, user.id, url, secret, utcnow())
            except Duplicate:
                raise Refusal("webhook_exists",
                              say("webhook_exists")) from None
            await s.commit()
        return {**self._public(row), "secret": secret}

    async def delete(self, user: UserInfo, webhook_id: int) -> None:
        async with self.db.write() as s:
            if await store.own(s, user.id, webhook_id) is None:
                raise not_found("webhook")
            await store.drop(s, webhook_id)
            await s.commit()

    # ---------------------------------------------------------------- events
    async def on_your_turn(self, s, events: Sequence[YourTurn]):
        """Listener of ``signals.your_turn`` (in the outbox's transaction ``s``): one delivery
        per active webhook of the users whose turn it became; one query for the whole batch."""
        users = sorted({u for event in events for u in event.users})
        if not users:
            return None
        hooks = await store.active_hooks(s, users)
        if not hooks:
            return None
        now = utcnow()
        for event in events:
            game = {"id": event.game_id, "game": event.game, "title": event.title,
                    "version": event.version, "url": f"/game.html?id={event.game_id}"}
            for hook in hooks:
                if hook.user_id not in event.users:
                    continue
                store.add_delivery(s, hook.id, "your_turn", {
                    "event": "your_turn", "game": game,
                    "user": {"id": hook.user_id, "username": hook.username},
                    "deadline": event.deadline}, now)
        return self.worker.wake

    async def on_notice(self, s, items: Sequence[Notify]):
        """Listener of ``signals.notice``: a player resigned or aborted a game (event
        ``resigned`` / ``aborted``, with ``by``) to the webhooks of the game's other players;
        a quick match made a game (``matched``, ``by`` the opponents) to each player's."""
        items = [n for n in items if n.kind in ("resigned", "aborted", "matched")]
        users = sorted({u for n in items for u in n.users})
        hooks = await store.active_hooks(s, users) if users else []
        if not hooks:
            return None
        now = utcnow()
        for n in items:
            game = {"id": n.game_id, "game": n.game, "title": n.title,
                    "url": f"/game.html?id={n.game_id}"}
            for hook in hooks:
                if hook.user_id in n.users:
                    store.add_delivery(s, hook.id, n.kind, {
                        "event": n.kind, "game": game, "by": n.by,
                        "user": {"id": hook.user_id, "username": hook.username}}, now)
        return self.worker.wake

    # ---------------------------------------------------------------- the worker
    def start(self) -> None:
        self._client = httpx.AsyncClient(timeout=self.settings.webhook_timeout,
                                         follow_redirects=False, trust_env=False,
                                         headers={"User-Agent": USER_AGENT})
        self.worker.start()

    async def stop(self) -> None:
        await self.worker.stop()
        if self._client is not None:
            with contextlib.suppress(Exception):
                await self._client.aclose()
            self._client = None

    def wake(self) -> None:
        self.worker.wake()

    @property
    def on_attempt(self):
        return self.worker.on_attempt

    @on_attempt.setter
    def on_attempt(self, callback) -> None:
        self.worker.on_attempt = callback

    @staticmethod
    async def _load(s, ids: Sequence[int]) -> Sequence[Any]:
        """The claimed deliveries: (id, attempts, payload, url, secret)."""
        return await store.deliveries(s, ids)

    async def _pin_target(self, url: str) -> tuple[str, dict, dict]:
        """Resolve the URL's host once, check every address it has, and return the URL to
        connect to: the first checked address, with the ``Host`` header and (https) the TLS
        server name of the original host. The connection goes to that very address, so a name
        that resolves elsewhere a moment later (DNS rebinding) changes nothing."""
        parts = urlsplit(url)
        host = parts.hostname or ""
        port = parts.port or (443 if parts.scheme == "https" else 80)
        try:
            addresses = [ipaddress.ip_address(host)]
            literal = True
        except ValueError:
            literal = False
            try:
                infos = await asyncio.get_running_loop().getaddrinfo(host, port,
                                                                     type=socket.SOCK_STREAM)
            except OSError:
                raise RefusedTarget("cannot resolve the host") from None
            addresses = [ipaddress.ip_address(str(info[4][0]).split("%")[0]) for info in infos]
        if not addresses:
            raise RefusedTarget("cannot resolve the host")
        if not self.settings.webhook_allow_private and any(_private(ip) for ip in addresses):
            raise RefusedTarget("refused: the host resolves to a private address")
        ip = addresses[0]
        userinfo = parts.netloc.rpartition("@")[0]
        netloc = (f"[{ip}]" if ip.version == 6 else str(ip)) + f":{port}"
        pinned = urlunsplit((parts.scheme, (userinfo + "@" if userinfo else "") + netloc,
                             parts.path, parts.query, ""))
        default_port = parts.port is None or parts.port == (443 if parts.scheme == "https"
                                                            else 80)
        host_header = (f"[{host}]" if ":" in host else host) + \
            ("" if default_port else f":{parts.port}")
        extensions = {"sni_hostname": host} if parts.scheme == "https" and not literal else {}
        return pinned, {"Host": host_header}, extensions

    async def _deliver(self, job) -> str | None:
        """POST one delivery; None when the receiver answered 2xx, else the error to record."""
        delivery_id, payload, url, secret = job.id, job.payload, job.url, job.secret
        body = jsonutil.dumps({**payload, "sent_at": iso(utcnow()),
                               "delivery": delivery_id})
        timestamp = str(int(time.time()))
        headers = {
            "Content-Type": "application/json",
            "X-Menagerie-Event": str(payload.get("event", "")),
            "X-Menagerie-Delivery": str(delivery_id),
            "X-Menagerie-Timestamp": timestamp,
            "X-Menagerie-Signature": sign(secret, timestamp, body),
        }
        error = None
        try:
            pinned, host, extensions = await self._pin_target(url)
            assert self._client is not None
            response = await self._client.post(pinned, content=body,
                                               headers={**headers, **host},
                                               extensions=extensions)
            if not 200 <= response.status_code < 300:
                error = f"HTTP {response.status_code}"
        except RefusedTarget as exc:
            error = str(exc)
        # coarse on purpose: the owner of a webhook learns that it failed, not how a machine
        # of this network answered (no port scanning through the error text)
        except httpx.TimeoutException:
            error = "timeout"
        except httpx.ConnectError:
            error = "connection failed"
        except (httpx.HTTPError, httpx.InvalidURL, OSError, ValueError):
            error = "request failed"

        return error
