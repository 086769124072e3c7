"""Take-backs and the end of a turn: undo one decision, restart the turn, confirm the turn.

Confirm turn (issue #30; docs/architecture.md, "Confirm turn"): when a player's last decision
of a turn lands, the player asked for it (the move's ``hold``) and the player's preference
``confirm_turn`` is on, the turn is *held*: the decision is stored as usual (the engine state
is the one after it), but the game row's ``held_seat`` names the seat and ``waiting_for`` is
that seat alone. Nobody else may act, bots do not move, the clock of the next seat does not
start and no "your turn" notice goes out until :meth:`Turns.confirm` (a log row of kind
``"confirm"``, no engine move) passes the turn: then all of that happens, as after an
ordinary move. :meth:`Turns.restart` takes back every decision of the turn that revealed
nothing hidden (one ``"undo"`` row back to the turn's start). A held turn whose time runs out
is confirmed by the clock sweep (:meth:`Turns.confirm` with ``auto``).

Each is one new version, so of concurrent confirms and restarts exactly one wins (the others
get 409 ``stale_version``, or ``nothing_to_confirm`` if they were sent for the new version).
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Any

from .. import clock as clock_mod, times
from ..auth import UserInfo
from ..frame import Frame
from ..history import NO_MOVE
from ..refusal import Refusal, say
from .cache import Accepted, Cached
from .checks import dumped
from .moves import Moves, stale
from .store import Move

log = logging.getLogger("menagerie.games")

NOTHING_TO_UNDO = say("cannot_undo")


class Turns:
    def __init__(self, moves: Moves) -> None:
        self.moves = moves
        self.ctx = moves.ctx

    # ------------------------------------------------------------------ take-backs

    async def undo(self, game_id: int, version: int, user: UserInfo, *,
                   whole_turn: bool = False) -> Accepted:
        """Take back the caller's latest decision (``whole_turn``: every decision of the
        turn back to the last information barrier): a new version whose state is the one
        before it (a snapshot is stored with it). A held turn is no longer held after it."""
        moves = self.moves
        async with self.ctx.locks.hold(game_id):
            c = await moves.fresh(game_id, version)
            if c.seat_of(user.id) is None:
                raise Refusal("no_seat", say("no_seat"))
            if c.status != "running" or c.state is None:
                raise Refusal("not_running", say("not_running"))
            c, seat = await moves.player_seat(c, game_id, user)
            if version != c.version:
                raise stale(c.version)
            game = c.game
            depth = game.undo_depth(c.state, seat)
            if depth == 0:
                raise Refusal("cannot_undo", NOTHING_TO_UNDO)
            target, undone, clock_before = await self.undo_target(game_id, c.version, seat)
            for _ in range(depth - 1 if whole_turn else 0):
                try:  # back to the turn's start: the seat's own decisions only
                    target, undone, clock_before = await self.undo_target(game_id, target,
                                                                          seat)
                except Refusal:
                    break
            _, restored = await moves.frames.state_at(game_id, target)
            new_version = c.version + 1
            data = {"seat": seat, "to": target, "undone": undone}
            if whole_turn:
                data["restart"] = True
            events = [{"kind": "undo", "data": data}]
            waiting = sorted(game.waiting_for(restored))
            now = times.utcnow()
            clock, deadline = c.clock, None
            if c.time_control and c.clock is not None:
                if clock_before is not None:
                    # the clock exactly as it was before the decision: the bank without the
                    # increment, the same wait start and deadline (only the seats' set of
                    # people, which a hand-over to the bot may have changed since, is current)
                    clock, deadline = clock_mod.rearm(c.time_control, clock_before, waiting,
                                                      c.timed(), now)
                else:  # a decision logged before clocks were kept with it
                    clock, deadline = clock_mod.advance(c.time_control, c.clock, seat, "undo",
                                                        c.waiting, waiting, c.timed(), now)
            notice = moves.notice(c, new_version, [], "running", deadline)
            await moves.store(c, Move(seat, {"undo": target}, events, new_version,
                                      dumped(game, restored), waiting, "running", None, True,
                                      clock, deadline, "undo", notice, now,
                                      clock_before=c.clock))
            frame = Frame(game, new_version, restored, events,
                          clock_mod.public(c.time_control, clock), users=c.users)
            self.ctx.cache.put(replace(c, version=new_version, state=restored,
                                       status="running", waiting=waiting, frame=frame,
                                       clock=clock, held=None))
        self.ctx.hub.publish_local(frame, game_id)
        log.info("game %s: seat %s took back to version %s", game_id, seat, target)
        if set(c.bots).intersection(waiting):
            self.ctx.signals.emit_bot_turn(game_id)
        return Accepted(game_id, new_version, seat, restored, events, frame)

    async def undo_target(self, game_id: int, version: int,
                          seat: int) -> tuple[int, int, dict[str, Any] | None]:
        """(the version whose state a take-back at ``version`` returns to, the version of the
        decision it takes back, the clock just before that decision).

        The current state was made by the decision logged at ``version``, or, when that row is
        itself a take-back of version T, it is T's state again: then the decision before T's
        is the one to take back (two take-backs in a row go two decisions back, never forward
        again); a confirm changed no state, the row before it made it. A decision the platform
        made for a player whose time ran out (``auto``) is not the player's to take back: its
        deadline would pass again at once; another seat's decision neither."""
        v = version
        while v > 0:
            row = await self.ctx.store.log_entry(game_id, v)
            if row is None:  # pragma: no cover - the log has no holes
                break
            if row.kind == "undo":
                v = int((row.action or {}).get("undo", v - 1))
                continue
            if row.kind in NO_MOVE:
                raise Refusal("cannot_undo", NOTHING_TO_UNDO)
            if row.kind != "move":
                raise Refusal("cannot_undo",
                               say("cannot_undo.auto"))
            if row.seat != seat:
                raise Refusal("cannot_undo", NOTHING_TO_UNDO)
            return v - 1, v, row.clock_before
        raise Refusal("cannot_undo", NOTHING_TO_UNDO)  # pragma: no cover

    # ------------------------------------------------------------------ confirm

    async def confirm(self, game_id: int, version: int, user: UserInfo | None = None, *,
                      auto_seat: int | None = None) -> Accepted:
        """Pass the held turn of the caller's seat (``auto_seat``: the clock sweep, for a seat
        whose time ran out while its turn was held): the next seats owe their decisions now,
        their clocks start, bots are woken and the notices go out."""
        moves = self.moves
        async with self.ctx.locks.hold(game_id):
            c = await moves.fresh(game_id, version)
            if user is not None:
                c, seat = await moves.player_seat(c, game_id, user)
                kind = "move"
            else:
                seat, kind = int(auto_seat or 0), "auto"
                if seat not in clock_mod.expired(c.clock, c.waiting, c.timed(),
                                                 times.utcnow()):
                    raise Refusal("not_expired", say("not_expired"))
            if c.status != "running" or c.state is None:
                raise Refusal("not_running", say("not_running"))
            if version != c.version:
                raise stale(c.version)
            self._check_held(c, seat)
            game, state = c.game, c.state
            new_version = c.version + 1
            waiting = sorted(game.waiting_for(state))
            now = times.utcnow()
            clock, deadline = moves.next_clock(c, seat, kind, waiting, "running", now)
            turn_users, notice = moves.turn_notice(c, seat, waiting, "running", new_version,
                                                   deadline)
            outbox = moves.sets_off(c, new_version, "running", turn_users, deadline)
            action = {"confirm": seat, **({"auto": True} if user is None else {})}
            events = [{"kind": "confirm", "data": {"seat": seat, "auto": user is None}}]
            snapshot = new_version % self.ctx.settings.snapshot_every == 0
            await moves.store(c, Move(seat, action, events, new_version, dumped(game, state),
                                      waiting, "running", None, snapshot, clock, deadline,
                                      "confirm", notice, now, clock_before=c.clock,
                                      outbox=outbox))
            frame = Frame(game, new_version, state, events,
                          clock_mod.public(c.time_control, clock), users=c.users)
            self.ctx.cache.put(replace(c, version=new_version, waiting=waiting, frame=frame,
                                       clock=clock, held=None))
        self.ctx.hub.publish_local(frame, game_id)
        if outbox is not None:
            self.ctx.signals.wake_outbox()
        if set(c.bots).intersection(waiting):
            self.ctx.signals.emit_bot_turn(game_id)
        return Accepted(game_id, new_version, seat, state, events, frame)

    @staticmethod
    def _check_held(c: Cached, seat: int) -> None:
        if c.held is None:
            raise Refusal("nothing_to_confirm", say("nothing_to_confirm"))
        if c.held != seat:
            raise Refusal("not_your_turn_to_confirm",
                          say("not_your_turn_to_confirm"))
