"""Game records (export, import, replay from a file) and the replay viewer's history.

A **record** is a finished game as plain JSON::

    {"format": "menagerie-record/1", "game": "arknova", "options": {...},
     "seats": [{"seat": 0, "user": "alice"}, {"seat": 1, "bot": "greedy"}],
     "actions": [[seat, action], ...], "result": {...}, "seed": "..."}

``actions`` is the *effective* action list: the log's moves and platform-played ("auto")
decisions, with the decisions taken back by an undo left out, so that
``engine.replay(game, len(seats), options, seed, actions)`` rebuilds the final state.

Only finished games have a record (``GET /api/games/{id}/record`` answers 409
``not_finished`` while a game runs or waits for players): while a game runs, the seed would
let anyone deal the deck, and the other seats' answers may still be secret (simultaneous
bids, votes, kept cards). Once the game is over nothing is hidden any more.

``POST /api/games/import`` takes a record, replays it with the engine (every action must be
legal; the first that is not is refused with 422 and the engine's own code, plus its
``index``), checks the result when the record states one (a record of a game that a
resignation or an abort ended states it in ``result.resigned`` / ``result.aborted``: the
result is then the one :mod:`app.outcome` makes of the log), and stores it as a new finished game
(``games.source = "import"``) with its actions and snapshots, so it can be browsed in the
replay viewer like any other. Seats of an imported game belong to nobody (the names of the
record are kept in ``result["imported"]``); imported games are never rated.

The **history** (``GET /api/games/{id}/history?version=V``) is the game at any version: the
view (public while the game runs; after the end also every seat's private part), the events
of that version, who made it, and the versions where a new break (Ark Nova) or round
(Zoocracy) began, for "jump to break". It is built from the nearest snapshot at or before V
plus the logged actions (undo rows always have a snapshot), and stepping forward one version
at a time reuses the state of the previous request (a small per-process cache).
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from typing import Any

from cachetools import LRUCache

import engine
from engine.bots import bot_kinds
from engine.core import IllegalAction

from . import jsonutil, outcome, redaction
from .auth import UserInfo
from .credentials import valid_username
from .history import effective_actions
from .refusal import InvalidInput, Refusal, not_found, say
from .settings import Settings
from .times import iso, utcnow

log = logging.getLogger("menagerie.records")

FORMAT = "menagerie-record/1"
MAX_ACTIONS = 20_000
MAX_DEPTH = 32
#: event kinds that start a new part of the game, for "jump to break"
MARK_KINDS = ("break", "round")


# --------------------------------------------------------------------------- the log

def _json_equal(a: Any, b: Any) -> bool:
    """Equal as JSON (int dict keys and string keys alike)."""
    return jsonutil.canonical(jsonutil.loads(jsonutil.dumps(a))) == \
        jsonutil.canonical(jsonutil.loads(jsonutil.dumps(b)))


# --------------------------------------------------------------------------- records

def _bad(message: str) -> Refusal:
    return Refusal("bad_record", message)


@dataclass
class Rebuilt:
    """A record replayed with the engine."""

    name: str
    game: Any
    seats: list[dict]
    options: dict
    seed: str
    steps: list[tuple[int, Any, list]] = field(default_factory=list)  # seat, action, events
    snapshots: dict[int, dict] = field(default_factory=dict)
    state: Any = None
    result: dict | None = None


def check_record(record: Any) -> tuple[str, Any, list[dict], dict, str, list[tuple[int, dict]]]:
    """The parts of a record, checked for shape (not yet for legality)."""
    if not isinstance(record, dict):
        raise _bad(say("bad_record.object"))
    if record.get("format") != FORMAT:
        raise _bad(say("bad_record.format", format=repr(FORMAT)))
    name = record.get("game")
    if not isinstance(name, str):
        raise _bad(say("bad_record.no_game"))
    try:
        game = engine.get_game(name)
    except KeyError:
        raise Refusal("unknown_game", say("unknown_game", name=repr(name))) from None
    options = record.get("options", {})
    if not isinstance(options, dict) or jsonutil.depth(options, MAX_DEPTH) > MAX_DEPTH:
        raise _bad(say("bad_record.options"))
    seed = record.get("seed")
    if not isinstance(seed, str) or not 1 <= len(seed) <= 64:
        raise _bad(say("bad_record.seed"))
    seats = record.get("seats")
    if not isinstance(seats, list) or not seats or len(seats) > 64:
        raise _bad(say("bad_record.no_seats"))
    cleaned = []
    for i, entry in enumerate(seats):
        if not isinstance(entry, dict) or entry.get("seat") != i or type(entry.get("seat")) is not int:
            raise _bad(say("bad_record.seat_order"))
        user, bot = entry.get("user"), entry.get("bot")
        if user is not None and not valid_username(user):
            # shown to every viewer of the game: a name like a username (no markup, NUL,
            # terminal escapes or invisible characters)
            raise _bad(say("bad_record.user", seat=i))
        if bot is not None and bot not in bot_kinds():
            raise _bad(say("bad_record.bot", seat=i, bot=repr(bot)))
        if user is not None and bot is not None:
            raise _bad(say("bad_record.both", seat=i))
        cleaned.append({"seat": i, "user": user, "bot": bot})
    actions = record.get("actions")
    if not isinstance(actions, list):
        raise _bad(say("bad_record.actions"))
    if len(actions) > MAX_ACTIONS:
        raise _bad(say("bad_record.too_many", n=MAX_ACTIONS))
    log_: list[tuple[int, dict]] = []
    for i, item in enumerate(actions):
        if (not isinstance(item, list) or len(item) != 2 or type(item[0]) is not int
                or not 0 <= item[0] < len(cleaned) or not isinstance(item[1], dict)
                or jsonutil.depth(item[1], MAX_DEPTH) > MAX_DEPTH):
            raise Refusal("bad_record", say("bad_record.action", index=i), index=i)
        log_.append((item[0], item[1]))
    return name, game, cleaned, options, seed, log_


def rebuild(record: Any, snapshot_every: int = 50) -> Rebuilt:
    """Replay a record with the engine: every action legal, the game over at the end, and the
    result as the record says (when it says one). CPU work: run it in a thread."""
    name, game, seats, options, seed, actions = check_record(record)
    try:
        state = game.setup(len(seats), options, seed)
        options = game.normalize_options(options)
    except IllegalAction as exc:
        raise InvalidInput(exc.code, exc.message) from None
    except Exception:
        raise Refusal("bad_options", say("bad_options")) \
            from None
    out = Rebuilt(name, game, seats, options, seed)
    out.snapshots[0] = game.dump(state)
    for i, (seat, action) in enumerate(actions):
        if game.result(state) is not None:
            raise InvalidInput("game_over", say("game_over.after", index=i),
                               index=i)
        try:
            state, events = game.apply(state, seat, action)
        except IllegalAction as exc:
            raise InvalidInput(exc.code, exc.message, index=i) from None
        except Exception:
            log.warning("record of %s: the engine failed on action %s", name, i, exc_info=True)
            raise Refusal("rejected", say("rejected"),
                          index=i) from None
        out.steps.append((seat, action, events))
        if (i + 1) % snapshot_every == 0:
            out.snapshots[i + 1] = game.dump(state)
    out.state = state
    out.snapshots[len(actions)] = game.dump(state)
    stated = record.get("result")
    if stated is not None and not isinstance(stated, dict):
        raise _bad(say("bad_record.result"))
    out.result = _outcome(game.result(state), stated or {}, len(seats))
    if out.result is None:
        raise InvalidInput("not_finished", say("not_finished.import"))
    if stated is not None:
        keys = [k for k in ("scores", "ranking", "details", "resigned", "aborted")
                if k in stated]
        if not _json_equal({k: out.result.get(k) for k in keys},
                           {k: stated[k] for k in keys}):
            raise Refusal("result_mismatch",
                          say("result_mismatch"))
    return out


def _outcome(engine_result: dict | None, stated: dict, seat_count: int) -> dict | None:
    """The result a record's log gives: the engine's, or what a resignation or an abort made
    of it (the record states them: ``result.resigned``, ``result.aborted``; app/outcome.py)."""
    resigned = stated.get("resigned")
    if not isinstance(resigned, list) or not all(
            type(s) is int and 0 <= s < seat_count for s in resigned) or \
            len(set(resigned)) != len(resigned):
        resigned = []
    aborted = stated.get("aborted")
    if type(aborted) is int and 0 <= aborted < seat_count:
        return outcome.aborted(aborted)
    if engine_result is not None:
        return outcome.with_resignations(engine_result, resigned)
    if resigned and outcome.ends_now([(s, True) for s in range(seat_count)], resigned):
        return outcome.ended_by_resignation(seat_count, resigned)
    return None


# --------------------------------------------------------------------------- the service

class RecordService:
    """Records and the history, over the game service's store (:mod:`app.games.store`: all
    SQL of games, actions and snapshots) and its one way to rebuild a past state."""

    def __init__(self, settings: Settings, games) -> None:
        self.settings = settings
        self.games = games  # app.games.GameService
        self.store = games.store
        #: game id -> (version scanned up to, marks)
        self._marks: LRUCache[int, tuple[int, list[dict]]] = LRUCache(maxsize=256)

    # ------------------------------------------------------------------ export
    async def export(self, game_id: int) -> dict:
        row = await self.store.game_row(game_id, state=False)
        if row is None:
            raise not_found("game")
        redaction.check_sealed(row.sealed_until, False)  # the seed: nobody's yet
        if row.status != "finished":
            raise Refusal("not_finished",
                          say("not_finished.record"))
        seats = await self.store.seat_names(game_id)
        rows = await self.store.all_actions(game_id)
        out_seats = []
        for x in seats:
            entry: dict = {"seat": x.seat}
            if x.bot is not None:
                entry["bot"] = x.bot
            else:
                entry["user"] = x.username
            out_seats.append(entry)
        # (a resignation or an abort: the record states it, the import gives the same result)
        result = {k: v for k, v in (row.result or {}).items()
                  if k in ("scores", "ranking", "details", "resigned", "aborted")}
        # a finished game's answers are open to everybody (app/redaction.py)
        return {"format": FORMAT, "game": row.game, "options": row.options, "seats": out_seats,
                "actions": [[seat, redaction.answer(action, seat, None, finished=True)]
                            for seat, action in effective_actions(rows)],
                "result": result, "seed": row.seed, "id": row.id, "version": row.version,
                "source": row.source}

    # ------------------------------------------------------------------ import
    async def import_record(self, user: UserInfo, record: Any) -> dict:
        built = await asyncio.to_thread(rebuild, record, self.settings.snapshot_every)
        game = built.game
        result = dict(built.result)
        result["imported"] = {"by": user.username,
                              "seats": [{k: v for k, v in x.items() if v is not None}
                                        for x in built.seats]}
        now = utcnow()
        version = len(built.steps)
        gid = await self.store.insert_record(
            {"game": built.name, "options": built.options, "seed": built.seed,
             "seat_count": len(built.seats), "status": "finished", "version": version,
             "state": game.dump(built.state), "waiting_for": [], "result": result,
             "created_by": user.id, "created_at": now, "updated_at": now, "source": "import",
             "rated": False},
            [{"seat": x["seat"], "user_id": None, "bot": x["bot"]} for x in built.seats],
            built.steps, built.snapshots)
        log.info("imported a %s game as %s (%s actions)", built.name, gid, version)
        return await self.games.summary(gid, user)

    # ------------------------------------------------------------------ history
    async def history(self, game_id: int, user: UserInfo | None, version: int | None) -> dict:
        row = await self.store.game_row(game_id, state=False)
        if row is None:
            raise not_found("game")
        if redaction.sealed(row.sealed_until):
            seat = await self.store.seat_of(game_id, user.id) if user is not None else None
            redaction.check_sealed(row.sealed_until, seat is not None)
        if row.status == "open":
            raise Refusal("not_started", say("not_started"))
        last = row.version
        v = last if version is None else version
        if not 0 <= v <= last:
            raise Refusal("bad_version",
                          say("bad_version", last=last), last=last)
        game, state = await self.games.state_at(game_id, v)
        made = await self.store.made(game_id, v) if v > 0 else None
        marks = await self._marks_of(game_id, last)
        finished = row.status == "finished"
        out: dict = {"id": game_id, "game": row.game, "status": row.status, "version": v,
                     "last": last, "seat_count": row.seat_count, "marks": marks,
                     "waiting_for": sorted(game.waiting_for(state)),
                     "seat": made.seat if made is not None else None,
                     "kind": (made.kind or "move") if made is not None else None,
                     "at": iso(made.created_at) if made is not None else None}
        evs = list(made.events or []) if made is not None else []
        out.update(redaction.history(game, state, evs, made.action if made is not None else None,
                                     finished=finished))
        out["result"] = row.result if finished and v == last else None
        return out

    async def _marks_of(self, game_id: int, last: int) -> list[dict]:
        upto, marks = self._marks.get(game_id, (0, []))
        if upto > last:  # pragma: no cover - a game never loses versions
            upto, marks = 0, []
        if upto < last:
            marks = list(marks)
            for r in await self.store.events_between(game_id, upto, last):
                for ev in redaction.public_events(r.events or []):
                    if ev.get("kind") in MARK_KINDS:
                        data = ev.get("data") or {}
                        marks.append({"version": r.version, "kind": ev["kind"],
                                      "number": data.get("number", data.get("round"))})
            self._marks[game_id] = (last, marks)
        return marks


def replay_file(record: Any) -> dict:
    """``menagerie replay --file``: replay a record; the result and the final state hash."""
    built = rebuild(record)
    return {"game": built.name, "actions": len(built.steps),
            "state_hash": built.game.state_hash(built.state), "result": built.result}
