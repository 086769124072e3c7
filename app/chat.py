"""Chat per game: two channels, stored in ``chat_messages`` and fanned out live.

- ``players``: written by the game's seated players, read by everyone;
- ``spectators``: written by signed-in users without a seat, read by everyone *except* the
  game's players while the game is not finished (nobody whispers hints to a player); once the
  game is finished everyone reads both.

A line is plain text: trimmed, 1 to :data:`MAX_TEXT` characters, no control characters; the
bidirectional controls and zero-width characters (which can disguise a line) are removed, and
the rest is stored as sent; the client always renders it as text. Each user may post
``rate_chat_burst`` lines at once, then ``rate_chat_per_second`` (per process: unlike the
rate limits of app.ratelimit, not shared on PostgreSQL; a line is cheap).

Live delivery: the inserting transaction publishes the line on the bus channel
:data:`CHANNEL`; every process (PostgreSQL NOTIFY, delivered on commit) or this one (SQLite)
sends ``{"type": "chat", "message": {...}}`` to its sockets of that game that may read the
channel (``conn.seat`` None = a spectator).
"""

from __future__ import annotations

import logging
import re
import unicodedata
from typing import Any

import engine

from . import jsonutil, redaction
from .auth import UserInfo
from .chat_store import ChatStore, ChatTx
from .models import ChatMessage
from .ratelimit import Limiter
from .refusal import Refusal, not_found, say
from .signals import Notify
from .times import iso, utcnow

log = logging.getLogger("menagerie.chat")

CHANNEL = "menagerie_chat"
#: ``@name`` in a line (a username: 3-32 of A-Z a-z 0-9 _ . -), not inside a word or address
MENTION = re.compile(r"(?<![A-Za-z0-9_.@-])@([A-Za-z0-9_.-]{3,32})")
#: at most this many players are told of one line
MAX_MENTIONS = 5
EXCERPT = 120
CHANNELS = ("players", "spectators")
MAX_TEXT = 500
#: characters removed from every line: the bidirectional embeddings, overrides, isolates and
#: marks (which can make a line read backwards or disguise a name) and the zero-width
#: characters (which hide text or make two equal-looking lines differ)
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
                          "\u200e\u200f\u061c")
ZERO_WIDTH = frozenset("\u200b\u2060\u2061\u2062\u2063\u2064\ufeff\u180e\u034f\u115f"
                       "\u1160\u3164\uffa0")
_STRIP = {ord(ch): None for ch in BIDI_CONTROLS | ZERO_WIDTH}
#: the joiners (ZWJ, ZWNJ) stay only between two visible non-ASCII characters, where emoji
#: sequences and Persian or Indic words need them; elsewhere (between Latin letters, at an
#: edge, beside a space, in runs) they go
_LOOSE_JOINERS = re.compile("(?<![^\\s\x00-\x7f\u200c\u200d])[\u200c\u200d]"
                            "|[\u200c\u200d](?![^\\s\x00-\x7f\u200c\u200d])")


def clean_text(text: Any) -> str:
    """The line to store (bidi and zero-width controls removed, trimmed), or
    :class:`Refusal` 422 ``bad_chat_text``."""
    if not isinstance(text, str):
        raise Refusal("bad_chat_text", say("bad_chat_text", max=MAX_TEXT))
    text = _LOOSE_JOINERS.sub("", text.translate(_STRIP)).strip()
    if not 1 <= len(text) <= MAX_TEXT:
        raise Refusal("bad_chat_text", say("bad_chat_text", max=MAX_TEXT))
    for ch in text:
        cat = unicodedata.category(ch)
        if cat in ("Cc", "Cs"):
            raise Refusal("bad_chat_text",
                          say("bad_chat_text.control"))
    return text


def message_dict(row: ChatMessage) -> dict:
    return {"id": row.id, "game": row.game_id, "channel": row.channel,
            "user": {"id": row.user_id, "username": row.username}, "text": row.text,
            "at": iso(row.created_at)}


def may_read(channel: str, seated: bool, finished: bool) -> bool:
    """Whether a viewer (seated in the game or not) reads ``channel`` now."""
    return channel == "players" or finished or not seated


