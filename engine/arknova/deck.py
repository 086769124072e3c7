"""Cards: lookups into the card data, the deck, the discard pile and the display."""

from __future__ import annotations

from functools import cache

from ..core import rng as _rng
from .content import load_content
from .tables import T, reputation_range


@cache
def _cards() -> dict[str, dict]:
    content = load_content()
    out: dict[str, dict] = {}
    for kind, group in (("animal", content.animals), ("sponsor", content.sponsors),
                        ("project", content.projects), ("project", content.base_projects),
                        ("final", content.final_scoring), ("tile", content.bonus_tiles)):
        for cid, model in group.items():
            data = model.model_dump()
            data["type"] = kind
            out[cid] = data
    return out


def card(cid: str) -> dict:
    """The card with id ``cid`` as a plain dict (``type`` is animal/sponsor/project/final/tile)."""
    return _cards()[cid]


def all_cards() -> dict[str, dict]:
    return _cards()


def kind(cid: str) -> str:
    return _cards()[cid]["type"]


def draw(state: dict, n: int) -> list[str]:
    """Take up to ``n`` cards from the deck, reshuffling the discard pile when it runs out."""
    out = []
    for _ in range(n):
        if not state["deck"]:
            if not state["discard"]:
                break
            state["deck"] = state["discard"]
            state["discard"] = []
            _rng.shuffle(state, state["deck"])
        out.append(state["deck"].pop())
    return out


def refill_display(state: dict) -> None:
    """Shift the display toward folder 1 and fill the empty folders from the deck."""
    cards = [c for c in state["display"] if c is not None]
    size = T.display_size
    cards += draw(state, size - len(cards))
    state["display"] = cards + [None] * (size - len(cards))


def reachable_folders(player: dict) -> range:
    """Display folders (1-based) within the player's reputation range."""
    return range(1, reputation_range(player["reputation"]) + 1)


def take_from_display(state: dict, folder: int) -> str:
    cid = state["display"][folder - 1]
    state["display"][folder - 1] = None
    return cid
