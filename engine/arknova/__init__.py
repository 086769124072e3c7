"""The Ark Nova-style zoo builder (``engine.get_game("arknova")``).

Rules: ``docs/rules/arknova.md``. Numbers: ``data/tables.json``; cards: ``data/cards/``;
maps and buildings: ``data/maps/``, ``data/buildings.json``. Where is a rule?

- a turn, action-card rotation, X tokens, end of turn: :mod:`.turn`
- the five actions: :mod:`.actions` (build, animals, cards, association, sponsors); the
  association board's shared supply of partner zoos and universities, donations:
  :mod:`.actions.association`; the full-map appeal bonus: :mod:`.actions.build`
- projects and release: :mod:`.actions.projects`
- placement (edge, adjacency, kiosk distance): :mod:`.placement`
- the break (supply refill) and kiosk income, the stall guard: :mod:`.breaks`
- setup (2-player blocked project levels and covered donation spaces), views, loading states
  stored before a field existed: :mod:`.game`
- reputation / conservation bonuses, upgrades: :mod:`.gains`
- card abilities by keyword: :mod:`.abilities`; venom, constriction, hypnosis, pilfering:
  :mod:`.interactions`; sponsor triggers: :mod:`.sponsors_fx`
- victory points, final scoring, ties, counters: :mod:`.scoring`
- the solo game (1 seat: the solo tile instead of the break token, the starting appeal, the
  donation spaces covered at breaks, the end after 27 turns): :mod:`.solo`; the animals' solo
  effects that replace their interactions: :mod:`.solo_effects`
"""

from ..core import Plugin
from .game import GAME, ArkNova


def _evaluate():
    from .evaluate import EVALUATOR
    return EVALUATOR


def _learned():
    from .learned import EVALUATOR
    return EVALUATOR


def _margin():
    from .margin import EVALUATOR
    return EVALUATOR


def _describer():
    from .labels import describe
    return describe


#: the game as one plugin (listed in ``engine/games.json``, registered by ``engine.core``)
PLUGIN = Plugin(GAME, evaluators={"": _evaluate, "learned": _learned, "margin": _margin},
                describer=_describer, card_events=("animal", "sponsor"))

__all__ = ["GAME", "PLUGIN", "ArkNova"]