class ChatService:
    def __init__(self, db, settings, hub, bus, limits, signals=None, *, games) -> None:
        self.db = db
        self.store = ChatStore(db)  # the chat's SQL
        #: the game store (app.games.store): the game's status, seal, seats and name, read in
        #: the chat's transaction
        self.games = games
        self.signals = signals  # wakes the outbox after a line that mentions someone
        self.settings = settings
        self.hub = hub
        self.bus = bus
        self.limits = limits
        self.limiter = Limiter("chat_per_user", settings.rate_chat_per_second,
                               settings.rate_chat_burst)  # per process (chat is cheap)
        bus.listen(CHANNEL, self._on_published)

    # ---------------------------------------------------------------- reading
    async def _standing(self, tx: ChatTx, game_id: int,
                        user: UserInfo | None) -> tuple[str, bool]:
        """(game status, whether ``user`` sits in the game); 404 for no such game, 403
        ``game_sealed`` for a game private to its players (app/redaction.py)."""
        found = await self.games.standing(game_id, user.id if user is not None else None,
                                          tx.session)
        if found is None:
            raise not_found("game")
        redaction.check_sealed(found.sealed_until, found.seated)
        return found.status, found.seated

    async def history(self, game_id: int, user: UserInfo | None, channel: str,
                      after: int | None, limit: int) -> dict:
        """Lines of a channel, oldest first: those after id ``after``, else the newest
        ``limit``."""
        async with self.store.reading() as tx:
            status, seated = await self._standing(tx, game_id, user)
            if not may_read(channel, seated, status == "finished"):
                raise Refusal("chat_hidden", say("chat_hidden"))
            rows, more = await tx.lines(game_id, channel, after, limit)
        return {"channel": channel, "messages": [message_dict(r) for r in rows], "more": more,
                "readable": [c for c in CHANNELS if may_read(c, seated, status == "finished")],
                "writable": self._writable(user, seated)}

    @staticmethod
    def _writable(user: UserInfo | None, seated: bool) -> str | None:
        if user is None:
            return None
        return "players" if seated else "spectators"

    # ---------------------------------------------------------------- writing
    async def post(self, game_id: int, user: UserInfo, channel: str | None, text: Any) -> dict:
        """Store a line and announce it; returns the message."""
        if channel is not None and channel not in CHANNELS:
            raise Refusal("bad_channel", say("bad_channel"))
        text = clean_text(text)
        await self.limits.check(self.limiter, f"user:{user.id}")
        async with self.store.writing() as tx:
            status, seated = await self._standing(tx, game_id, user)
            channel = channel or ("players" if seated else "spectators")
            if channel == "players" and not seated:
                raise Refusal("chat_forbidden",
                              say("chat_forbidden"))
            if channel == "spectators" and seated:
                raise Refusal("chat_forbidden",
                              say("chat_forbidden.spectators"))
            row = await tx.add_line(game_id=game_id, user_id=user.id, username=user.username,
                                    channel=channel, text=text, created_at=utcnow())
            told = await self._mentioned(tx, game_id, user, channel, status, text)
            message = message_dict(row)
            payload = jsonutil.dumps_str({"message": message,
                                          "finished": status == "finished"})
            await tx.publish(self.bus, CHANNEL, payload)  # goes out with the commit
            await tx.commit()
        if told and self.signals is not None:
            self.signals.wake_outbox()
        return message

    async def _mentioned(self, tx: ChatTx, game_id: int, user: UserInfo, channel: str, status: str,
                         text: str) -> bool:
        """Queue a ``chat_mention`` notice (the outbox, in the line's transaction) for the
        players ``@named`` in ``text`` who may read ``channel`` now (a seated player is never
        told of the spectators' channel during the game); whether anyone is told."""
        keys = set()
        for name in MENTION.findall(text):
            keys.update({name.lower(), name.rstrip(".-").lower()})
        keys.discard(user.username.lower())
        if not keys:
            return False
        found = await tx.user_ids(sorted(keys))
        seated = await self.games.seated_users(game_id, tx.session)
        finished = status == "finished"
        users = [u for u in found if u != user.id
                 and may_read(channel, u in seated, finished)][:MAX_MENTIONS]
        if not users:
            return False
        name = await self.games.game_name(game_id, tx.session) or ""
        excerpt = text if len(text) <= EXCERPT else text[:EXCERPT - 1] + "…"
        tx.add_notice(game_id, Notify(
            "chat_mention", game_id, name, engine.title_of(name), tuple(users), user.username,
            excerpt).payload())
        return True

    # ---------------------------------------------------------------- live fan-out
    def _on_published(self, payload: str) -> None:
        try:
            data = jsonutil.loads(payload)
            message = data["message"]
            game_id, channel = int(message["game"]), message["channel"]
            finished = bool(data.get("finished"))
        except (ValueError, KeyError, TypeError):
            log.warning("ignored chat notification %r", payload[:200])
            return
        text = jsonutil.dumps_str({"type": "chat", "message": message})
        self.hub.broadcast(game_id, text,
                           to=lambda conn: may_read(channel, conn.seat is not None, finished))
