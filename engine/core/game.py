"""The game contract every Menagerie game implements.

A game is data plus moves plus views (the boardgame.io idea): the state is JSON data, an action
is a JSON dict answering the current decision of one seat, and a view is what one viewer may see.
Subclasses implement the ``_``-prefixed hooks; the public methods add the checks every game
shares (seat owes a decision, action well-formed and legal, input never mutated).

Seats are the integers ``0 .. n-1``. Events are dicts ``{"kind": str, "data": dict}``; an event
that only some seats may see carries ``"only": [seat, ...]`` (see :func:`events_for`).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, MutableMapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from . import cow
from .errors import BadSetup, BadState, IllegalAction
from .state import canonical_json, clone, digest

State = dict[str, Any]
Action = dict[str, Any]
Event = dict[str, Any]


@dataclass(frozen=True)
class Option:
    """One setup option of a game, as shown by ``describe()``."""

    name: str
    default: Any
    description: str
    choices: tuple[Any, ...] | None = None
    type: str = "choice"
    #: the seat counts it matters for (None: all); a client offers it only for those
    seats: tuple[int, ...] | None = None

    def as_dict(self) -> dict[str, Any]:
        out = {"name": self.name, "type": self.type, "default": self.default,
               "description": self.description}
        if self.choices is not None:
            out["choices"] = list(self.choices)
        if self.seats is not None:
            out["seats"] = list(self.seats)
        return out


@dataclass
class Game:
    """Base class: the shared half of the engine contract."""

    name: str = ""
    title: str = ""
    min_seats: int = 2
    max_seats: int = 4
    options: tuple[Option, ...] = field(default_factory=tuple)
    #: bump when the state layout changes incompatibly; ``load`` refuses other versions
    state_format: int = 1
    #: the lists of dicts that ``apply`` copies key by key, on first access, like the state
    #: itself: ``{key: the same spec for those dicts}`` (see :mod:`.cow`; a class attribute)
    lazy_lists: ClassVar[dict[str, Any]] = {}

    # ----------------------------------------------------------------- description
    def describe(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "title": self.title,
            "seats": {"min": self.min_seats, "max": self.max_seats},
            "options": [o.as_dict() for o in self.options],
        }

    def catalog(self) -> dict[str, Any]:
        return {}

    def prepare(self) -> None:
        """Fill the game's lasting caches now (a server calls it at start), so that no player's
        first move in a process pays for them. Pure: changes no state, returns nothing."""

    # ----------------------------------------------------------------- setup
    def normalize_options(self, options: dict[str, Any] | None) -> dict[str, Any]:
        """Fill defaults and refuse unknown or invalid options (``bad_options``)."""
        options = dict(options or {})
        known = {o.name: o for o in self.options}
        unknown = sorted(set(options) - set(known))
        if unknown:
            raise BadSetup("bad_options", f"Unknown option(s): {', '.join(unknown)}.")
        out = {}
        for name, opt in known.items():
            value = options.get(name, opt.default)
            # the same JSON value: 20.0 is not 20 and true is not 1
            if opt.choices is not None and not any(
                    type(value) is type(c) and value == c for c in opt.choices):
                raise BadSetup("bad_options", f"Option {name!r} must be one of {list(opt.choices)}.")
            out[name] = value
        return out

    def setup(self, seats: int, options: dict[str, Any] | None = None,
              seed: int | str = 0) -> State:
        """A new game for ``seats`` players; the same arguments give the same state."""
        if isinstance(seats, bool) or not isinstance(seats, int) or not (
            self.min_seats <= seats <= self.max_seats
        ):
            raise BadSetup("bad_seats",
                           f"{self.title or self.name} takes {self.min_seats} to {self.max_seats} seats.")
        state = self._setup(seats, self.normalize_options(options), seed)
        state["game"] = self.name
        state["format"] = self.state_format
        return state

    # ----------------------------------------------------------------- decisions
    def waiting_for(self, state: State) -> set[int]:
        """Seats that owe a decision now; empty when the game is over."""
        return set(self._waiting_for(state))

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        """Every legal answer to ``seat``'s current decision (empty if it owes none)."""
        if seat not in self._waiting_for(state):
            return []
        return self._legal_actions(state, seat)

    def check(self, state: State, seat: int, action: Any) -> None:
        """Raise :class:`IllegalAction` unless ``seat`` may play ``action`` now."""
        self._check_shape(state, seat, action)
        if self._accepts(state, seat, action):
            return
        self._check_listed(state, seat, action)

    def check_by_listing(self, state: State, seat: int, action: Any) -> None:
        """:meth:`check` without the direct checks of :meth:`_accepts`: the action is looked
        up among every legal answer (the reference the direct checks are tested against)."""
        self._check_shape(state, seat, action)
        self._check_listed(state, seat, action)

    def _check_shape(self, state: State, seat: Any, action: Any) -> None:
        """The game runs, ``seat`` owes a decision and ``action`` is a dict with a str type."""
        if self._result(state) is not None:
            raise IllegalAction("game_over", "The game is over.")
        if isinstance(seat, bool) or not isinstance(seat, int) or \
                seat not in self._waiting_for(state):
            raise IllegalAction("not_your_turn", f"Seat {seat} has no decision to make now.")
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise IllegalAction("malformed", 'An action is a JSON object with a "type".')

    def _check_listed(self, state: State, seat: int, action: dict[str, Any]) -> None:
        legal = self._legal_actions(state, seat)
        # compare as canonical JSON: 7.0 is not 7 and true is not 1 here
        try:
            wanted = canonical_json(action)
        except TypeError:
            raise IllegalAction("malformed", "An action must be plain JSON.") from None
        kind = action["type"]
        if not any(a.get("type") == kind and canonical_json(a) == wanted for a in legal):
            raise self._explain_illegal(state, seat, action, legal)

    def apply(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        """Play ``action`` for ``seat``; returns the new state and the events.

        Never mutates ``state``. Raises :class:`IllegalAction` for anything not legal. The new
        state shares the parts the action did not touch with ``state`` (:mod:`.cow`): treat
        states as values, and ``clone`` one before changing it in place.
        """
        self.check(state, seat, action)
        return self.apply_checked(state, seat, action)

    def apply_checked(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        """:meth:`apply` for an ``action`` known to be legal (one of ``legal_actions``): the
        same result, without the check. ``state`` is never mutated."""
        before = self._before(state)
        view = cow.begin(state, self.lazy_lists)
        events = self._apply(view, seat, cow.deep(action))
        new = cow.finish(view)
        self._mark_undo(before, new, seat, events)
        return new, events

    def apply_in_place(self, state: State, seat: int, action: Action, *,
                       checked: bool = False) -> list[Event]:
        """:meth:`apply` for a caller that owns ``state``: the rules change ``state`` itself
        (nothing is copied) and the events are returned. The result is the state ``apply``
        would return (same hash, same undo marks).

        *Owns* means nothing else holds ``state`` or any part of it: a state returned by
        :meth:`apply` shares parts with its input, so ``clone`` one (or take it from
        ``load``/``setup``/``determinize``) before changing it here. The action is copied (the
        rules may keep parts of it). ``checked=True`` skips the check, for an answer taken from
        :meth:`legal_actions`. If the check refuses, ``state`` is unchanged; if the rules
        themselves raise (a bug), ``state`` is half changed and must be thrown away.
        """
        if not checked:
            self.check(state, seat, action)
        before = self._before(state)
        events = self._apply(state, seat, cow.deep(action))
        self._mark_undo(before, state, seat, events)
        return events

    def simulate(self, state: State, seat: int, action: Action, *,
                 in_place: bool = False) -> State:
        """The rules alone, for searches (bots, analysis): ``action`` (one of
        :meth:`legal_actions`) is not checked and no take-back marks are written, so the
        result is for evaluating and searching on, never for play (its ``undo`` mark is
        stale). Returns the new state: a copy-on-access result that shares untouched parts
        with ``state`` (``state`` unchanged), or with ``in_place=True`` ``state`` itself,
        changed (the caller owns it, as for :meth:`apply_in_place`)."""
        if in_place:
            self._apply(state, seat, cow.deep(action))
            return state
        view = cow.begin(state, self.lazy_lists)
        self._apply(view, seat, cow.deep(action))
        return cow.finish(view)

    # ----------------------------------------------------------------- take-backs
    def information_marks(self, state: State) -> Any:
        """Something that changes whenever a move draws or reveals hidden information.

        The default is the generator (any random draw). Games add the sizes of their hidden
        piles (a card drawn from a face-down deck changes no generator) and their pending
        secret answers. Used to place the information barriers of :meth:`undo_depth`.
        """
        return state.get("rng")

    def _before(self, state: State) -> tuple[Any, ...]:
        """What :meth:`_mark_undo` needs of the state before a decision: its undo mark, whether
        several seats owed a decision at once, and its :meth:`information_marks`."""
        return state.get("undo"), len(self._waiting_for(state)) > 1, \
            self.information_marks(state)

    def _mark_undo(self, before: tuple[Any, ...], after: State, seat: int,
                   events: list[Any]) -> None:
        """Record in ``after`` how many of ``seat``'s own last decisions could be taken back
        (``before`` is :meth:`_before` of the state the decision was taken in).

        A decision is an information barrier (nothing before it can be taken back) when it
        drew or revealed anything hidden (:meth:`information_marks` changed), produced an event
        only some seats may see, or answered a decision several seats owed at once (secret
        answers). A decision by another seat ends the previous seat's take-backs.
        """
        prev, several, marks = before
        barrier = (several or any("only" in e for e in events)
                   or self.information_marks(after) != marks)
        if barrier:
            after["undo"] = None
            return
        depth = prev["n"] + 1 if prev and prev["seat"] == seat else 1
        after["undo"] = {"seat": seat, "n": depth}

    def undo_depth(self, state: State, seat: int | None) -> int:
        """How many of ``seat``'s latest decisions may be taken back now (0: none).

        Only the seat that made the latest decisions may take them back, back to the last
        information barrier (see :meth:`_mark_undo`); never once the game is over. Taking back
        one decision means returning to the state before it, whose own depth is one less.
        """
        info = state.get("undo")
        if not info or seat is None or info["seat"] != seat or self._result(state) is not None:
            return 0
        n: int = info["n"]
        return n

    # ----------------------------------------------------------------- views and result
    def view(self, state: State, seat: int | None = None) -> dict[str, Any]:
        """``{"public": ..., "private": ... or None}`` for a seat (None = spectator)."""
        public = self._public_view(state)
        private = None
        if seat is not None and 0 <= seat < self.seat_count(state):
            private = self.private_view(state, seat)
        return {"public": public, "private": private}

    def public_view(self, state: State) -> dict[str, Any]:
        return self._public_view(state)

    def private_view(self, state: State, seat: int) -> dict[str, Any]:
        """What only ``seat`` may see, with ``can_undo``: may it take back its last decision."""
        return {**self._private_view(state, seat), "can_undo": self.undo_depth(state, seat) > 0}

    def result(self, state: State) -> dict[str, Any] | None:
        return self._result(state)

    def hints(self, state: State, seat: int | None) -> dict[str, Any]:
        """Why ``seat``'s options cannot be used now, and what they cost (empty: no hints).

        Presentation help for a table: for the seat's own cards and the public ones, the
        reasons an option is not open now (codes with parameters, put into words by the
        client) and costs after discounts. Built from the rules' own checks, never a second
        copy of them, and like :meth:`private_view` it may show ``seat`` only what ``seat``
        may see (the contract suite checks it does not depend on other seats' secrets).
        ``None`` (a spectator) and games without hints get ``{}``.
        """
        if isinstance(seat, bool) or not isinstance(seat, int) or \
                not 0 <= seat < self.seat_count(state) or self._result(state) is not None:
            return {}
        return self._hints(state, seat)

    def _hints(self, state: State, seat: int) -> dict[str, Any]:
        return {}

    # ----------------------------------------------------------------- determinization
    def determinize(self, state: State, seat: int, rng: MutableMapping[str, Any]) -> State:
        """A copy of ``state`` with everything ``seat`` may not see resampled.

        Used by bots that search (they sample possible worlds; they never see the real state).
        The copy keeps every piece of information ``seat`` can see and resamples the rest
        consistently with it: other seats' hands and secret cards (final-scoring cards, secret
        choices), the order of the deck and of any other hidden pile, the hidden parts of pending
        decision frames, and the game's generator (``state["rng"]``), which is reseeded from
        ``rng``. Rules every game must keep:

        - ``view(result, seat) == view(state, seat)`` exactly, and the result is a legal state
          of the game (the same cards exist, piles keep their sizes);
        - the result depends on ``state`` only through what ``seat`` can see (and on the
          *multiset* of cards hidden from it, never on where they lie): two states that differ
          only in information hidden from ``seat`` give the same result for the same ``rng``;
        - ``rng`` is a dict holding a seeded generator (:mod:`engine.core.rng`); the call
          advances it, never touches ``state`` and uses no other randomness.

        Games without hidden information may return ``clone(state)`` with a reseeded ``"rng"``.
        """
        raise NotImplementedError(f"{self.name} cannot determinize states yet")

    def seat_count(self, state: State) -> int:
        seats: int = state["seats"]
        return seats

    # ----------------------------------------------------------------- persistence
    def dump(self, state: State) -> dict[str, Any]:
        data: dict[str, Any] = clone(state)
        return data

    def load(self, data: dict[str, Any]) -> State:
        if not isinstance(data, dict) or data.get("game") != self.name:
            raise BadState(f"not a {self.name} state")
        if data.get("format") != self.state_format:
            raise BadState(f"{self.name} state format {data.get('format')} is not {self.state_format}")
        state: State = clone(data)
        return state

    def state_hash(self, state: State) -> str:
        return digest(state)

    # ----------------------------------------------------------------- hooks
    def _setup(self, seats: int, options: dict[str, Any], seed: int | str) -> State:
        raise NotImplementedError

    def _waiting_for(self, state: State) -> Collection[int]:
        raise NotImplementedError

    def _legal_actions(self, state: State, seat: int) -> list[Action]:
        raise NotImplementedError

    def _accepts(self, state: State, seat: int, action: dict[str, Any]) -> bool:
        """True if ``action`` (a dict with a str ``type``) is certainly one of ``seat``'s legal
        answers, checked against the decision directly; False: let the listing decide. Only
        ever True for an answer exactly equal (as JSON) to a listed one."""
        return False

    def _apply(self, state: State, seat: int, action: Action) -> list[Event]:
        """Mutate ``state`` (already a private copy) and return the events."""
        raise NotImplementedError

    def _public_view(self, state: State) -> dict[str, Any]:
        raise NotImplementedError

    def _private_view(self, state: State, seat: int) -> dict[str, Any]:
        raise NotImplementedError

    def _result(self, state: State) -> dict[str, Any] | None:
        raise NotImplementedError

    def _explain_illegal(self, state: State, seat: int, action: Action,
                         legal: list[Action]) -> IllegalAction:
        """Say why ``action`` is not among ``legal``; games override for better sentences."""
        kinds = sorted({a["type"] for a in legal})
        if action.get("type") not in kinds:
            return IllegalAction("wrong_decision",
                                 f"Expected one of: {', '.join(kinds)}; got {action.get('type')!r}.")
        return IllegalAction("illegal_action", "That move is not allowed in this position.")


def event(kind: str, only: Iterable[int] | None = None, **data: Any) -> Event:
    """Build an event; ``only`` limits it to some seats (hidden from everyone else)."""
    ev: Event = {"kind": kind, "data": data}
    if only is not None:
        ev["only"] = sorted(only)
    return ev


def events_for(events: Iterable[Event], seat: int | None) -> list[Event]:
    """The events ``seat`` may see (None = spectator), without the ``only`` marker."""
    out = []
    for ev in events:
        only = ev.get("only")
        if only is None:
            out.append(ev)
        elif seat is not None and seat in only:
            out.append({"kind": ev["kind"], "data": ev["data"], "private": True})
    return out
