"""Open sockets by login, so that a revoked login closes them at once, in every process.

Every WebSocket opened with a login (game sockets, ``/api/me/ws``) is registered here with its
user and the SHA-256 of its token. A revocation arrives as an announcement on the auth channel
(:data:`app.bus.AUTH_CHANNEL`; with PostgreSQL a NOTIFY sent by the revoking transaction
and delivered on commit to every process, this one included; with SQLite straight from the
auth service):

- ``<sha256>``: one token (logout);
- ``u:<user id>``: every token of the user (log out everywhere);
- ``u:<user id>:<sha256>``: every token of the user but that one (a password change keeps the
  session that made it).

Each matching socket is marked closed at once (it sends nothing more: no state message, no
chat line, no further action) and then told ``{"type": "error", "error": {"code":
"signed_out"}}`` and closed with code 4401.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from . import i18n, jsonutil, tasks
from .refusal import say

log = logging.getLogger("menagerie.sessions")
CLOSE_CODE = 4401
SIGNED_OUT = say("signed_out")


class Sessions:
    def __init__(self) -> None:
        self._by_digest: dict[str, set] = {}
        self._by_user: dict[int, set] = {}

    def add(self, conn, user_id: int, digest: str) -> None:
        conn.session = (user_id, digest)
        self._by_digest.setdefault(digest, set()).add(conn)
        self._by_user.setdefault(user_id, set()).add(conn)

    def remove(self, conn) -> None:
        key = getattr(conn, "session", None)
        if key is None:
            return
        user_id, digest = key
        for index, k in ((self._by_digest, digest), (self._by_user, user_id)):
            conns = index.get(k)
            if conns is not None:
                conns.discard(conn)
                if not conns:
                    del index[k]

    def count(self) -> int:
        return sum(len(c) for c in self._by_digest.values())

    def announced(self, payload: str) -> int:
        """A revocation (see the module's doc); returns how many sockets it closes here."""
        if payload.startswith("u:"):
            _, _, rest = payload.partition(":")
            uid, _, keep = rest.partition(":")
            try:
                user_id = int(uid)
            except ValueError:
                log.warning("ignored revocation %r", payload[:100])
                return 0
            conns = [c for c in self._by_user.get(user_id, ())
                     if not keep or c.session[1] != keep]
        else:
            conns = list(self._by_digest.get(payload, ()))
        for conn in conns:
            self.close(conn)
        return len(conns)

    def digests(self) -> list[str]:
        return list(self._by_digest)

    async def recheck(self, live) -> int:
        """Close the sockets whose token is gone (``await live(digests)`` -> the digests that
        still hold): after a lost LISTEN connection, revocations may have been missed."""
        digests = self.digests()
        if not digests:
            return 0
        alive = await live(digests)
        gone = [d for d in digests if d not in alive]
        for digest in gone:
            self.announced(digest)
        return len(gone)

    def close(self, conn) -> None:
        """Stop ``conn`` at once (nothing more is sent or accepted), then say why and close."""
        if getattr(conn, "revoked", False):
            return
        conn.revoked = True
        conn.closed = True
        conn.wake.set()
        self.remove(conn)
        tasks.spawn(_say_and_close(conn))


async def _say_and_close(conn) -> None:
    lang = getattr(conn, "lang", i18n.DEFAULT)
    error = i18n.localize_error("signed_out", SIGNED_OUT, lang)
    with contextlib.suppress(Exception):
        async with asyncio.timeout(5):
            async with conn.lock:  # after a state message being sent, never inside it
                await conn.ws.send_text(jsonutil.dumps_str({"type": "error", "error": error}))
                await conn.ws.close(code=CLOSE_CODE, reason=i18n.close_reason(error["message"]))
