"""A turn: choose an action card (or take an X token), the card moves to slot 1, end of turn.

Also the opening (keep 4 of 8), the end-of-turn steps (venom, display refill, break and end
checks) and the order of turns, including the last round once the end is triggered.
"""

from __future__ import annotations

from ..core import event
from . import actions, deck, solo
from .decisions import Decision, decision, finish, push
from .gains import gain
from .scoring import end_triggered_by
from .tables import T


def strength_of(player: dict, card: str, spent_x: int = 0) -> int:
    slot = player["cards"].index(card) + 1
    penalty = T.interactions.constriction_penalty if card in player["constriction"] else 0
    return max(0, slot + spent_x - penalty)


def side_of(player: dict, card: str) -> int:
    return 2 if player["upgraded"][card] else 1


def move_to_slot_one(player: dict, card: str) -> None:
    """The card goes to slot 1; the cards left of it shift one slot right."""
    player["cards"].remove(card)
    player["cards"].insert(0, card)


@decision
class Turn(Decision):
    """The main decision of a turn."""

    kind = "turn"

    def legal(self, state, frame, seat):
        p = state["players"][seat]
        out = []
        for card in p["cards"]:
            for x in range(p["x"] + 1):
                out.append({"type": "action", "card": card, "x": x})
        if p["x"] < T.max_x:
            for card in p["cards"]:
                out.append({"type": "x_token", "card": card})
        return out

    def apply(self, state, frame, seat, action, ev):
        finish(state, frame)
        p = state["players"][seat]
        card = action["card"]
        push(state, "end_turn", seat=seat)
        if action["type"] == "x_token":
            move_to_slot_one(p, card)
            p["x"] += 1
            ev.append(event("x_token", seat=seat, card=card))
            return
        strength = strength_of(p, card, action["x"])
        p["x"] -= action["x"]
        for tokens in (p["venom"], p["constriction"]):
            if card in tokens:
                tokens.remove(card)
        side = side_of(p, card)
        state["current"] = {"seat": seat, "card": card, "after": []}
        ev.append(event("action", seat=seat, card=card, strength=strength, side=side,
                        x=action["x"]))
        push(state, "rotate", seat=seat, card=card)
        actions.start(card, state, seat, strength, side, ev)


@decision
class Rotate(Decision):
    """After the action: the used card moves to slot 1, then "after the action" effects."""

    kind = "rotate"
    auto = True

    def run(self, state, frame, ev):
        move_to_slot_one(state["players"][frame["seat"]], frame["card"])
        after = state["current"]["after"] if state.get("current") else []
        for f in reversed(after):
            state["stack"].append(f)
        state["current"] = None


@decision
class EndTurn(Decision):
    kind = "end_turn"
    auto = True

    def run(self, state, frame, ev):
        seat = frame["seat"]
        p = state["players"][seat]
        pay_venom(state, seat, ev)
        deck.refill_display(state)
        p["turns"] += 1
        state["turn"] += 1
        if solo.is_solo(state):
            push(state, "next_turn", seat=seat)
            solo.end_of_turn(state, seat, ev)  # the solo tile, not the markers, ends the game
            return
        if state["end"] is None and end_triggered_by(state):
            order = turn_order(state, seat)[1:]
            state["end"] = {"trigger": seat, "remaining": order}
            ev.append(event("end_triggered", seat=seat, remaining=order))
        push(state, "next_turn", seat=seat)
        if state["break_pos"] >= state["break_len"]:
            gain(state, seat, {"x": 1}, ev, source="break")
            push(state, "break", seat=seat)


def pay_venom(state: dict, seat: int, ev: list) -> None:
    p = state["players"][seat]
    due = T.interactions.venom_cost * len(p["venom"])
    if not due:
        return
    paid = min(due, p["money"])
    p["money"] -= paid
    lost = due - paid
    p["appeal"] = max(0, p["appeal"] - lost)
    ev.append(event("venom_paid", seat=seat, money=paid, appeal=lost))


def turn_order(state: dict, start: int) -> list[int]:
    n = state["seats"]
    return [(start + i) % n for i in range(n)]


@decision
class NextTurn(Decision):
    kind = "next_turn"
    auto = True

    def run(self, state, frame, ev):
        end = state["end"]
        nxt = (frame["seat"] + 1) % state["seats"]
        if end is not None:
            if not end["remaining"]:
                push(state, "final")
                return
            nxt = end["remaining"].pop(0)
        state["active"] = nxt
        push(state, "turn", seat=nxt)


@decision
class Keep(Decision):
    """The opening: every seat keeps 4 of its 8 cards, all at the same time."""

    kind = "keep"
    hidden = ("offer",)

    def seats(self, state, frame):
        return [int(s) for s in sorted(frame["offer"], key=int)]

    def public(self, state, frame):
        return {"kind": "keep", "waiting": self.seats(state, frame)}

    def private(self, state, frame, seat):
        """A seat sees its own offer only (the others' stay secret until the cards are kept)."""
        return {"kind": "keep", "offer": frame["offer"][str(seat)]}

    def legal(self, state, frame, seat):
        from itertools import combinations

        offer = frame["offer"][str(seat)]
        return [{"type": "keep", "cards": list(c)} for c in combinations(offer, T.start.keep)]

    def apply(self, state, frame, seat, action, ev):
        offer = frame["offer"].pop(str(seat))
        p = state["players"][seat]
        p["hand"] = list(action["cards"])
        state["discard"].extend(c for c in offer if c not in action["cards"])
        ev.append(event("kept", seat=seat, count=len(action["cards"])))
        if not frame["offer"]:
            finish(state, frame)
