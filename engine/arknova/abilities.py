"""Card abilities: small named functions registered by keyword.

Animal abilities and sponsor effects name a keyword and a value in the card data
(``{"keyword": "sprint", "value": 2}``). :func:`resolve` looks the keyword up here. Effects that
need a choice push a decision frame; "after the action" effects are queued until the action card
has moved (spec §4.2).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..core import event
from . import actions, deck
from .actions.association import partner_options, take_partner, take_university, university_options
from .breaks import advance_break
from .decisions import Decision, decision, finish, push
from .gains import add_reputation, draw_to_hand, gain, offer_upgrade
from .tables import T
from .turn import move_to_slot_one, side_of
from .zoo import icons

REGISTRY: dict[str, Callable] = {}


@dataclass
class Ctx:
    state: dict
    seat: int
    value: object
    card: str
    ev: list

    @property
    def player(self) -> dict:
        return self.state["players"][self.seat]


def ability(keyword: str):
    def deco(fn):
        REGISTRY[keyword] = fn
        return fn
    return deco


def resolve(state: dict, seat: int, keyword: str, value, card: str, ev: list) -> None:
    ev.append(event("ability", seat=seat, card=card, keyword=keyword, value=value))
    REGISTRY[keyword](Ctx(state, seat, value, card, ev))


def after_action(ctx: Ctx, kind: str, **data) -> None:
    """Queue a frame to run after the action card has moved (or now, outside an action)."""
    frame = {"kind": kind, "seat": ctx.seat, **data}
    current = ctx.state.get("current")
    if current and current["seat"] == ctx.seat:
        current["after"].append(frame)
    else:
        ctx.state["stack"].append(frame)


# --------------------------------------------------------------------------- simple gains
@ability("money")
def money(ctx):
    gain(ctx.state, ctx.seat, {"money": ctx.value}, ctx.ev, source=ctx.card)


@ability("reputation")
def reputation(ctx):
    add_reputation(ctx.state, ctx.seat, ctx.value, ctx.ev)


@ability("inventive")
def inventive(ctx):
    gain(ctx.state, ctx.seat, {"x": ctx.value}, ctx.ev, source=ctx.card)


@ability("hire")
def hire(ctx):
    gain(ctx.state, ctx.seat, {"worker": ctx.value or 1}, ctx.ev, source=ctx.card)


@ability("upgrade")
def upgrade(ctx):
    offer_upgrade(ctx.state, ctx.seat)


@ability("sprint")
def sprint(ctx):
    draw_to_hand(ctx.state, ctx.seat, ctx.value, ctx.ev)


@ability("jumping")
def jumping(ctx):
    advance_break(ctx.state, ctx.value, ctx.ev, ctx.seat)
    gain(ctx.state, ctx.seat, {"money": ctx.value}, ctx.ev, source=ctx.card)


def _appeal_per_icon(ctx, icon: str, cap: int) -> None:
    n = min(cap, icons(ctx.player)[icon])
    gain(ctx.state, ctx.seat, {"appeal": n}, ctx.ev, source=ctx.card)


@ability("pack")
def pack(ctx):
    _appeal_per_icon(ctx, ctx.value, 5)


@ability("iconic")
def iconic(ctx):
    _appeal_per_icon(ctx, ctx.value, 4)


@ability("flock")
def flock(ctx):
    """Flock changes where the animal may live (see ``zoo.homes``); nothing happens on play."""


# --------------------------------------------------------------------------- choices
@ability("hunter")
def hunter(ctx):
    revealed = deck.draw(ctx.state, ctx.value)
    if revealed:
        ctx.ev.append(event("revealed", seat=ctx.seat, cards=revealed))
        push(ctx.state, "choose_cards", seat=ctx.seat, offer=revealed, keep=1, filter="animal",
             dest="hand")


@ability("perception")
def perception(ctx):
    looked = deck.draw(ctx.state, ctx.value)
    if looked:
        push(ctx.state, "choose_cards", seat=ctx.seat, offer=looked, keep=min(2, len(looked)),
             filter=None, dest="hand")


@ability("scoring")
def scoring(ctx):
    fd = ctx.state["final_deck"]
    drawn = [fd.pop() for _ in range(min(ctx.value, len(fd)))]
    if drawn:
        push(ctx.state, "choose_cards", seat=ctx.seat, offer=drawn, keep=1, filter=None,
             dest="final")


@ability("resistance")
def resistance(ctx):
    if ctx.state["base_pile"]:
        push(ctx.state, "choose_cards", seat=ctx.seat, offer=list(ctx.state["base_pile"]),
             keep=1, filter=None, dest="base")


@ability("snapping")
def snapping(ctx):
    push(ctx.state, "snap", seat=ctx.seat, left=ctx.value, anywhere=True)


@ability("digging")
def digging(ctx):
    push(ctx.state, "digging", seat=ctx.seat, left=ctx.value)


@ability("sell")
def sell(ctx):
    push(ctx.state, "hand_cards", seat=ctx.seat, left=ctx.value["max"], mode="sell",
         each=ctx.value["money"], card=ctx.card)


@ability("pouch")
def pouch(ctx):
    push(ctx.state, "hand_cards", seat=ctx.seat, left=ctx.value["max"], mode="pouch",
         each=ctx.value["appeal"], card=ctx.card)


@ability("kiosk")
def kiosk(ctx):
    push(ctx.state, "place", seat=ctx.seat, building="kiosk", cost=0,
         upgraded=ctx.player["upgraded"]["build"])


@ability("pavilion")
def pavilion(ctx):
    push(ctx.state, "place", seat=ctx.seat, building="pavilion", cost=0,
         upgraded=ctx.player["upgraded"]["build"])


@ability("partner")
def partner(ctx):
    push(ctx.state, "free_task", seat=ctx.seat, task="partner")


@ability("university")
def university(ctx):
    push(ctx.state, "free_task", seat=ctx.seat, task="university")


@ability("clever")
def clever(ctx):
    after_action(ctx, "clever")


@ability("boost")
def boost(ctx):
    after_action(ctx, "boost", action=ctx.value["action"], strength=ctx.value["strength"])


# --------------------------------------------------------------------------- decision frames
@decision
class ChooseCards(Decision):
    """Keep some of the cards a seat looked at (hunter, perception, scoring, resistance)."""

    kind = "choose_cards"
    hidden = ("offer",)

    def public(self, state, frame):
        return {"kind": self.kind, "seat": frame["seat"], "keep": frame["keep"],
                "count": len(frame["offer"]), "waiting": [frame["seat"]]}

    def eligible(self, frame):
        if frame["filter"] == "animal":
            return [c for c in frame["offer"] if deck.kind(c) == "animal"]
        return list(frame["offer"])

    def legal(self, state, frame, seat):
        out = [{"type": "keep_card", "card": c} for c in sorted(set(self.eligible(frame)))]
        return out or [{"type": "done"}]

    def apply(self, state, frame, seat, action, ev):
        p = state["players"][seat]
        if action["type"] == "keep_card":
            cid = action["card"]
            frame["offer"].remove(cid)
            frame["keep"] -= 1
            if frame["dest"] == "final":
                p["final"].append(cid)
            elif frame["dest"] == "base":
                state["base_pile"].remove(cid)
                p["hand"].append(cid)
            else:
                p["hand"].append(cid)
            ev.append(event("kept_card", seat=seat, dest=frame["dest"]))
            ev.append(event("kept_card_id", only=[seat], seat=seat, card=cid))
        if action["type"] == "done" or frame["keep"] <= 0 or not self.eligible(frame):
            finish(state, frame)
            rest = frame["offer"]
            if frame["dest"] == "final":
                state["final_deck"][:0] = rest
            elif frame["dest"] == "hand":
                state["discard"].extend(rest)
                if rest:
                    ev.append(event("discarded_cards", seat=seat, cards=rest))


@decision
class Digging(Decision):
    kind = "digging"

    def skip(self, state, frame):
        return frame["left"] <= 0

    def legal(self, state, frame, seat):
        p = state["players"][seat]
        out = [{"type": "dig", "folder": f} for f in range(1, T.display_size + 1)
               if state["display"][f - 1]]
        if state["deck"] or state["discard"]:
            out += [{"type": "dig", "card": c} for c in sorted(set(p["hand"]))]
        return out + [{"type": "done"}]

    def apply(self, state, frame, seat, action, ev):
        if action["type"] == "done":
            finish(state, frame)
            return
        frame["left"] -= 1
        if "folder" in action:
            f = action["folder"]
            old = deck.take_from_display(state, f)
            state["discard"].append(old)
            new = deck.draw(state, 1)
            state["display"][f - 1] = new[0] if new else None
            ev.append(event("dug_display", seat=seat, folder=f, card=old))
        else:
            p = state["players"][seat]
            p["hand"].remove(action["card"])
            state["discard"].append(action["card"])
            ev.append(event("discarded", seat=seat, card=action["card"]))
            draw_to_hand(state, seat, 1, ev)


@decision
class HandCards(Decision):
    """Sell hand cards for money, or tuck them under an animal for appeal."""

    kind = "hand_cards"

    def skip(self, state, frame):
        return frame["left"] <= 0 or not state["players"][frame["seat"]]["hand"]

    def legal(self, state, frame, seat):
        return [{"type": frame["mode"], "card": c}
                for c in sorted(set(state["players"][seat]["hand"]))] + [{"type": "done"}]

    def apply(self, state, frame, seat, action, ev):
        if action["type"] == "done":
            finish(state, frame)
            return
        p = state["players"][seat]
        frame["left"] -= 1
        p["hand"].remove(action["card"])
        if frame["mode"] == "sell":
            state["discard"].append(action["card"])
            p["money"] += frame["each"]
            ev.append(event("sold", seat=seat, card=action["card"], money=frame["each"]))
        else:
            p["tucked"][frame["card"]] = p["tucked"].get(frame["card"], 0) + 1
            p["appeal"] += frame["each"]
            ev.append(event("tucked", seat=seat, under=frame["card"], appeal=frame["each"]))


@decision
class FreeTask(Decision):
    """A partner zoo or a university for free (card effect)."""

    kind = "free_task"

    def legal(self, state, frame, seat):
        p = state["players"][seat]
        if frame["task"] == "partner":
            return [{"type": "partner", "continent": c} for c in partner_options(state, p, 2)]
        return [{"type": "university", "university": u} for u in university_options(state, p)]

    def skip(self, state, frame):
        return not self.legal(state, frame, frame["seat"])

    def apply(self, state, frame, seat, action, ev):
        finish(state, frame)
        if action["type"] == "partner":
            take_partner(state, seat, action["continent"], ev)
        else:
            take_university(state, seat, action["university"], ev)


@decision
class Clever(Decision):
    """After the action: move one action card to slot 1."""

    kind = "clever"

    def legal(self, state, frame, seat):
        return [{"type": "move_card", "card": c} for c in state["players"][seat]["cards"]]

    def apply(self, state, frame, seat, action, ev):
        finish(state, frame)
        move_to_slot_one(state["players"][seat], action["card"])
        ev.append(event("moved_card", seat=seat, card=action["card"]))


@decision
class Boost(Decision):
    """After the action: carry out another action at a fixed strength."""

    kind = "boost"
    auto = True

    def run(self, state, frame, ev):
        p = state["players"][frame["seat"]]
        ev.append(event("boost", seat=frame["seat"], action=frame["action"],
                        strength=frame["strength"]))
        actions.start(frame["action"], state, frame["seat"], frame["strength"],
                      side_of(p, frame["action"]), ev)

