"""Web Push: "your turn" notices to the browsers of players who have no page open.

- The server signs every push with one VAPID key (RFC 8292). It is made once, on first use, and
  kept in the database (``server_keys``, name ``vapid``), so every process and every restart uses
  the same key and the browsers' subscriptions stay valid; ``MENAGERIE_VAPID_PRIVATE_KEY``
  overrides it. ``GET /api/push/key`` gives the public key to the page.
- A browser's subscription (``POST /api/me/push``: the ``PushSubscription`` JSON) is stored per
  user: endpoint, P-256 key, auth secret, and the page's language. Endpoints must be https URLs
  of a push service in ``push_hosts`` (``push_allow_loopback``: http://127.0.0.1, tests only).
  With ``push_hosts`` empty (any public https host), the endpoint's host is resolved when the
  browser subscribes and must be public (no loopback, private or internal address, in any
  notation: ``0x7f000001`` is 127.0.0.1).
- Every send resolves the host again and connects only to checked public addresses (the
  connector's resolver refuses the rest, so a name rebound to 127.0.0.1 later gets nothing),
  and never follows a redirect (a 3xx is a failed attempt): issue #31, finding 10.
- :class:`PushChannel` makes push a channel of the notification dispatcher (:mod:`app.notify`):
  a "your turn", a reminder or a game's end that the user's choices let through (kinds, the
  push switch, quiet hours, "only when away", the per-game throttle) queues one
  ``push_deliveries`` row per subscription of that user, in the dispatcher's transaction (the
  queue survives a restart); a worker per process claims due rows (``SKIP LOCKED`` on
  PostgreSQL) and sends them: encrypted with pywebpush (``aes128gcm``, RFC 8291), a short
  timeout. A 201/2xx answer marks the row delivered; 404 or 410 (the browser unsubscribed, the
  subscription expired) deletes the subscription and its queued messages; anything else is
  retried with backoff until ``push_max_attempts``.

The interface for other senders (the notification dispatcher):

- :meth:`PushService.send` ``(subscription, payload) -> Outcome``: one encrypted POST now;
- :meth:`PushService.enqueue_for_user` ``(user_id, render) -> int``: queue one message per
  subscription of the user; ``render(lang)`` returns the payload (a JSON object the service
  worker shows: ``title``, ``body``, ``url``, ``tag``) in the subscription's language.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from urllib.parse import urlsplit

import aiohttp
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid, b64urlencode
from pywebpush import WebPushException, webpush_async

from . import i18n, jsonutil, netcheck, push_store as store, serverkeys
from .auth import UserInfo
from .db import Duplicate
from .jobqueue import JobWorker, stepped_backoff
from .models_delivery import PushDelivery
from .refusal import Refusal, not_found, say
from .times import utcnow

log = logging.getLogger("menagerie.push")

#: waits between attempts, in units of ``push_backoff_base`` (as for webhooks)
BACKOFF_STEPS = (1, 6, 24, 120, 720)
#: a claimed message is not claimed again for this long (it is being sent)
LEASE = timedelta(seconds=120)
BATCH = 20
MAX_ENDPOINT = 1000
#: the notice's words when the locales are missing (app/locales/*.json have them translated)
TEXTS = {"push.your_turn_title": "Your turn — Menagerie",
         "push.your_turn_body": "It is your turn in {title} #{id}."}
BAD = say("bad_push_subscription")


@dataclass(frozen=True)
class Outcome:
    """What one send came to: ``delivered``, ``gone`` (404/410: drop the subscription) or
    ``retry`` (any other failure), with the HTTP status when there was an answer."""

    result: str
    status: int | None = None
    error: str | None = None


def _b64(value: str) -> bytes:
    return base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))


def check_subscription(endpoint: str, p256dh: str, auth: str, settings) -> None:
    """Raise 422 ``bad_push_subscription`` unless this is a usable subscription from a push
    service this server talks to."""
    try:
        parts = urlsplit(endpoint)
        host = (parts.hostname or "").lower()
        _ = parts.port  # raises on a bad port
        key = _b64(p256dh)
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), key)  # on the curve
        secret = _b64(auth)
    except (ValueError, binascii.Error, TypeError):
        raise Refusal("bad_push_subscription", BAD) from None
    if (len(endpoint) > MAX_ENDPOINT or any(c.isspace() or ord(c) < 32 for c in endpoint)
            or parts.username or parts.password or len(key) != 65 or len(secret) != 16
            or not host):
        raise Refusal("bad_push_subscription", BAD)
    if settings.push_allow_loopback and parts.scheme == "http" and host == "127.0.0.1":
        return
    if parts.scheme != "https":
        raise Refusal("bad_push_subscription", BAD)
    allowed = [h.strip().lower() for h in settings.push_hosts.split(",") if h.strip()]
    if allowed:
        ok = any(host == a or (a.startswith(".") and host.endswith(a)) for a in allowed)
    else:
        ok = _public_host(host)
    if not ok:
        raise Refusal("push_service_not_allowed",
                      say("push_service_not_allowed"))


def _public_host(host: str) -> bool:
    ip = netcheck.literal_address(host)
    if ip is not None:
        return not netcheck.is_private(ip)
    return host != "localhost" and not host.endswith(".localhost")


def _allowed_address(ip, allow_loopback: bool) -> bool:
    return not netcheck.is_private(ip) or (allow_loopback and str(ip) == "127.0.0.1")


class PushService:
    def __init__(self, db, settings) -> None:
        self.db, self.settings = db, settings
        self._vapid: Vapid | None = None
        self._key_lock = asyncio.Lock()
        self._session: aiohttp.ClientSession | None = None
        #: the push messages' worker: the project's one durable queue (app/jobqueue.py)
        self.worker = JobWorker(
            db, PushDelivery, name="push", load=self._load, send=self._deliver,
            max_attempts=lambda: settings.push_max_attempts,
            backoff=lambda n: stepped_backoff(settings.push_backoff_base, BACKOFF_STEPS, n),
            poll=settings.push_poll_seconds, drain=settings.push_timeout + 1, lease=LEASE,
            batch=BATCH)

    # ---------------------------------------------------------------- the VAPID key
    async def vapid(self) -> Vapid:
        """The signing key: the setting's, else the stored one, else a new one stored now (the
        first process to store it wins; the others read it)."""
        if self._vapid is not None:
            return self._vapid
        async with self._key_lock:
            if self._vapid is None:
                self._vapid = await self._load_key()
        return self._vapid

    async def _load_key(self) -> Vapid:
        own = self.settings.vapid_private_key
        if own:
            own = own.strip()
            return Vapid.from_pem(own.encode()) if own.startswith("-----") else \
                Vapid.from_raw(own.encode())

        def make() -> str:
            fresh = Vapid()
            fresh.generate_keys()
            log.info("made the Web Push (VAPID) key")
            return fresh.private_pem().decode()

        pem = await serverkeys.load_or_make(self.db, "vapid", make)
        return Vapid.from_pem(pem.encode())

    async def public_key(self) -> str:
        """The ``applicationServerKey``: base64url of the uncompressed P-256 point."""
        key = (await self.vapid()).public_key
        raw = key.public_bytes(serialization.Encoding.X962,
                               serialization.PublicFormat.UncompressedPoint)
        return b64urlencode(raw)

    # ---------------------------------------------------------------- subscriptions
    async def subscribe(self, user: UserInfo, endpoint: str, p256dh: str, auth: str,
                        lang: str) -> dict:
        """Store (or move to this user, or refresh) the browser's subscription."""
        check_subscription(endpoint, p256dh, auth, self.settings)
        await self._check_resolves(endpoint)
        async with self.db.write() as s:
            try:
                sub_id, stored = await store.save_subscription(
                    s, user.id, endpoint, p256dh, auth, lang, self.settings.push_per_user)
            except Duplicate:  # the same browser subscribing twice at once
                raise Refusal("push_subscription_busy",
                              say("push_subscription_busy")) from None
            await s.commit()
            return {"id": sub_id, "endpoint": stored}

    async def _check_resolves(self, endpoint: str) -> None:
        """Any public https host (``push_hosts`` empty): every address of the host is public."""
        if any(h.strip() for h in self.settings.push_hosts.split(",")):
            return  # an operator's list of push services
        parts = urlsplit(endpoint)
        try:
            addresses = await netcheck.resolve(parts.hostname or "", parts.port or 443)
        except OSError:
            addresses = []
        if not addresses or not all(_allowed_address(ip, self.settings.push_allow_loopback)
                                    for ip in addresses):
            raise Refusal("push_service_not_allowed",
                          say("push_service_not_allowed"))

    async def unsubscribe(self, user: UserInfo, endpoint: str) -> None:
        async with self.db.write() as s:
            found = await store.own_subscription(s, user.id, endpoint)
            if found is None:
                raise not_found("push subscription")
            await store.drop(s, found)
            await s.commit()

    # ---------------------------------------------------------------- queueing
    async def enqueue_for_user(self, user_id: int, render: Callable[[str], dict]) -> int:
        """Queue one message per subscription of the user (``render(lang)``: its payload);
        returns how many were queued."""
        async with self.db.read() as s:  # most players have none: no write transaction then
            subs = await store.subscriptions(s, user_id)
        if not subs:
            return 0
        now = utcnow()
        async with self.db.write() as s:
            for sub in subs:
                store.add_delivery(s, sub.id, render(sub.lang), now)
            try:
                await store.commit(s)
            except Duplicate:  # a subscription dropped meanwhile (its foreign key)
                await s.rollback()
                return 0
        self.worker.wake()
        return len(subs)

    @staticmethod
    def payload(kind: str, game_id: int, title: str, version: int, deadline: str | None,
                lang: str, by: str = "", excerpt: str = "") -> dict:
        """A notice's push message in ``lang`` (kinds: your_turn, reminder, game_over,
        chat_mention, invitation, resigned, aborted). A game's turn notices share one tag (a newer one replaces
        an older one on the device); its chat mentions and its invitation have their own."""
        words = {**TEXTS, **i18n.catalogue("en"), **i18n.catalogue(lang)}
        params = {"title": title, "id": game_id, "by": by, "excerpt": excerpt}
        tag = {"chat_mention": "chat", "invitation": "rematch", "resigned": "over",
               "aborted": "over", "game_invitation": "invite",
               "invitation_declined": "invite", "matched": "match"}.get(kind, "turn")
        out = {"type": kind, "game": game_id, "version": version,
               "title": i18n.fill(words[f"push.{kind}_title"], params),
               "body": i18n.fill(words[f"push.{kind}_body"], params),
               "url": f"game.html?id={game_id}", "tag": f"menagerie-{tag}-{game_id}",
               "deadline": deadline}
        if kind == "daily_challenge":  # about no game: the lobby, where its card is
            out.update(game=None, url="./", tag="menagerie-daily")
        return out

    def wake(self) -> None:
        self.worker.wake()

    # ---------------------------------------------------------------- sending
    async def send(self, subscription: dict, payload: dict) -> Outcome:
        """One encrypted, VAPID-signed POST to the subscription's push service.
        ``subscription``: ``{"endpoint", "keys": {"p256dh", "auth"}}``."""
        claims = {"sub": self.settings.push_subject}  # a new dict: pywebpush fills aud and exp
        literal = netcheck.literal_address(urlsplit(subscription["endpoint"]).hostname or "")
        if literal is not None and not _allowed_address(literal,
                                                        self.settings.push_allow_loopback):
            return Outcome("retry", None, str(netcheck.PrivateAddress()))
        try:
            assert self._session is not None, "the push worker is not started"
            response = await webpush_async(
                subscription_info=subscription, data=jsonutil.dumps_str(payload),
                vapid_private_key=await self.vapid(), vapid_claims=claims,
                content_encoding="aes128gcm", ttl=self.settings.push_ttl,
                timeout=aiohttp.ClientTimeout(total=self.settings.push_timeout),
                headers={"Urgency": "high"},
                aiohttp_session=netcheck.NoRedirects(self._session))
            return Outcome("delivered", getattr(response, "status", None))
        except WebPushException as exc:
            status = exc.response.status if exc.response is not None else None
            if status in (404, 410):
                return Outcome("gone", status, f"HTTP {status}")
            return Outcome("retry", status, f"HTTP {status}" if status else "request failed")
        except TimeoutError:
            return Outcome("retry", None, "timeout")
        except aiohttp.ClientConnectorError as exc:
            if isinstance(exc.os_error, netcheck.PrivateAddress) or \
                    isinstance(exc.__cause__, netcheck.PrivateAddress):
                return Outcome("retry", None, str(netcheck.PrivateAddress()))
            return Outcome("retry", None, "connection failed")
        except (aiohttp.ClientError, OSError, ValueError):
            return Outcome("retry", None, "connection failed")

    def start(self) -> None:
        connector = aiohttp.TCPConnector(
            resolver=netcheck.CheckedResolver(
                lambda ip: _allowed_address(ip, self.settings.push_allow_loopback)))
        self._session = aiohttp.ClientSession(connector=connector, trust_env=False)
        self.worker.start()

    async def stop(self) -> None:
        await self.worker.stop()
        if self._session is not None:
            with contextlib.suppress(Exception):
                await self._session.close()
            self._session = None

    @staticmethod
    async def _load(session, ids: list[int]) -> list:
        """The claimed messages with their subscriptions."""
        return await store.deliveries(session, ids)

    async def _deliver(self, job) -> str | None:
        """Send one claimed message: None when delivered or when the browser dropped the
        subscription (404/410: the subscription and its queued messages are deleted here, so
        nothing is left to record), else the error to retry with."""
        subscription = {"endpoint": job.endpoint, "keys": {"p256dh": job.p256dh,
                                                           "auth": job.auth}}
        outcome = await self.send(subscription, job.payload)
        log.debug("push delivery %s: %s (attempt %s)", job.id, outcome, job.attempts + 1)
        if outcome.result == "gone":
            async with self.db.write() as s:
                await store.drop(s, job.sub_id)
                await s.commit()
            return None
        return None if outcome.result == "delivered" else (outcome.error or "failed")


class PushChannel:
    """Web Push as a channel of the notification dispatcher (:mod:`app.notify`): the user's
    choices (kinds, the push switch, quiet hours, "only when away", the per-game throttle)
    apply to it as to email, and its messages are queued in the dispatcher's transaction."""

    name = "push"
    available = True  # the VAPID key is made on first use: every server can push

    def __init__(self, push: PushService) -> None:
        self.push = push

    async def reachable(self, session, user_ids: list[int]) -> set[int]:
        """The users among ``user_ids`` with at least one subscription (one query)."""
        return await store.reachable(session, user_ids)

    def accepts(self, recipient) -> bool:
        return True  # whether the user has a browser subscribed is asked by ``reachable``

    async def enqueue(self, session, notice, recipient) -> None:
        now = utcnow()
        for sub in await store.subscriptions(session, recipient.user_id):
            store.add_delivery(session, sub.id, PushService.payload(
                notice.kind, notice.game_id, notice.title, notice.version, notice.deadline,
                sub.lang, notice.by, notice.excerpt), now)

    def wake(self) -> None:
        self.push.wake()

