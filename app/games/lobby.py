"""The lobby: create a game, join a seat, start it (the dealt state is version 0).

A game's seats change only while it is open; starting deals the state, stores snapshot 0,
arms the clock of a timed game and tells the players whose turn it is. When a bot owes the
first decision the ``bot_turn`` signal says so.
"""

from __future__ import annotations

import logging
import secrets
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import engine
from engine.bots import bot_kinds
from engine.core import IllegalAction

from .. import clock as clock_mod, jsonutil, quotas, times
from ..auth import UserInfo
from ..db import Duplicate
from ..frame import Frame
from ..history import engine_game
from ..refusal import InvalidInput, Refusal, say
from ..signals import YourTurn
from .checks import MAX_JSON_DEPTH, depth
from .context import GameContext
from .reads import Reads

log = logging.getLogger("menagerie.games")


@dataclass(frozen=True)
class Deal:
    """A game the server deals itself (the daily challenge, ``app/daily/``): its ``seed`` is the
    server's, not a random one; it stays private to its seated players until ``sealed_until``
    (``app/redaction.py``); ``source`` says what made it (never rated: ``app/ratings.py``);
    ``also(session, game_id)`` writes rows in the game's own transaction (a constraint on them
    refuses the game too: :class:`~app.db.Duplicate`). No quota applies: the caller bounds these."""

    seed: str
    source: str
    sealed_until: datetime | None = None
    also: Callable[[Any, int], None] | None = None


