"""Zoocracy, the political animal-party game (``engine.get_game("zoocracy")``).

Rules: ``docs/rules/zoocracy.md``. Numbers: ``data/tables.json``; enclosures, events and action
cards: ``data/enclosures.json``, ``data/events.json``, ``data/cards.json`` (validated on load by
:mod:`.tables` and :mod:`.content`). Where is a rule?

- the round, its phases, hand limit, end of round: :mod:`.rounds`
- 1 presidential election (secret bids, re-bid): :mod:`.president`
- 2 campaign (order, no-tie rule, office markers, negative campaign): :mod:`.campaign`,
  the markers and the scoring of enclosures: :mod:`.board`
- 3 parliamentary election (seats, income, majority): :mod:`.parliament`
- 4 government formation and 6 vote of no confidence: :mod:`.government`
- 5 event: :mod:`.events`; 7 progress: :mod:`.progress`
- action cards, card windows and effects: :mod:`.cards`
- food, cards, goals, seat order, roles: :mod:`.parties`; the winner: :mod:`.scoring`
- bots: :mod:`.determinize` (possible worlds), :mod:`.evaluate` (position value)
"""

from ..core import Plugin
from .game import GAME, Zoocracy


def _evaluate():
    from .evaluate import EVALUATOR
    return EVALUATOR


def _describer():
    from .labels import describe
    return describe


#: the game as one plugin (listed in ``engine/games.json``, registered by ``engine.core``)
PLUGIN = Plugin(GAME, evaluators={"": _evaluate}, describer=_describer)

__all__ = ["GAME", "PLUGIN", "Zoocracy"]
