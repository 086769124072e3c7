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
"""

from __future__ import annotations

import logging
from typing import Any

from sqlalchemy import func, select

import engine

from . import jsonutil
from .auth import UserInfo
from .bus import USER_CHANNEL
from .db import Database
from .models import Game, Seat, User
from .models_delivery import OutboxEvent
from .refusal import Refusal
from .settings import Settings
from .signals import Notify
from .times import utcnow

log = logging.getLogger("menagerie.invites")

#: most players one request may name
MAX_NAMES = 7


class InviteService:
    def __init__(self, db: Database, games: Any, signals: Any, settings: Settings) -> None:
        self.db = db
        self.games = games  # app.games.GameService
        self.signals = signals
        self.settings = settings

    # ------------------------------------------------------------------ helpers
    async def _users(self, s, inviter: UserInfo, names: list[str]) -> list[tuple[int, str]]:
        """The named players (id, name) in the order named; refusals for a bad list."""
        keys: list[str] = []
        for name in names:
            key = name.strip().lower()
            if key and key not in keys:
                keys.append(key)
        if not keys:
            raise Refusal("no_invitees", "Name at least one player to invite.")
        if len(keys) > MAX_NAMES:
            raise Refusal("too_many_invites", f"Invite at most {MAX_NAMES} players at once.",
                          limit=MAX_NAMES)
        found = {k: (i, n) for i, n, k in (await s.execute(
            select(User.id, User.username, User.username_key)
            .where(User.username_key.in_(keys)))).all()}
        out = []
        for key in keys:
            if key not in found:
                raise Refusal("unknown_player", f"There is no player named {key!r}.",
                              name=key)
            if found[key][0] == inviter.id:
                raise Refusal("self_invite", "You cannot invite yourself.")
            out.append(found[key])
        return out

    async def _check_quota(self, s, inviter: UserInfo, more: int) -> None:
        """Refuse more invitations than ``max_pending_invitations_per_user`` unanswered."""
        waiting = await s.scalar(
            select(func.count()).select_from(Seat).join(Game, Game.id == Seat.game_id)
            .where(Game.created_by == inviter.id, Game.status == "open",
                   Seat.invited.is_(True)))
        limit = self.settings.max_pending_invitations_per_user
        if (waiting or 0) + more > limit:
            raise Refusal("invitation_quota",
                          f"At most {limit} of your invitations may wait for an answer.",
                          limit=limit)

    async def _tell(self, game_id: int, name: str, users: list[int], about: str,
                    by: str) -> None:
        """A notice on the user channel: their open pages refresh their lists at once."""
        if users:
            await self.games.bus.publish(USER_CHANNEL, jsonutil.dumps_str({
                "g": game_id, "v": 0, "name": name, "title": engine.title_of(name),
                "turn": [], "users": sorted(set(users)), "status": "open", "about": about,
                "by": by}))

    @staticmethod
    def _notice(kind: str, game_id: int, name: str, users: list[int], by: str) -> OutboxEvent:
        return OutboxEvent(kind="notice", game_id=game_id, version=0,
                           payload=Notify(kind, game_id, name, engine.title_of(name),
                                          tuple(sorted(set(users))), by).payload())

    async def _locked(self, s, game_id: int) -> Game:
        row = (await s.execute(select(Game).where(Game.id == game_id).with_for_update())
               ).scalar_one_or_none()
        if row is None:
            raise Refusal("not_found", "No such game.")
        return row

    # ------------------------------------------------------------------ create, invite
    async def create(self, user: UserInfo, spec: dict[str, Any], names: list[str],
                     unlisted: bool = True) -> dict:
        """A new game with a seat kept for each named player (see the module docstring)."""
        async with self.db.read() as s:
            people = await self._users(s, user, names)
            await self._check_quota(s, user, len(people))
        ids = tuple(i for i, _ in people)
        name = spec["game"]
        out = await self.games.create(
            user, name, spec["seats"], spec["options"], spec["bots"], spec["bot"],
            spec["time_control"], hints=spec["hints"], invited=ids, unlisted=unlisted,
            also=lambda gid: [self._notice("game_invitation", gid, name, list(ids),
                                           user.username)])
        self.signals.wake_outbox()
        await self._tell(out["id"], name, list(ids), "invitation", user.username)
        log.info("game %s: %s invited %s", out["id"], user.username,
                 ", ".join(n for _, n in people))
        return out

    async def invite(self, user: UserInfo, game_id: int, names: list[str]) -> dict:
        """More invited players for the free seats of the creator's open game."""
        async with self.db.write() as s:
            row = await self._locked(s, game_id)
            if row.created_by != user.id:
                raise Refusal("not_creator", "Only the player who created the game can invite.")
            if row.status != "open" or row.source != "play":
                raise Refusal("not_open", "This game has already started.")
            people = await self._users(s, user, names)
            await self._check_quota(s, user, len(people))
            seats = (await s.execute(select(Seat).where(Seat.game_id == game_id)
                                     .order_by(Seat.seat))).scalars().all()
            seated = {x.user_id for x in seats if x.user_id is not None}
            if any(i in seated for i, _ in people):
                raise Refusal("already_seated", "A named player already has a seat here.")
            free = [x for x in seats if x.user_id is None and x.bot is None]
            if len(people) > len(free):
                raise Refusal("too_many_invites",
                              f"Only {len(free)} seats are free for invited players.",
                              limit=len(free))
            for seat, (uid, _) in zip(free, people):
                seat.user_id, seat.invited = uid, True
            row.updated_at = utcnow()
            s.add(self._notice("game_invitation", game_id, row.game,
                               [i for i, _ in people], user.username))
            await self.games.seats_changed(game_id, s)
            await s.commit()
            name = row.game
        await self._after(game_id)
        await self._tell(game_id, name, [i for i, _ in people], "invitation", user.username)
        return await self.games.summary(game_id, user)

    # ------------------------------------------------------------------ answers
    async def _invited_seat(self, s, game_id: int, user: UserInfo) -> tuple[Game, Seat]:
        row = await self._locked(s, game_id)
        seat = (await s.execute(select(Seat).where(Seat.game_id == game_id,
                                                   Seat.user_id == user.id))).scalar_one_or_none()
        if seat is None or not seat.invited:
            raise Refusal("not_invited", "You have no invitation to this game.")
        if row.status != "open":  # pragma: no cover - invitations end when the game starts
            raise Refusal("not_open", "This game has already started.")
        return row, seat

    async def accept(self, user: UserInfo, game_id: int) -> dict:
        """Take the kept seat; the game starts once nobody is left to wait for."""
        async with self.db.write() as s:
            row, seat = await self._invited_seat(s, game_id, user)
            seat.invited = False
            row.updated_at = utcnow()
            others: list[int] = [u for u in (await s.execute(select(Seat.user_id).where(
                Seat.game_id == game_id, Seat.user_id.is_not(None)))).scalars().all()
                if u is not None and u != user.id]
            name, creator = row.game, row.created_by
            await s.commit()
        await self._after(game_id)
        await self._tell(game_id, name, [*others, *([creator] if creator else [])],
                         "accepted", user.username)
        await self._start_if_ready(game_id)
        return await self.games.summary(game_id, user)

    async def decline(self, user: UserInfo, game_id: int) -> dict:
        """Give the kept seat back; the creator is told."""
        async with self.db.write() as s:
            row, seat = await self._invited_seat(s, game_id, user)
            seat.invited, seat.user_id = False, None
            row.updated_at = utcnow()
            if row.created_by is not None:
                s.add(self._notice("invitation_declined", game_id, row.game, [row.created_by],
                                   user.username))
            await self.games.seats_changed(game_id, s)
            name, creator = row.game, row.created_by
            await s.commit()
        await self._after(game_id)
        self.signals.wake_outbox()
        await self._tell(game_id, name, [creator] if creator else [], "declined",
                         user.username)
        log.info("game %s: %s declined the invitation", game_id, user.username)
        return await self.games.summary(game_id, user)

    async def withdraw(self, user: UserInfo, game_id: int, name: str) -> dict:
        """The creator takes back an invitation not answered yet: the seat is free."""
        async with self.db.write() as s:
            row = await self._locked(s, game_id)
            if row.created_by != user.id:
                raise Refusal("not_creator",
                              "Only the player who created the game can withdraw an invitation.")
            if row.status != "open":
                raise Refusal("not_open", "This game has already started.")
            seat = (await s.execute(
                select(Seat).join(User, User.id == Seat.user_id)
                .where(Seat.game_id == game_id, Seat.invited.is_(True),
                       User.username_key == name.strip().lower()))).scalar_one_or_none()
            if seat is None:
                raise Refusal("no_invitation", f"{name!r} has no invitation to this game.",
                              name=name)
            invitee: int = seat.user_id or 0
            seat.invited, seat.user_id = False, None
            row.updated_at = utcnow()
            await self.games.seats_changed(game_id, s)
            game_name = row.game
            await s.commit()
        await self._after(game_id)
        await self._tell(game_id, game_name, [invitee] if invitee else [], "withdrawn",
                         user.username)
        return await self.games.summary(game_id, user)

    async def _after(self, game_id: int) -> None:
        self.games.cache.drop(game_id)
        await self.games.seats_changed(game_id)

    async def _start_if_ready(self, game_id: int) -> None:
        """Start an open game once every seat is taken and nobody is still invited."""
        async with self.db.read() as s:
            row = (await s.execute(select(Game.status, Game.created_by, User.username)
                                   .outerjoin(User, User.id == Game.created_by)
                                   .where(Game.id == game_id))).first()
            pending = await s.scalar(select(Seat.seat).where(
                Seat.game_id == game_id,
                (Seat.invited.is_(True)) | (Seat.user_id.is_(None) & Seat.bot.is_(None)))
                .limit(1))
        if row is None or row.status != "open" or pending is not None or row.created_by is None:
            return
        try:
            await self.games.start(UserInfo(row.created_by, row.username or ""), game_id)
        except Refusal as exc:
            if exc.code != "not_open":  # another accept started it a moment earlier
                raise

    # ------------------------------------------------------------------ lists
    async def pending(self, user: UserInfo) -> dict[str, list[dict]]:
        """``received``: open games where a seat waits for the caller's answer; ``sent``: the
        caller's open games with invitations not answered yet."""
        async with self.db.read() as s:
            received = (await s.execute(
                select(Game).join(Seat, Seat.game_id == Game.id)
                .where(Seat.user_id == user.id, Seat.invited.is_(True), Game.status == "open")
                .order_by(Game.updated_at.desc(), Game.id.desc()).limit(100))).scalars().all()
            sent = (await s.execute(
                select(Game).where(Game.created_by == user.id, Game.status == "open",
                                   Game.id.in_(select(Seat.game_id)
                                               .where(Seat.invited.is_(True))))
                .order_by(Game.updated_at.desc(), Game.id.desc()).limit(100))).scalars().all()
        return {"received": await self.games.summaries_of(list(received), user),
                "sent": await self.games.summaries_of(list(sent), user)}
