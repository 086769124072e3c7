"""A :class:`Frame`: one version of one game, as the sockets and the move's answer send it.

Its public view is encoded once; the message for each viewer (seat, or None for spectators) is
encoded once and cached, so every spectator gets the same bytes (and the answer to the move
reuses the same encoded public view). What each viewer may see is decided by
``app/redaction.py``; the fan-out of frames to sockets is ``app/realtime.py``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from . import jsonutil, metrics, redaction


@dataclass
class Frame:
    """One version of a game, with the per-viewer messages encoded lazily and cached."""

    game: Any  # engine.core.Game
    version: int
    state: dict
    events: list
    #: the game's public clock at this version (timed games; see app/clock.py), if known
    clock: dict | None = None
    #: who sits where at this version (user id -> seat); None: not known, the socket reads the
    #: game's seats (a socket's viewer always follows the game's current seats)
    users: dict | None = None
    #: the result the app recorded when it differs from the engine's (a resignation or an
    #: abort, app/outcome.py): the game is over at this version whatever the engine says
    outcome: dict | None = None
    #: the seat whose finished turn waits for its confirm at this version (app/games/turns.py):
    #: it alone is waited for; None: no turn waits (or not known: a frame rebuilt from the log)
    held: int | None = None
    _public: bytes | None = None
    _meta: bytes | None = None
    _encoded: dict = field(default_factory=dict)

    def _parts(self) -> tuple[bytes, bytes]:
        if self._public is None:
            self._public = jsonutil.dumps(redaction.public(self.game, self.state))
            result = self.outcome or self.game.result(self.state)
            self._meta = jsonutil.dumps({
                "status": "finished" if result is not None else "running",
                "waiting_for": ([] if self.outcome is not None
                                else [self.held] if self.held is not None
                                else sorted(self.game.waiting_for(self.state))),
                **({"held": self.held} if self.held is not None else {}),
                "result": result,
                **({"clock": self.clock} if self.clock is not None else {}),
            })
        return self._public, self._meta  # type: ignore[return-value]

    def _private(self, seat: int | None) -> bytes:
        if seat is None:
            return b"null"
        key = ("private", seat)
        cached = self._encoded.get(key)
        if cached is None:
            cached = self._encoded[key] = jsonutil.dumps(
                redaction.private(self.game, self.state, seat))
        return cached

    def _events(self, seat: int | None) -> bytes:
        key = ("events", seat)
        cached = self._encoded.get(key)
        if cached is None:
            cached = self._encoded[key] = jsonutil.dumps(redaction.events(self.events, seat))
        return cached

    def message(self, seat: int | None, *, full: bool = False) -> str:
        """The ``state`` message for ``seat`` (None = spectator), encoded once per viewer."""
        key = (seat, full)
        cached = self._encoded.get(key)
        if cached is not None:
            return cached
        public, meta = self._parts()
        events = b"[]" if full else self._events(seat)
        head = b'{"type":"state","version":%d,' % self.version
        if full:
            head += b'"full":true,'
        body = (head + b'"view":{"public":' + public + b',"private":' + self._private(seat) +
                b'},"events":' + events + b"," + meta[1:])
        text = body.decode()
        self._encoded[key] = text
        metrics.FRAMES_ENCODED.labels("spectator" if seat is None else "seat").inc()
        return text

    def reply(self, seat: int, kind: bytes | None = None) -> bytes:
        """The answer to the seat that made this version: ``{version, events, view, status,
        waiting_for, result}`` (with ``"type"`` first for a WebSocket ``ack``), sharing the
        encoded public view with the fan-out."""
        public, meta = self._parts()
        head = b"{" if kind is None else b'{"type":"' + kind + b'",'
        return (head + b'"version":%d,"events":' % self.version + self._events(seat) +
                b',"view":{"public":' + public + b',"private":' + self._private(seat) + b"}," +
                meta[1:])
