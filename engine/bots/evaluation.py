"""Per-game evaluation functions for the searching bots, and the fast simulation step.

A game's plugin (:class:`engine.core.plugin.Plugin`) names its :class:`Evaluator` s by variant;
they are loaded on first use. :func:`register_evaluator` registers one by name (it wins over the
plugin's). Without one, the bots fall back to a value that only knows the final result.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field

import orjson

from ..core.game import Action, Game, State
from ..core.registry import plugin_of
from ..core.state import clone

_EVALUATORS: dict[str, Evaluator] = {}


def _final_value(game: Game, state: State, seat: int) -> float | None:
    res = game.result(state)
    if res is None:
        return None
    scores = res["scores"]
    mine = scores[seat]
    # alone at the table (a solo game), the goal is a score of 0 or more: 0 is the bar
    best_other = max((v for s, v in scores.items() if s != seat), default=0)
    return float(mine - best_other) + (20.0 if mine >= best_other else -20.0)


@dataclass
class Evaluator:
    """How good a state is for one seat, in the game's own units (higher is better).

    - ``value(state, seat)``: the heuristic value; it should be comparable across the states
      a seat's choices lead to (e.g. projected score minus the best opponent's).
    - ``own_followup(state, seat)``: True while ``seat`` is still inside its own chained move
      (greedy looks ahead through these decisions). Default: ``seat`` alone owes a decision.
    - ``shortlist(state, seat, legal, k)``: optionally cut a long list of answers down to the
      ``k`` most promising (placements, for example) before each one is simulated.
    - ``session()``: optionally a context manager the bots enter around a search; inside it
      no state is changed in place, so the evaluator may memoize by identity.
      :func:`searching` enters it (or nothing).
    - ``clone(state)``: optionally a faster deep copy of the game's states (for callers that
      need a whole copy; :func:`step` no longer does: it copies only what a move touches).
    - ``answer(state, seat, action, end)``: optionally a term of the answer itself, added to
      the value of the state it leads to when the one-ply look ranks a decision's answers
      (``greedy.score_answers``; the plan level adds it for each own answer of a line): what
      the answer spends that the position after it does not show (the zoo builder: the
      strength an action card is used at). ``end`` is where the answer's chain ended (the
      seat's own follow-ups answered), or None when not known.
    - ``chain_depth(state, seat, depth)``: optionally how many of the seat's own follow-ups
      the one-ply look follows from ``state`` (``depth``: the bot's own), e.g. to the end of a
      game's last turn, where the value beyond is the final score itself.
    - ``turn(state)``: optionally the number of turns played so far (the plan level answers a
      solo game's first turns as fast does, :attr:`~engine.bots.plan.PlanBot.solo_opening`).
    """

    value: Callable[[State, int], float]
    own_followup: Callable[[State, int], bool] | None = None
    shortlist: Callable[[State, int, list, int], list] | None = None
    clone: Callable[[State], State] | None = None
    extra: dict = field(default_factory=dict)
    session: Callable[[], AbstractContextManager] | None = None
    answer: Callable[[State, int, Action, State | None], float] | None = None
    chain_depth: Callable[[State, int, int], int] | None = None
    turn: Callable[[State], int] | None = None


def searching(ev: Evaluator) -> AbstractContextManager:
    """The evaluator's search scope (:attr:`Evaluator.session`), or a scope that does nothing."""
    return ev.session() if ev.session is not None else nullcontext()


def register_evaluator(name: str, evaluator: Evaluator) -> Evaluator:
    _EVALUATORS[name] = evaluator
    return evaluator


def evaluator_for(game: Game, variant: str | None = None) -> Evaluator:
    """The game's evaluator; ``variant`` (e.g. ``"learned"``) names another one registered as
    ``"{game}:{variant}"``, and falls back to the game's own when there is none."""
    if variant:
        ev = _named(game, variant)
        if ev is not None:
            return ev
    ev = _named(game, "")
    if ev is None:
        ev = _EVALUATORS[game.name] = Evaluator(
            value=lambda state, seat, _g=game: _final_value(_g, state, seat) or 0.0)
    return ev


def _named(game: Game, variant: str) -> Evaluator | None:
    """The evaluator registered as ``game`` (``variant`` empty) or ``"{game}:{variant}"``, else
    the one the game's plugin names (loaded now, kept for next time), else None."""
    name = f"{game.name}:{variant}" if variant else game.name
    ev = _EVALUATORS.get(name)
    if ev is None:
        plugin = plugin_of(game.name)
        load = plugin.evaluators.get(variant) if plugin is not None else None
        if load is not None:
            ev = _EVALUATORS[name] = load()
    return ev


def final_value(game: Game, state: State, seat: int) -> float | None:
    """Score difference to the best other seat (+-20 for winning / losing) once the game is over;
    in a 1-seat game the score itself (+-20 for reaching 0 or not)."""
    return _final_value(game, state, seat)


def fast_clone(data):
    """A deep copy of JSON data through ``orjson`` (about a third faster than the ``marshal``
    round trip of :func:`engine.core.state.clone` on game states); falls back to ``clone`` for
    what JSON cannot carry exactly (integers beyond 64 bits, non-string keys)."""
    try:
        return orjson.loads(orjson.dumps(data))
    except (TypeError, orjson.JSONEncodeError):
        return clone(data)


def step(game: Game, state: State, seat: int, action: Action) -> State:
    """``game.apply`` without the legality check, for answers taken from ``legal_actions``.

    Bots simulate thousands of moves on their own sampled states; re-listing the legal answers
    for every simulated move would double the cost. The input state is not mutated, and not
    copied whole either: the rules change a copy-on-access view of it (:mod:`engine.core.cow`),
    so the new state shares every part the move did not touch with ``state``. No take-back
    marks either (:meth:`Game.simulate`).
    """
    return game.simulate(state, seat, action)
