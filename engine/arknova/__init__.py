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

Not rules: the bots' and the analysis' evaluation is :mod:`.bot` (the rules never import it;
only :data:`PLUGIN` names its evaluators), the words for people (labels of answers, hints) are
:mod:`.presentation`.
"""

from ..core import Plugin
from .game import GAME, ArkNova


def _evaluate():
    from .bot.evaluate import EVALUATOR
    return EVALUATOR


def _learned():
    from .bot.learned import EVALUATOR
    return EVALUATOR


def _margin():
    from .bot.margin import EVALUATOR
    return EVALUATOR


def _margin_learned():
    from .bot.margin import LEARNED
    return LEARNED


def _margin_mean():
    from .bot.margin import MEAN
    return MEAN


def _describer():
    from .presentation.labels import describe
    return describe


#: the game as one plugin (listed in ``engine/games.json``, registered by ``engine.core``)
PLUGIN = Plugin(GAME, evaluators={"": _evaluate, "learned": _learned, "margin": _margin,
                                  "margin_learned": _margin_learned,
                                  "margin_mean": _margin_mean},
                describer=_describer, card_events=("animal", "sponsor"))

__all__ = ["GAME", "PLUGIN", "ArkNova"]
