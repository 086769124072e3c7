"""Determinization: resample what one seat cannot see (for bots that search).

``determinize(state, seat, rng)`` returns a copy of ``state`` in which every card hidden from
``seat`` is dealt again at random, keeping every pile's size:

- **main cards** (animals, sponsors, projects): the deck, other seats' hands, other seats'
  pending secret offers (the opening "keep 4 of 8" offers, cards looked at with hunter /
  perception) and the pile of base projects not in play are pooled and dealt again. The pile of
  base projects only ever receives base projects (drawn from the base projects of the pool);
- **final-scoring cards**: the final-scoring deck, other seats' final-scoring cards and other
  seats' pending "keep one final-scoring card" offers are pooled and dealt again;
- the generator ``state["rng"]`` is reseeded from ``rng``.

Everything the seat sees (its own hand, final cards and pending offers, every zoo, the display,
the discard pile, the tracks, all public frame data) is kept as is, so
``view(result, seat) == view(state, seat)``. Pools are sorted before they are shuffled, so the
result does not depend on where the hidden cards lay, only on which cards are hidden.

Known limit: cards a seat saw go into another hand (a display card taken, a revealed card kept)
are pooled like any hidden card; the view does not record that knowledge either.
"""

from __future__ import annotations

from collections.abc import MutableMapping
from itertools import chain, filterfalse

from ..core import cow, rng as _rng
from .content import load_content


def _base_ids() -> frozenset[str]:
    global _BASE
    if _BASE is None:
        _BASE = frozenset(load_content().base_projects)
    return _BASE


_BASE: frozenset[str] | None = None


def hidden_piles(state: dict, seat: int) -> tuple[list[list], list[list]]:
    """The lists of ``state`` (no copies) holding main cards and final-scoring cards that
    ``seat`` cannot see, in a fixed order. ``base_pile`` is not among them (see module doc)."""
    main: list[list] = [state["deck"]]
    finals: list[list] = [state["final_deck"]]
    for s, p in enumerate(state["players"]):
        if s != seat:
            main.append(p["hand"])
            finals.append(p["final"])
    for frame in state["stack"]:
        kind = frame["kind"]
        if kind == "keep":
            for key in sorted(frame["offer"], key=int):
                if int(key) != seat:
                    main.append(frame["offer"][key])
        elif kind == "choose_cards" and frame["seat"] != seat:
            if frame["dest"] == "hand":
                main.append(frame["offer"])
            elif frame["dest"] == "final":
                finals.append(frame["offer"])
    return main, finals


def _deal(holder: MutableMapping, piles: list[list], pool: list[str]) -> None:
    pool = sorted(pool)
    _rng.shuffle(holder, pool)
    i = 0
    for pile in piles:
        n = len(pile)
        pile[:] = pool[i:i + n]
        i += n


def determinize(state: dict, seat: int, rng: MutableMapping, lazy: dict | None = None) -> dict:
    """The dealt copy (see the module doc). Like ``apply`` it copies only what it changes
    (through a copy-on-access view, ``lazy`` being the game's ``lazy_lists``): the result
    shares every other part with ``state``, so it is a value, never changed in place."""
    s = cow.begin(state, lazy or {})
    holder = {"rng": _rng.next_u64(rng)}
    main, finals = hidden_piles(s, seat)
    pool = list(chain.from_iterable(main))  # (the C builtins: decks of 150 cards)
    # the base-project pile stays fixed while someone is choosing from it (resistance)
    base_locked = any(f["kind"] == "choose_cards" and f["dest"] == "base" for f in s["stack"])
    if s["base_pile"] and not base_locked:
        base = _base_ids()
        base_pool = sorted(list(filter(base.__contains__, pool)) + s["base_pile"])
        _rng.shuffle(holder, base_pool)
        k = len(s["base_pile"])
        s["base_pile"] = sorted(base_pool[:k])
        pool = list(filterfalse(base.__contains__, pool)) + base_pool[k:]
    _deal(holder, main, pool)
    _deal(holder, finals, list(chain.from_iterable(finals)))
    s["rng"] = _rng.next_u64(holder)
    return cow.finish(s)
