"""Invitations: a game made for named players (issue #33, item 4).

``POST /api/invitations`` opens a game like ``POST /api/games`` and keeps a seat for each named
player (``seats.invited``: the seat is theirs, nobody else can take it) until they accept or
decline. An *unlisted* game (the default) is in no public list (the lobby, friends' games,
profiles: :func:`app.redaction.listed_for`) for anyone but its players and invitees, and only
an invited player can take a seat (403 ``not_invited`` for anyone else's join). Its page is not
secret: a spectator with its address sees what any spectator sees.

- ``accept``: the seat is the player's; once no seat is empty or invited the game starts by
  itself (the creator's start).
- ``decline``: the seat is free again (in an unlisted game only a new invitation fills it) and
  the creator gets an ``invitation_declined`` notice.
- ``withdraw`` (the creator): an invitation not answered yet is taken back, the seat is free.
- ``invite`` (the creator): more players for the free seats of their open game.

Each invited player gets a ``game_invitation`` notice (in the page, email, push: their
choices apply, switched with "invitation"), queued through the outbox in the transaction that
stores the invitation. Limits: invitations per user per hour (``app/ratelimit.py``, the route
checks it) and invitations waiting for an answer per user at once
(``max_pending_invitations_per_user``, 409 ``invitation_quota``).

The games' tables are the game store's (``app/games/store_invites.py``), which also drops the
cached game whose seats it changed; an invitation game starts by itself through the same check
as a rematch (``GameService.start_if_ready``).
"""

from __future__ import annotations

import logging
from typing import Any

import engine

from . import outbox_store
from .auth import UserInfo
from .db import Database
from .refusal import Refusal, say
from .settings import Settings
from .signals import Notify

log = logging.getLogger("menagerie.invites")

#: most players one request may name
MAX_NAMES = 7


class InviteService:
    def __init__(self, db: Database, games: Any, signals: Any, settings: Settings) -> None:
        self.db = db
        self.games = games  # app.games.GameService
        self.signals = signals
        self.settings = settings

    @property
    def store(self) -> Any:
        return self.games.store

    # ------------------------------------------------------------------ helpers
    async def _users(self, inviter: UserInfo, names: list[str],
                     session: Any = None) -> list[tuple[int, str]]:
        """The named players (id, name) in the order named; refusals for a bad list."""
        keys: list[str] = []
        for name in names:
            key = name.strip().lower()
            if key and key not in keys:
                keys.append(key)
        if not keys:
            raise Refusal("no_invitees", say("no_invitees"))
        if len(keys) > MAX_NAMES:
            raise Refusal("too_many_invites", say("too_many_invites.batch", limit=MAX_NAMES),
                          limit=MAX_NAMES)
        found = await self.store.users_by_key(keys, session)
        out = []
        for key in keys:
            if key not in found:
                raise Refusal("unknown_player", say("unknown_player.name", name=repr(key)),
                              name=key)
            if found[key][0] == inviter.id:
                raise Refusal("self_invite", say("self_invite"))
            out.append(found[key])
        return out

    async def _check_quota(self, inviter: UserInfo, more: int, session: Any = None) -> None:
        """Refuse more invitations than ``max_pending_invitations_per_user`` unanswered."""
        waiting = await self.store.invitations_waiting(inviter.id, session)
        limit = self.settings.max_pending_invitations_per_user
        if waiting + more > limit:
            raise Refusal("invitation_quota",
                          say("invitation_quota.limit", limit=limit),
                          limit=limit)

    @staticmethod
    def _payload(kind: str, game_id: int, name: str, users: list[int], by: str) -> dict:
        return Notify.payload_for(kind, game_id, name, engine.title_of(name), users, by)

    # ------------------------------------------------------------------ create, invite
    async def create(self, user: UserInfo, spec: dict[str, Any], names: list[str],
                     unlisted: bool = True) -> dict:
        """A new game with a seat kept for each named player (see the module docstring)."""
        people = await self._users(user, names)
        await self._check_quota(user, len(people))
        ids = tuple(i for i, _ in people)
        name = spec["game"]
        out = await self.games.create(
            user, name, spec["seats"], spec["options"], spec["bots"], spec["bot"],
            spec["time_control"], hints=spec["hints"], invited=ids, unlisted=unlisted,
            also=lambda s, gid: outbox_store.notice(s, gid, self._payload(
                "game_invitation", gid, name, list(ids), user.username)))
        self.signals.wake_outbox()
        await self.games.tell_users(out["id"], name, list(ids), "invitation", user.username)
        log.info("game %s: %s invited %s", out["id"], user.username,
                 ", ".join(n for _, n in people))
        return out

    async def invite(self, user: UserInfo, game_id: int, names: list[str]) -> dict:
        """More invited players for the free seats of the creator's open game."""

        async def choose(session: Any) -> list[tuple[int, str]]:
            people = await self._users(user, names, session)
            await self._check_quota(user, len(people), session)
            return people

        name, invited = await self.store.add_invitations(
            game_id, user.id, choose,
            lambda game, users: self._payload("game_invitation", game_id, game, users,
                                              user.username))
        await self.games.tell_users(game_id, name, invited, "invitation", user.username)
        return await self.games.summary(game_id, user)

    # ------------------------------------------------------------------ answers
    async def accept(self, user: UserInfo, game_id: int) -> dict:
        """Take the kept seat; the game starts once nobody is left to wait for."""
        done = await self.store.answer_invite(game_id, user.id, accept=True)
        creator = done.created_by
        await self.games.tell_users(game_id, done.game,
                                    [*done.others, *([creator] if creator else [])],
                                    "accepted", user.username)
        await self.games.start_if_ready(game_id)
        return await self.games.summary(game_id, user)

    async def decline(self, user: UserInfo, game_id: int) -> dict:
        """Give the kept seat back; the creator is told."""
        done = await self.store.answer_invite(
            game_id, user.id, accept=False,
            declined=lambda game, users: self._payload("invitation_declined", game_id, game,
                                                       users, user.username))
        self.signals.wake_outbox()
        creator = done.created_by
        await self.games.tell_users(game_id, done.game, [creator] if creator else [],
                                    "declined", user.username)
        log.info("game %s: %s declined the invitation", game_id, user.username)
        return await self.games.summary(game_id, user)

    async def withdraw(self, user: UserInfo, game_id: int, name: str) -> dict:
        """The creator takes back an invitation not answered yet: the seat is free."""
        done = await self.store.withdraw_invite(game_id, user.id, name)
        await self.games.tell_users(game_id, done.game,
                                    [done.user_id] if done.user_id else [], "withdrawn",
                                    user.username)
        return await self.games.summary(game_id, user)

    # ------------------------------------------------------------------ lists
    async def pending(self, user: UserInfo) -> dict[str, list[dict]]:
        """``received``: open games where a seat waits for the caller's answer; ``sent``: the
        caller's open games with invitations not answered yet."""
        received, sent = await self.store.invitation_games(user.id)
        return {"received": await self.games.summaries_of(received, user),
                "sent": await self.games.summaries_of(sent, user)}
