"""Which hand animals really have a home: one free enclosure houses one animal.

:func:`~engine.arknova.bot.zooparts.hand_parts` rates each hand animal on its own: an animal
that fits a free enclosure gets the "home" share. Five animals that all fit the zoo's one free
enclosure were all rated as homed, so playing one of them took the home from the other four and
the hand's worth fell by more than the played animal's points (a probe position, fast seat 0 of
``D1`` at turn 84: playing a jaguar for 8 appeal cost 13 of hand worth, and the bot drew cards
for six turns with 24-40 money and a free enclosure of 5).

:func:`matched` keeps the "home" share only for the animals a matching can house at once: best
first (their worth net of cost), each into the smallest free building among its own homes
(``engine.arknova.zoo.homes``) that still has room (an enclosure holds one animal, a special
enclosure its free spaces); a flock animal needs no building. The others get the share of an
animal whose requirements are met but that needs a building first. Read by the learned value
when its file asks for it (``hand_homes: "matched"`` in value.json); the hand-weighted
evaluation (greedy, the ladder's frozen reference) keeps the per-animal rating.
"""

from __future__ import annotations

from .. import deck
from ..zoo import capacity, homes
from .zooparts import HAND_SHARE

#: value.json's ``hand_homes``: ``shared`` (absent) every fitting animal counts the free
#: enclosure as its own, ``matched`` one animal per free enclosure (:func:`matched`).
HAND_HOMES = ("shared", "matched")
MONEY_W = 0.2  #: money per point in the order of the matching (as the learned hand worth's)


def matched(p: dict, cards: list) -> list:
    """``cards`` (``hand_parts``' ``(cost, worth, share)`` per hand card, in hand order) with
    the home share kept only for the animals housed by one matching (see the module doc)."""
    home = HAND_SHARE["home"]
    homed = [i for i, (cost, _, share) in enumerate(cards) if cost is not None and share == home]
    if len(homed) <= 1:
        return cards
    room: dict = {}
    size: dict = {}
    special: set = set()
    for b in p["buildings"]:
        if b["kind"] == "enclosure" and not b["animals"]:
            room[b["id"]], size[b["id"]] = 1, len(b["cells"])
        elif b["kind"] == "special":
            room[b["id"]], size[b["id"]] = capacity(b) - b["used"], len(b["cells"])
            special.add(b["id"])
    order = sorted(homed, key=lambda i: (-(cards[i][1] - MONEY_W * cards[i][0]), i))
    out = list(cards)
    for i in order:
        c = deck.card(p["hand"][i])
        where = homes(p, c)
        if None in where:  # a flock animal joins a herd: no building of its own
            continue
        spaces = (c.get("special") or {}).get("spaces", 1)
        fits = [b for b in where if room.get(b, 0) >= (spaces if b in special else 1)]
        if fits:
            b = min(fits, key=lambda b: (size[b], b))
            room[b] -= spaces if b in special else 1
        else:
            cost, worth, _ = cards[i]
            out[i] = (cost, worth, HAND_SHARE["req"])
    return out
