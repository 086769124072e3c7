"""Bots that play any registered game through the core contract.

A bot sees only what its seat may see: the seat's ``view``, the list of legal actions and, for
the searching bots, a ``sample`` callable that returns determinizations of the state for that
seat (possible worlds consistent with the view; see :meth:`engine.core.game.Game.determinize`).
It never receives the state. ``get_bot(kind)`` returns a bot;
``bot.choose(game, view, legal, rng, sample=None)`` returns one of ``legal``, where ``rng`` is a
dict holding a seeded generator (see :mod:`engine.core.rng`) so bot play is reproducible.
:func:`decide` builds the view, the legal actions and the sampler for a caller that holds the
state.

Kinds: ``random`` (uniform), ``greedy`` (one-ply greedy with the game's evaluation, looking
through the seat's own chained decisions), ``mcts`` (determinized Monte-Carlo search with greedy
rollouts, bounded by playouts and by a time budget); on the learned value of the game (its
plugin's ``"learned"`` evaluator variant): ``fast`` (greedy's one-ply look, narrower),
``search`` (mcts, one second per decision) and ``plan`` (fast's look, its best few answers
compared two own turns further on sampled worlds: :mod:`.plan`). ``greedy`` keeps the
hand-weighted evaluation: it is the frozen reference the ladder (``benchmarks/ladder.py``) measures the learned levels against.
"""

from __future__ import annotations

from .base import (
                   Bot,
                   RandomBot,
                   Sampler,
                   bot_kinds,
                   decide,
                   get_bot,
                   heavy_kinds,
                   make_bot,
                   register_bot,
)
from .evaluation import Evaluator, evaluator_for, register_evaluator
from .greedy import FastBot, GreedyBot
from .mcts import MctsBot, SearchBot
from .plan import PlanBot

register_bot(GreedyBot())
register_bot(MctsBot())
register_bot(FastBot())
register_bot(SearchBot())
register_bot(PlanBot())

__all__ = ["Bot", "Evaluator", "FastBot", "GreedyBot", "MctsBot", "PlanBot", "RandomBot", "Sampler", "SearchBot", "bot_kinds",
           "decide", "evaluator_for", "get_bot", "heavy_kinds", "make_bot", "register_bot", "register_evaluator"]
