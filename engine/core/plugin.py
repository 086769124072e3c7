"""A game as one plugin: its rules and what the generic layers ask of it by the game's name.

Each installed game's package (listed in ``engine/games.json``) exposes ``PLUGIN``, a
:class:`Plugin`: the rules (:class:`~engine.core.game.Game`), its evaluators for the searching
bots by variant (``""`` is the game's own, ``"learned"`` another one), the describer that puts its
answers into short labels, and the public event kinds that say a seat played a card. Evaluators
and the describer are loaders (functions of no arguments), so their modules are imported only
when a bot or an analysis first asks for them. The generic layers (``engine/core``,
``engine/bots``, ``app/``) look these up through :func:`engine.core.registry.plugin_of` and
never name a game's modules.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from .game import Game

#: a function of no arguments that imports what it returns on first call
Loader = Callable[[], Any]


@dataclass(frozen=True)
class Plugin:
    """One game: ``game`` (the rules), ``evaluators`` (variant -> loader of an
    ``engine.bots.evaluation.Evaluator``; ``""`` the game's own), ``describer`` (loader of
    ``describe(state, seat, action) -> label | None``, see :mod:`engine.bots.labels`) and
    ``card_events`` (the public event kinds whose ``data`` holds the ``seat`` that played a
    ``card``, counted by a player's profile)."""

    game: Game
    evaluators: Mapping[str, Loader] = field(default_factory=dict)
    describer: Loader | None = None
    card_events: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "evaluators", MappingProxyType(dict(self.evaluators)))

    @property
    def name(self) -> str:
        return self.game.name


__all__ = ["Loader", "Plugin"]
