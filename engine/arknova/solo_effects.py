"""Solo effects: what an animal with an interaction does instead in a 1-seat game.

An animal that interacts with other zoos (venom, constriction, hypnosis, pilfering) names its
solo effects in its card data (``"solo": [{"keyword": "crowd", "value": 2}]``; checked on load
by :mod:`.content` against :data:`.keywords.SOLO_KEYWORDS`). In a solo game
:func:`.solo.abilities_of` puts them in the place of the interaction, and they resolve through
the same registry as every ability (:func:`.abilities.resolve`). The keywords:

- ``crowd N``: gain N appeal (the dangerous animal draws visitors);
- ``grip``: after the action, move one of your action cards to slot 5 (the cards right of it
  shift one slot left);
- ``mimic N``: after the action, carry out one of your action cards in slots 1..N (not the one
  just used) at that slot's strength; that card then moves to slot 1;
- ``scavenge N``: gain N money (5 or 10: what pilfering one or two zoos could bring).
"""

from __future__ import annotations

from ..core import event
from . import actions
from .abilities import ability, after_action
from .decisions import Decision, decision, finish
from .gains import gain
from .turn import move_to_slot_one, side_of


@ability("crowd")
def crowd(ctx):
    gain(ctx.state, ctx.seat, {"appeal": ctx.value}, ctx.ev, source=ctx.card)


@ability("scavenge")
def scavenge(ctx):
    gain(ctx.state, ctx.seat, {"money": ctx.value}, ctx.ev, source=ctx.card)


@ability("grip")
def grip(ctx):
    after_action(ctx, "grip")


@ability("mimic")
def mimic(ctx):
    current = ctx.state.get("current")
    used = current["card"] if current and current["seat"] == ctx.seat else None
    after_action(ctx, "mimic", slots=ctx.value, used=used)


@decision
class Grip(Decision):
    """After the action: one action card moves to slot 5 (the strongest)."""

    kind = "grip"

    def legal(self, state, frame, seat):
        cards = state["players"][seat]["cards"]
        return [{"type": "move_card", "card": c} for c in cards[:-1]] or [{"type": "done"}]

    def apply(self, state, frame, seat, action, ev):
        finish(state, frame)
        if action["type"] == "done":
            return
        cards = state["players"][seat]["cards"]
        cards.remove(action["card"])
        cards.append(action["card"])
        ev.append(event("gripped", seat=seat, card=action["card"]))


@decision
class Mimic(Decision):
    """After the action: carry out one of the zoo's own action cards in slots 1..N."""

    kind = "mimic"

    def legal(self, state, frame, seat):
        cards = state["players"][seat]["cards"][: frame["slots"]]
        out = [{"type": "hypnotize", "card": c} for c in cards if c != frame.get("used")]
        return out + [{"type": "done"}]

    def apply(self, state, frame, seat, action, ev):
        finish(state, frame)
        if action["type"] == "done":
            return
        p = state["players"][seat]
        card = action["card"]
        strength = p["cards"].index(card) + 1
        move_to_slot_one(p, card)
        ev.append(event("mimic", seat=seat, card=card, strength=strength))
        actions.start(card, state, seat, strength, side_of(p, card), ev)
