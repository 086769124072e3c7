"""Hints: the search bot's best answer for a seat's current decision, from that seat's
information only, with the next best ones (``GET /api/games/{id}/hint``, ``app/analysis/``).

The answers are compared as the post-game analysis compares them (:mod:`engine.bots.analysis`:
:func:`~engine.bots.analysis.answer_values`, every world drawn with ``game.determinize``), so a
hint and the analysis of the same decision agree.
"""

from __future__ import annotations

from ..core import rng as _rng
from ..core.state import digest
from .analysis import VALUE, Settings, answer_values, own_line, seat_world
from .evaluation import evaluator_for
from .labels import describe

#: How many other answers a hint lists.
MAX_ALTERNATIVES = 4


def hint(game, state, seat, settings=None) -> dict:
    """The bot's best answer for ``seat``'s current decision, from ``seat``'s view only (every
    world from ``game.determinize``): ``{"action", "value", "reason": {"key", "params"},
    "label", "line", "alternatives": [{"action", "value", "label"}, ...]}`` (``line``: greedy's
    own follow-ups after the answer, as in an entry's ``best_line``; alternatives: at most
    :data:`MAX_ALTERNATIVES` other compared answers, best first).

    Reasons: ``analysis.reason.forced`` (one legal answer), ``analysis.reason.clear`` (no
    other answer worth comparing), ``analysis.reason.better`` with ``gain`` (value over the
    next best answer, VP-like), ``alternative`` (that answer's label) and ``playouts`` (0:
    greedy's look inside a chained move). ``ValueError`` if the seat owes no decision."""
    settings = settings or Settings()
    # seeded by the seat's view: the same position (as the seat sees it) gets the same hint
    rng = {"rng": _rng.seed_to_int(f"{settings.seed}:hint:{digest(game.view(state, seat))}")}
    legal, idx, vals, chained = answer_values(game, state, seat, None, settings, rng)
    order = sorted(range(len(idx)), key=lambda k: (-vals[k], k))
    best = legal[idx[order[0]]]
    world = seat_world(game, state, seat)
    line = [] if chained or len(legal) == 1 or world is None else \
        own_line(game, evaluator_for(game, VALUE), world, seat, best)
    label = describe(game, world, seat, best, line=line)
    alts = [{"action": legal[idx[k]], "value": round(vals[k], 3),
             "label": describe(game, world, seat, legal[idx[k]])}
            for k in order[1:1 + MAX_ALTERNATIVES]]
    if len(legal) == 1:
        reason = {"key": "analysis.reason.forced", "params": {}}
    elif not alts:
        reason = {"key": "analysis.reason.clear", "params": {}}
    else:
        # the gain over the next best answer, in the evaluation's units (VP-like)
        reason = {"key": "analysis.reason.better", "params": {
            "gain": round(vals[order[0]] - vals[order[1]], 1), "alternative": alts[0]["label"],
            "playouts": 0 if chained else settings.playouts}}
    return {"action": best, "value": round(vals[order[0]], 3), "reason": reason,
            "label": label, "line": line, "alternatives": alts}


__all__ = ["MAX_ALTERNATIVES", "hint"]
