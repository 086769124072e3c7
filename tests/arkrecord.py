"""Ark Nova game records played by bots (two greedy seats, about 450 actions; a fast solo game),
for the analysis tests: imported with ``POST /api/games/import`` it is a finished game to
analyse."""

from __future__ import annotations

from functools import lru_cache

import engine
from engine.bots import decide, make_bot
from engine.core import rng as _rng


@lru_cache(maxsize=4)
def greedy_record(seed: str = "analysis-e2e") -> dict:
    game = engine.get_game("arknova")
    state = game.setup(2, {}, seed)
    bots = [make_bot("greedy"), make_bot("greedy")]
    rng = {"rng": _rng.seed_to_int(f"{seed}:bots")}
    actions = []
    while game.waiting_for(state):
        for seat in sorted(game.waiting_for(state)):
            if seat not in game.waiting_for(state):
                continue
            action = decide(bots[seat], game, state, seat, rng)
            actions.append([seat, action])
            state, _ = game.apply(state, seat, action)
    return {"format": "menagerie-record/1", "game": "arknova", "options": {}, "seed": seed,
            "seats": [{"seat": 0, "user": "alpha"}, {"seat": 1, "user": "beta"}],
            "actions": actions}


@lru_cache(maxsize=2)
def solo_record(seed: str = "solo-analysis-e2e") -> dict:
    """A solo game played by the fast level (about 110 actions)."""
    game = engine.get_game("arknova")
    state = game.setup(1, {}, seed)
    bot = make_bot("fast")
    rng = {"rng": _rng.seed_to_int(f"{seed}:bots")}
    actions = []
    while game.waiting_for(state):
        action = decide(bot, game, state, 0, rng)
        actions.append([0, action])
        state, _ = game.apply(state, 0, action)
    return {"format": "menagerie-record/1", "game": "arknova", "options": {}, "seed": seed,
            "seats": [{"seat": 0, "user": "alpha"}], "actions": actions}