class Lobby:
    def __init__(self, ctx: GameContext, reads: Reads) -> None:
        self.ctx = ctx
        self.reads = reads

    async def create(self, user: UserInfo, name: str, seats: int, options: dict,
                     bots: list[int], bot_kind: str, time_control: dict | None = None,
                     deal: Deal | None = None, *, hints: bool = False,
                     invited: tuple[int, ...] = (), unlisted: bool = False,
                     also: Callable[[Any, int], None] | None = None) -> dict:
        """Open a game; the creator sits in seat 0. ``invited``: user ids whose seats are kept
        for them (the lowest seats that are not bots'), until they accept or decline
        (app/invites.py); ``unlisted``: only invited players may take a seat, and it is in no
        public list; ``also(session, game_id)``: more rows stored with it (the invitation notice)."""
        try:
            game = engine.get_game(name)
        except KeyError:
            raise Refusal("unknown_game", say("unknown_game", name=repr(name))) from None
        if depth(options) > MAX_JSON_DEPTH:
            raise Refusal("bad_options", say("bad_options.nested"))
        if bot_kind not in bot_kinds():
            raise Refusal("unknown_bot",
                          say("unknown_bot", name=repr(bot_kind), choices=bot_kinds()))
        seed = deal.seed if deal is not None else secrets.token_hex(16)
        try:
            game.setup(seats, options, seed)  # validates seats and options (BadSetup)
            normalized = game.normalize_options(options)
        except IllegalAction as exc:
            raise InvalidInput(exc.code, exc.message) from None
        except Exception:
            log.warning("setup of %s refused options %r", name, options, exc_info=True)
            raise Refusal("bad_options",
                          say("bad_options")) from None
        if time_control is not None and time_control.get("bot", clock_mod.DEFAULT_BOT) not in bot_kinds():
            raise Refusal("unknown_bot",
                          say("unknown_bot", name=repr(time_control.get("bot")), choices=bot_kinds()))
        if len(set(bots)) != len(bots) or any(not 1 <= b < seats for b in bots):
            raise Refusal("bad_bots",
                          say("bad_bots", max=seats - 1))
        now = times.utcnow()
        fields = dict(game=name, options=normalized, seed=seed, seat_count=seats, status="open",
                      version=0, state=None, waiting_for=[], created_by=user.id,
                      created_at=now, updated_at=now, time_control=time_control,
                      hints=bool(hints) and deal is None)
        free = [seat for seat in range(1, seats) if seat not in bots]
        if len(invited) > len(free):
            raise Refusal("too_many_invites",
                          say("too_many_invites.free", free=len(free)),
                          limit=len(free))
        kept = dict(zip(free, invited))
        fields["unlisted"] = bool(unlisted) and deal is None
        seat_rows = [dict(seat=seat, user_id=user.id if seat == 0 else kept.get(seat),
                          bot=bot_kind if seat in bots else None, invited=seat in kept)
                     for seat in range(seats)]
        if deal is not None:
            game_id = await self.ctx.store.insert_game(
                {**fields, "source": deal.source, "sealed_until": deal.sealed_until},
                seat_rows, also=deal.also)
        else:
            game_id = await self.ctx.store.insert_game(
                fields, seat_rows,
                quota=lambda active, bot_seats: quotas.check_new_game(
                    self.ctx.settings, active, bot_seats, Counter({bot_kind: len(bots)}),
                    time_control), also=also)
        return await self.reads.summary(game_id, user)

    async def join(self, user: UserInfo, game_id: int, seat: int | None) -> tuple[int, dict]:
        async with self.ctx.store.lobby(game_id) as tx:
            row = tx.row
            if row.status != "open":
                raise Refusal("not_open", say("not_open"))
            seats = await tx.seats()
            mine = [x.seat for x in seats if x.user_id == user.id]
            if mine:
                raise Refusal("already_seated", say("already_seated.seat", seat=mine[0]),
                              seat=mine[0])
            if row.unlisted:  # its seats are the invited players' (app/invites.py)
                raise Refusal("not_invited", say("not_invited.game"))
            free = [x.seat for x in seats if x.user_id is None and x.bot is None]
            if seat is not None:
                if not 0 <= seat < row.seat_count:
                    raise Refusal("bad_seat",
                                  say("bad_seat", max=row.seat_count - 1))
                if seat not in free:
                    raise Refusal("seat_taken", say("seat_taken", seat=seat))
            elif not free:
                raise Refusal("game_full", say("game_full"))
            else:
                seat = free[0]
            if not await tx.take_seat(seat, user.id):  # pragma: no cover - the row lock
                raise Refusal("seat_taken", say("seat_taken", seat=seat))
            row.updated_at = times.utcnow()
            self.ctx.cache.drop(game_id)
            await tx.seats_changed()
            try:
                await tx.commit()
            except Duplicate:  # pragma: no cover - same user joining twice at once
                raise Refusal("already_seated", say("already_seated")) from None
        return seat, await self.reads.summary(game_id, user)

    async def start_if_ready(self, game_id: int) -> None:
        """Start an open game (a rematch, an invitation game) once every seat is taken and
        nobody is still invited: its creator's start."""
        row = await self.ctx.store.start_check(game_id)
        if row is None or row.status != "open" or row.pending or row.created_by is None:
            return
        try:
            await self.start(UserInfo(row.created_by, row.username), game_id)
        except Refusal as exc:
            if exc.code != "not_open":  # another accept started it a moment earlier
                raise

    async def start(self, user: UserInfo, game_id: int) -> dict:
        async with self.ctx.store.lobby(game_id) as tx:
            row = tx.row
            if row.created_by != user.id:
                raise Refusal("not_creator",
                              say("not_creator"))
            if row.status != "open":
                raise Refusal("not_open", say("not_open"))
            seats = await tx.seats()
            empty = [x.seat for x in seats if x.user_id is None and x.bot is None]
            if empty:
                raise Refusal("seats_empty",
                              say("seats_empty", seats=', '.join(map(str, empty))))
            if any(x.invited for x in seats):
                raise Refusal("seats_invited",
                              say("seats_invited"))
            game = engine_game(row.game)
            state = game.setup(row.seat_count, row.options, row.seed)
            dumped = game.dump(state)
            result = game.result(state)
            row.state = dumped
            row.version = 0
            row.waiting_for = sorted(game.waiting_for(state))
            row.status = "finished" if result is not None else "running"
            row.result = result
            row.updated_at = now = times.utcnow()
            tx.add_snapshot(0, dumped)
            bot_seats = {x.seat for x in seats if x.bot is not None}
            people = {x.seat: x.user_id for x in seats if x.user_id is not None}
            if row.time_control and row.status == "running":
                row.clock, row.turn_deadline = clock_mod.start(
                    row.time_control, row.seat_count, row.waiting_for, set(people), now)
                # the players' vacations stop their clocks here too (app/games/pauses.py)
                for uid, off in (await tx.vacations(people.values(), now)).items():
                    row.clock, row.turn_deadline = clock_mod.with_vacations(
                        row.time_control, row.clock,
                        [s for s, u in people.items() if u == uid], off, row.waiting_for,
                        set(people), now)
            tc, clock_now, deadline = row.time_control, row.clock, row.turn_deadline
            self.ctx.cache.drop(game_id)
            waiting = list(row.waiting_for)
            turn = sorted(people[s] for s in waiting if s in people)
            notice = jsonutil.dumps_str({
                "g": game_id, "v": 0, "name": row.game, "title": game.title, "turn": turn,
                "users": sorted(people.values()), "status": row.status,
                "deadline": clock_mod.iso(deadline)})
            await tx.announce(0, notice)
            if turn:
                tx.set_off("your_turn", 0, YourTurn(game_id, 0, row.game, game.title,
                                                    tuple(turn), clock_mod.iso(deadline))
                           .payload())
            await tx.commit()
        self.ctx.hub.publish_local(Frame(game, 0, state, [], clock_mod.public(tc, clock_now),
                                         users={u: seat for seat, u in people.items()}),
                                   game_id)
        if turn:
            self.ctx.signals.wake_outbox()
        if bot_seats.intersection(waiting):
            self.ctx.signals.emit_bot_turn(game_id)
        return await self.reads.summary(game_id, user)
