"""The analysis' measure of a zoo-builder position: the expected **final margin** in VP.

The bots maximize a utility (``engine/arknova/evaluate.py``: projected margin, +-20 once the
game is over; ``learned.py``: the learned margin plus +-20 and a tempo term scaled by the win
chance). Neither is a margin: a move that ends the game jumped by the +-20 (and the learned
tempo's +-60), and the win-chance terms swing by tens of points for a few VP near the end. The
analysis compared such values of different answers' playouts and charged single moves up to
-94 "VP". It measures its leaves with :func:`margin` instead (registered as the
``arknova:margin`` evaluator variant, :func:`engine.bots.evaluation.evaluator_for`):

- a finished game: the exact final margin (score minus the best other seat's; solo: the score),
  no bonus;
- otherwise: the hand-weighted projection (``evaluate.value``: projected final points minus
  the best other seat's, no bonus). The learned value's predicted margin
  (``learned.predicted_margin``, fitted to final margins, no bonus, no tempo) was tried here
  first: it is calibrated on whole games but too coarse to tell one move from another (the hand
  is worth 0 early, ...) and missed the planted blunder of ``tests/engine/test_analysis.py``.

:data:`SOURCE` switches a live position's margin to the learned one (for when the learned value
finds the planted blunders: on the learned margin they were charged 0.0 and 0.6 VP).

``extra["sigma"]`` is the learned value's residual spread of the final margin (VP), so
``chance(m, sigma)`` turns an expected margin ``m`` into a win chance.
"""

from __future__ import annotations

from ..bots.evaluation import Evaluator
from . import learned
from .evaluate import EVALUATOR as HAND

#: Where a live position's margin comes from: ``"hand"`` (the hand-weighted projection) or
#: ``"learned"`` (the learned value's predicted margin; see the module doc).
SOURCE = "hand"


def final_margin(state: dict, seat: int) -> float:
    """Score minus the best other seat's (solo: the score) of a finished game."""
    from .game import GAME

    res = GAME.result(state)
    if res is None:
        raise ValueError("the game is not over")
    scores = res["scores"]
    best = max((v for s, v in scores.items() if s != seat), default=0)
    return float(scores[seat] - best)


def margin(state: dict, seat: int) -> float:
    """The expected final margin of ``seat`` in VP (see the module doc)."""
    if state["over"]:
        return final_margin(state, seat)
    if SOURCE == "learned":
        return learned.predicted_margin(state, seat)
    return HAND.value(state, seat)


def sigma(seats: int) -> float:
    """The residual spread of the predicted margin (VP) for a table of ``seats``."""
    return float(learned.load()["solo" if seats == 1 else "duel"]["sigma"])


EVALUATOR = Evaluator(
    value=margin, own_followup=HAND.own_followup, shortlist=HAND.shortlist, clone=HAND.clone,
    session=HAND.session, extra={**HAND.extra, "sigma": sigma(2), "sigma_solo": sigma(1),
                                 "margin": True})
