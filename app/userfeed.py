"""The per-user channel: every open page of a user hears "your turn in game G".

The game service publishes a notice on the bus (``USER_CHANNEL``) when a move makes it some
players' turn, ends someone's turn or ends the game: ``{"g", "v", "name", "title", "turn":
[user ids whose turn it became], "users": [every player of the game], "status", "deadline"}``.
With PostgreSQL it is sent by the move's own statement (delivered on commit, to every process);
each process hands it to the sockets of those users it holds (``WS /api/me/ws``):

- ``{"type": "your_turn", "game", "version", "name", "title", "deadline"}`` to the users in
  ``turn``;
- ``{"type": "game", "game", "version", "status", "your_turn": false}`` to the other players
  (their "my games" lists move the game).

A notice with ``"t"`` is typed: ``{"t": "seek", "users": [ids], "seek", "status", ...}`` goes to
those users as ``{"type": "seek", ...}`` (a quick match paired or expired: app/seeks/).
"""

from __future__ import annotations

import logging

from . import jsonutil, tasks
from .realtime import send_locked

log = logging.getLogger("menagerie.userfeed")


class UserFeed:
    def __init__(self) -> None:
        self._sockets: dict[int, set] = {}

    def add(self, user_id: int, conn) -> None:
        self._sockets.setdefault(user_id, set()).add(conn)

    def remove(self, user_id: int, conn) -> None:
        conns = self._sockets.get(user_id)
        if conns is not None:
            conns.discard(conn)
            if not conns:
                del self._sockets[user_id]

    def online(self, user_id: int) -> bool:
        """Whether the user has a page open on this process (``WS /api/me/ws``)."""
        return bool(self._sockets.get(user_id))

    def count(self) -> int:
        return sum(len(c) for c in self._sockets.values())

    def deliver(self, payload: str) -> None:
        """A notice from the bus (any process)."""
        try:
            notice = jsonutil.loads(payload)
            if "t" in notice:  # a typed notice for some users (a quick match: app/seeks/)
                self._typed(notice)
                return
            game, version = int(notice["g"]), int(notice["v"])
            turn = set(notice.get("turn") or [])
            users = set(notice.get("users") or []) | turn
        except Exception:
            log.warning("ignored user notice %r", payload[:200])
            return
        mine = {"type": "your_turn", "game": game, "version": version,
                "name": notice.get("name"), "title": notice.get("title"),
                "deadline": notice.get("deadline"), "status": notice.get("status")}
        other = {"type": "game", "game": game, "version": version,
                 "status": notice.get("status"), "your_turn": False}
        if notice.get("about"):  # an invitation and its answers (app/invites.py)
            other.update(about=str(notice["about"]), by=str(notice.get("by") or ""),
                         name=notice.get("name"), title=notice.get("title"))
        texts = {True: jsonutil.dumps_str(mine), False: jsonutil.dumps_str(other)}
        for user_id in users:
            for conn in list(self._sockets.get(user_id, ())):
                tasks.spawn(send_locked(conn, texts[user_id in turn]))

    def _typed(self, notice: dict) -> None:
        """``{"t": type, "users": [ids], ...}``: ``{"type": type, ...}`` (without ``users``) to
        each of those users' pages."""
        users = [int(u) for u in notice.pop("users", None) or []]
        notice["type"] = str(notice.pop("t"))
        text = jsonutil.dumps_str(notice)
        for user_id in users:
            for conn in list(self._sockets.get(user_id, ())):
                tasks.spawn(send_locked(conn, text))
