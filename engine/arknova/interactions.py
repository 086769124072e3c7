"""Interactions with other zoos (spec §9): venom, constriction, hypnosis, pilfering.

They never target a zoo whose appeal is below 5. "Ahead" means strictly higher on that track.
"""

from __future__ import annotations

from ..core import event, rng as _rng
from . import actions
from .abilities import ability
from .decisions import Decision, decision, finish, push
from .tables import T
from .turn import move_to_slot_one, side_of


def _targets(state: dict, seat: int) -> list[int]:
    """Other seats in turn order from ``seat`` that may be targeted (appeal >= 5)."""
    n = state["seats"]
    out = []
    for i in range(1, n):
        s = (seat + i) % n
        if state["players"][s]["appeal"] >= T.interactions.min_target_appeal:
            out.append(s)
    return out


def _top(state: dict, seat: int, track: str) -> int | None:
    cands = _targets(state, seat)
    if not cands:
        return None
    return max(cands, key=lambda s: state["players"][s][track])  # first in turn order on ties


@ability("venom")
def venom(ctx):
    state, me = ctx.state, ctx.player
    for s in _targets(state, ctx.seat):
        p = state["players"][s]
        if p["appeal"] <= me["appeal"]:
            continue
        free = [c for c in reversed(p["cards"]) if c not in p["venom"]]
        if free:
            p["venom"].append(free[0])
            ctx.ev.append(event("venom", seat=ctx.seat, target=s, card=free[0]))


@ability("constriction")
def constriction(ctx):
    state, me = ctx.state, ctx.player
    for s in _targets(state, ctx.seat):
        p = state["players"][s]
        n = (p["appeal"] > me["appeal"]) + (p["conservation"] > me["conservation"])
        free = [c for c in reversed(p["cards"]) if c not in p["constriction"]][:n]
        for c in free:
            p["constriction"].append(c)
            ctx.ev.append(event("constriction", seat=ctx.seat, target=s, card=c))


@ability("hypnosis")
def hypnosis(ctx):
    target = _top(ctx.state, ctx.seat, "appeal")
    if target is not None:
        push(ctx.state, "hypnosis", seat=ctx.seat, target=target, slots=ctx.value or 3)


@decision
class Hypnosis(Decision):
    kind = "hypnosis"

    def legal(self, state, frame, seat):
        cards = state["players"][frame["target"]]["cards"][: frame["slots"]]
        return [{"type": "hypnotize", "card": c} for c in cards]

    def apply(self, state, frame, seat, action, ev):
        finish(state, frame)
        target = state["players"][frame["target"]]
        card = action["card"]
        strength = target["cards"].index(card) + 1
        side = side_of(target, card)
        move_to_slot_one(target, card)
        ev.append(event("hypnosis", seat=seat, target=frame["target"], card=card,
                        strength=strength))
        actions.start(card, state, seat, strength, side, ev)


@ability("pilfering")
def pilfering(ctx):
    targets = []
    for track in ("appeal", "conservation")[: max(1, min(2, ctx.value or 1))]:
        t = _top(ctx.state, ctx.seat, track)
        if t is not None and t not in targets:
            targets.append(t)
    for t in reversed(targets):
        push(ctx.state, "pilfer", seat=t, actor=ctx.seat)


@decision
class Pilfer(Decision):
    """The pilfered player chooses: give 5 money, or a random card from its hand."""

    kind = "pilfer"

    def legal(self, state, frame, seat):
        p = state["players"][seat]
        out = [{"type": "give", "what": "money"}]
        if p["hand"]:
            out.append({"type": "give", "what": "card"})
        return out

    def apply(self, state, frame, seat, action, ev):
        finish(state, frame)
        p = state["players"][seat]
        actor = state["players"][frame["actor"]]
        if action["what"] == "money":
            amount = min(T.interactions.pilfer_money, p["money"])
            p["money"] -= amount
            actor["money"] += amount
            ev.append(event("pilfered", seat=frame["actor"], target=seat, money=amount))
        else:
            cid = p["hand"].pop(_rng.randbelow(state, len(p["hand"])))
            actor["hand"].append(cid)
            ev.append(event("pilfered", seat=frame["actor"], target=seat, card=True))
            ev.append(event("pilfered_card", only=[seat, frame["actor"]], seat=frame["actor"],
                            target=seat, card=cid))
