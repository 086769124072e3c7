"""Per-game "perturbers" for the leak checks of the contract suite.

A perturber takes a state and a seat and returns a copy in which that seat's hidden information
(hand, secret choices, final-scoring cards) is replaced by other values of the same shape, and the
deck order and the generator are changed. Every other viewer's view must stay byte-identical:
that proves no view depends on information the viewer may not have.
"""

from __future__ import annotations

from engine.core import rng as _rng
from engine.core.state import clone

PERTURBERS = {}


def perturber(name):
    def deco(fn):
        PERTURBERS[name] = fn
        return fn
    return deco


@perturber("toy")
def _toy(state, seat):
    s = clone(state)
    s["rng"] = (s["rng"] * 31 + 7) % (1 << 64)
    # swap the seat's hand with deck cards (same count), and move its secret choice
    pool = s["deck"] + s["hands"][seat]
    _rng.shuffle({"rng": 99}, pool)
    n = len(s["hands"][seat])
    s["hands"][seat] = sorted(pool[:n])
    s["deck"] = pool[n:]
    if s["chosen"][seat] is not None:
        s["chosen"][seat] = 100 + s["chosen"][seat]
    return s


@perturber("arknova")
def _arknova(state, seat):
    s = clone(state)
    s["rng"] = (s["rng"] * 31 + 7) % (1 << 64)
    shuffler = {"rng": 12345}

    def swap(cards, pool_key):
        pool = s[pool_key]
        n = min(len(cards), len(pool))
        for i in range(n):
            cards[i], pool[i] = pool[i], cards[i]

    p = s["players"][seat]
    swap(p["hand"], "deck")
    swap(p["final"], "final_deck")
    for frame in s["stack"]:
        if frame["kind"] == "keep" and str(seat) in frame["offer"]:
            swap(frame["offer"][str(seat)], "deck")
        if frame["kind"] == "choose_cards" and frame["seat"] == seat and frame["dest"] == "hand":
            swap(frame["offer"], "deck")
    _rng.shuffle(shuffler, s["deck"])
    _rng.shuffle(shuffler, s["final_deck"])
    return s


@perturber("zoocracy")
def _zoocracy(state, seat):
    s = clone(state)
    s["rng"] = (s["rng"] * 31 + 7) % (1 << 64)
    shuffler = {"rng": 4242}
    # the seat's hand swapped with deck cards (same count), its treasury changed
    hand, deck = s["hands"][seat], s["deck"]
    for i in range(min(len(hand), len(deck))):
        hand[i], deck[i] = deck[i], hand[i]
    hand.sort()
    s["food"][seat] += 7
    # its secret answer in a pending bid or vote
    for frame in s["stack"]:
        if frame["kind"] == "bid" and str(seat) in frame["bids"]:
            frame["bids"][str(seat)] += 5
        if frame["kind"] == "vote" and str(seat) in frame["votes"]:
            vote = frame["votes"][str(seat)]
            frame["votes"][str(seat)] = {"yes": not vote["yes"], "card": None}
    # deck order, event order, end flag position (while not revealed)
    _rng.shuffle(shuffler, s["deck"])
    s["events"] = list(reversed(s["events"]))
    if not s["end_flag"]:
        later = [p for p in (6, 7, 8) if p > len(s["revealed"]) and p != s["flag_at"]]
        if later:
            s["flag_at"] = later[0]
    return s
