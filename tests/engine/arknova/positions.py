"""Helpers to build Ark Nova-style positions for rules tests."""

from __future__ import annotations

import engine
from engine.arknova import deck
from engine.arknova.decisions import top

G = engine.get_game("arknova")


def fresh(seats: int = 2, seed: int = 1, map_id: str = "plains") -> dict:
    """A new game after the opening keep (seat 0 to move, hands as dealt)."""
    state = G.setup(seats, {"map": map_id}, seed)
    for s in range(seats):
        state, _ = G.apply(state, s, G.legal_actions(state, s)[0])
    assert top(state)["kind"] == "turn"
    return state


def play(state: dict, seat: int, *actions: dict) -> tuple[dict, list]:
    events = []
    for a in actions:
        state, ev = G.apply(state, seat, a)
        events += ev
    return state, events


def edited(state: dict, edit) -> dict:
    """dump -> edit -> load: the position as a stored game would come back."""
    data = G.dump(state)
    edit(data)
    return G.load(data)


def assoc_at(strength: int, others=("animals", "build", "cards", "sponsors")) -> list[str]:
    """An action-card order with the Association card at ``strength``."""
    order = list(others)
    order.insert(strength - 1, "association")
    return order


def kind_now(state: dict) -> str:
    return top(state)["kind"]


def cards_where(pred) -> list[str]:
    return [cid for cid, c in sorted(deck.all_cards().items()) if pred(c)]


def plain_animal(size: int | None = None, **extra) -> str:
    """An animal with no requirements whose ability (if any) changes no money or appeal."""
    harmless = {"flock", "sprint"}

    def ok(c):
        if c["type"] != "animal" or c.get("special"):
            return False
        if any(a["keyword"] not in harmless for a in c.get("abilities") or ()):
            return False
        req = c.get("requires") or {}
        if any(v for v in req.values()):
            return False
        if size is not None and c["size"] != size:
            return False
        return all(c.get(k) == v for k, v in extra.items())
    found = cards_where(ok)
    assert found, f"no plain animal of size {size} with {extra}"
    return found[0]


def set_cards(state: dict, seat: int, order: list[str]) -> None:
    state["players"][seat]["cards"] = list(order)


def building(state: dict, seat: int, btype: str, cells, animals=()) -> dict:
    """Put a building straight onto a zoo (no cost, no checks) for a constructed position."""
    from engine.arknova.zoo import building_spec

    p = state["players"][seat]
    b = {"id": p["next_id"], "type": btype, "kind": building_spec(btype).kind,
         "cells": [list(c) for c in cells], "animals": list(animals), "used": 0}
    p["next_id"] += 1
    p["buildings"].append(b)
    for a in animals:
        p["animals"].append({"card": a, "building": b["id"]})
    return b


def drain(state: dict, seat: int) -> dict:
    """Close the seat's open decisions ("done" where offered, else the first answer)."""
    while kind_now(state) != "turn" and G.waiting_for(state) == {seat}:
        legal = G.legal_actions(state, seat)
        state, _ = G.apply(state, seat, {"type": "done"} if {"type": "done"} in legal else legal[0])
    return state
