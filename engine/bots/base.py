"""The bot interface, the random bot, the bot registry and the helpers callers use to ask a bot.

A bot answers one decision of one seat from what that seat may see::

    bot.choose(game, view, legal, rng, sample=None) -> one of legal

- ``view`` is ``game.view(state, seat)`` and ``legal`` is ``game.legal_actions(state, seat)``;
- ``rng`` is a dict holding a seeded generator (:mod:`engine.core.rng`); the bot draws all its
  randomness from it, so the same ``rng`` gives the same choice;
- ``sample`` (optional) is a :class:`Sampler`: ``sample(rng)`` returns
  ``game.determinize(real_state, seat, rng)``, a possible world consistent with the view, and
  ``sample.seat`` is the deciding seat. Searching bots (greedy, mcts) need it; the caller builds
  it, and the bot never receives the real state.

Callers normally use :func:`decide`, which builds the view, the legal answers and the sampler.
"""

from __future__ import annotations

from collections.abc import MutableMapping

from ..core import rng as _rng
from ..core.game import Action, Game, State

_BOTS: dict[str, Bot] = {}


class Sampler:
    """``sample(rng)`` -> a determinization of the real state for ``seat`` (see module doc)."""

    __slots__ = ("_game", "_state", "seat")

    def __init__(self, game: Game, state: State, seat: int) -> None:
        self._game = game
        self._state = state
        self.seat = seat

    def __call__(self, rng: MutableMapping) -> State:
        return self._game.determinize(self._state, self.seat, rng)


class Bot:
    """Chooses one legal action from what a seat can see."""

    kind = "base"
    #: Place on the ladder (weakest first); :func:`bot_kinds` lists kinds in this order.
    strength = 0
    #: True for a level that searches at a move start (up to about a second of CPU per
    #: decision): the server caps such seats per user (:func:`heavy_kinds`, app/quotas.py)
    heavy = False

    def choose(self, game: Game, view: dict, legal: list[Action], rng: MutableMapping,
               sample: Sampler | None = None) -> Action:
        raise NotImplementedError


class RandomBot(Bot):
    """Picks uniformly among the legal actions; useful for fuzzing and empty seats."""

    kind = "random"

    def choose(self, game, view, legal, rng, sample=None):
        if not legal:
            raise ValueError("no legal action to choose from")
        return legal[_rng.randbelow(rng, len(legal))]


def forced_or_world(game: Game, view: dict, legal: list[Action], rng: MutableMapping,
                    sample: Sampler | None) -> tuple[Action | None, State | None]:
    """The start every looking bot shares: ``(answer, None)`` when there is nothing to look
    at (a single legal answer; no sampler, or a game that cannot sample a world: the random
    bot's answer), else ``(None, world)`` with a world sampled from the seat's view."""
    if not legal:
        raise ValueError("no legal action to choose from")
    if len(legal) == 1:
        return legal[0], None
    if sample is None:  # nothing to simulate on: behave like the random bot
        return RandomBot().choose(game, view, legal, rng), None
    try:
        world = sample(rng)
    except NotImplementedError:  # the game cannot sample possible worlds
        return RandomBot().choose(game, view, legal, rng), None
    return None, world


def decide(bot: Bot, game: Game, state: State, seat: int, rng: MutableMapping) -> Action:
    """Ask ``bot`` for ``seat``'s answer in ``state`` (the bot only sees the seat's view)."""
    legal = game.legal_actions(state, seat)
    if not legal:
        raise ValueError(f"seat {seat} has no decision to make")
    return bot.choose(game, game.view(state, seat), legal, rng, Sampler(game, state, seat))


def register_bot(bot: Bot) -> Bot:
    _BOTS[bot.kind] = bot
    return bot


def get_bot(kind: str) -> Bot:
    """The bot registered as ``kind`` (``KeyError`` if none)."""
    return _BOTS[kind]


def bot_kinds() -> list[str]:
    """The registered kinds, weakest first (ladder order, docs/bots.md), then by name."""
    return sorted(_BOTS, key=lambda k: (_BOTS[k].strength, k))


def heavy_kinds() -> frozenset[str]:
    """The registered kinds that search at a move start (:attr:`Bot.heavy`)."""
    return frozenset(k for k, b in _BOTS.items() if b.heavy)


def make_bot(spec: str) -> Bot:
    """A bot from a spec: ``"greedy"``, or a kind with settings such as ``"mcts:0.5"`` (a time
    budget of 0.5 s per decision) or ``"mcts:budget=0.25,playouts=32"``.

    Settings are keyword arguments of the bot's class (numbers, or ``none`` for None); a bare
    number is the bot's first setting. Without settings the registered bot is returned.
    """
    kind, _, args = spec.partition(":")
    base = get_bot(kind)
    if not args:
        return base
    import inspect

    params = [p for p in inspect.signature(type(base).__init__).parameters if p != "self"]
    kwargs: dict = {}
    for _i, part in enumerate(args.split(",")):
        name, eq, raw = part.partition("=")
        if not eq:
            name, raw = (params[0] if params else ""), part
        if name not in params:
            raise ValueError(f"bot {kind!r} has no setting {name!r} (settings: {params})")
        raw = raw.strip()
        kwargs[name] = None if raw.lower() == "none" else _setting(raw)
    return type(base)(**kwargs)


def _setting(raw: str):
    """A setting's value: an int, a float, or else the word itself (an evaluator variant)."""
    if raw.lstrip("-").isdigit():
        return int(raw)
    try:
        return float(raw)
    except ValueError:
        return raw


register_bot(RandomBot())
