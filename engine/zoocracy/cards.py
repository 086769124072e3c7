"""Action cards: when they can be played (card windows), their targets and their effects.

Every card names one phase. Campaign cards are played during the owner's own campaign turn
(an answer of that decision); government cards ("your vote counts twice") go secretly with a
vote on a coalition; the cards of the other phases are played in a **card window** of their
phase: the parties in seat order of parliament (most seats first), each with at least one card
in hand, are asked in turn to play one card of that phase or pass (one card per party per
window). Whether a party is asked depends only on its public hand size, never on which cards it
holds. A played card is shown to everyone and goes to the discard pile.

Each effect keyword (see :data:`engine.zoocracy.content.EFFECTS`) is a small class here:
``usable`` (may it be played now), ``targets`` (the answers of the follow-up ``card_target``
decision, for effects with ``targeted = True``) and ``resolve``.
"""

from __future__ import annotations

from ..core import IllegalAction, event
from . import board
from .content import load_content
from .decisions import Decision, decision, finish, push
from .parties import advance_goal, discard_card, draw, gain_food, in_order, pay_food

EFFECTS: dict[str, Effect] = {}


def _register(cls):
    EFFECTS[cls.keyword] = cls()
    return cls


class Effect:
    keyword = ""
    #: True if the card asks for a target after it is played
    targeted = False

    def usable(self, state: dict, seat: int, eff, turn: dict | None) -> bool:
        if self.targeted:
            return bool(self.targets(state, seat, eff))
        return True

    def targets(self, state: dict, seat: int, eff) -> list[dict]:
        return []

    def resolve(self, state: dict, seat: int, eff, target: dict | None, turn: dict | None,
                ev: list) -> None:
        raise NotImplementedError


# ------------------------------------------------------------------ presidential election
@_register
class BidBonus(Effect):
    keyword = "bid_bonus"

    def usable(self, state, seat, eff, turn):
        return state["pres"] is not None

    def resolve(self, state, seat, eff, target, turn, ev):
        bonus = state["pres"]["bonus"]
        bonus[str(seat)] = bonus.get(str(seat), 0) + eff.param("amount")
        ev.append(event("bid_changed", seat=seat, change=eff.param("amount")))


@_register
class BidMalus(Effect):
    keyword = "bid_malus"
    targeted = True

    def usable(self, state, seat, eff, turn):
        return state["pres"] is not None and super().usable(state, seat, eff, turn)

    def targets(self, state, seat, eff):
        return [{"type": "target", "party": p} for p in range(state["seats"]) if p != seat]

    def resolve(self, state, seat, eff, target, turn, ev):
        p = target["party"]
        bonus = state["pres"]["bonus"]
        bonus[str(p)] = bonus.get(str(p), 0) - eff.param("amount")
        ev.append(event("bid_changed", seat=p, change=-eff.param("amount"), by=seat))


# ------------------------------------------------------------------ campaign
@_register
class ExtraMarker(Effect):
    keyword = "extra_marker"
    targeted = True

    def targets(self, state, seat, eff):
        n = eff.param("count")
        return [{"type": "target", "enclosure": e} for e in board.enclosure_ids()
                if board.can_change(state, e, {seat: n})]

    def resolve(self, state, seat, eff, target, turn, ev):
        n = eff.param("count")
        board.change(state, target["enclosure"], {seat: n})
        ev.append(event("placed", seat=seat, enclosure=target["enclosure"], count=n,
                        source="card"))


@_register
class MoveMarker(Effect):
    keyword = "move_marker"
    targeted = True

    def targets(self, state, seat, eff):
        ids = board.enclosure_ids()
        out = []
        for a in ids:
            if not board.count(state, a, seat) or not board.can_change(state, a, {seat: -1}):
                continue
            for b in ids:
                if b != a and board.can_change(state, b, {seat: 1}):
                    out.append({"type": "target", "from": a, "to": b})
        return out

    def resolve(self, state, seat, eff, target, turn, ev):
        board.change(state, target["from"], {seat: -1})
        board.change(state, target["to"], {seat: 1})
        ev.append(event("moved", seat=seat, source=target["from"], to=target["to"]))


@_register
class LimitBonus(Effect):
    keyword = "limit_bonus"

    def usable(self, state, seat, eff, turn):
        return turn is not None

    def resolve(self, state, seat, eff, target, turn, ev):
        turn["extra_limit"] += eff.param("amount")
        ev.append(event("limit_raised", seat=seat, amount=eff.param("amount")))


@_register
class FactCheck(Effect):
    keyword = "fact_check"

    def usable(self, state, seat, eff, turn):
        return state["campaign"] is not None and not state["campaign"]["no_negative"]

    def resolve(self, state, seat, eff, target, turn, ev):
        state["campaign"]["no_negative"] = True
        ev.append(event("negative_campaign_blocked", seat=seat))


@_register
class LiftBlockade(Effect):
    keyword = "lift_blockade"

    def usable(self, state, seat, eff, turn):
        return state["blockaded"] is not None

    def resolve(self, state, seat, eff, target, turn, ev):
        ev.append(event("blockade_lifted", seat=seat, enclosure=state["blockaded"]))
        state["blockaded"] = None


@_register
class RemoveMarker(Effect):
    keyword = "remove_marker"
    targeted = True

    def targets(self, state, seat, eff):
        out = []
        for e in board.enclosure_ids():
            for p in range(state["seats"]):
                if p != seat and board.count(state, e, p) and board.can_change(state, e, {p: -1}):
                    out.append({"type": "target", "enclosure": e, "party": p})
        return out

    def resolve(self, state, seat, eff, target, turn, ev):
        board.change(state, target["enclosure"], {target["party"]: -1})
        ev.append(event("removed", seat=seat, enclosure=target["enclosure"],
                        party=target["party"]))


# ------------------------------------------------------------------ parliament
@_register
class StealSeat(Effect):
    keyword = "steal_seat"
    targeted = True

    def targets(self, state, seat, eff):
        n = eff.param("amount")
        return [{"type": "target", "party": p} for p in range(state["seats"])
                if p != seat and state["parliament"][p] >= n]

    def resolve(self, state, seat, eff, target, turn, ev):
        n = eff.param("amount")
        state["parliament"][target["party"]] -= n
        state["parliament"][seat] += n
        ev.append(event("seats_moved", to=seat, source=target["party"], seats=n))


@_register
class GainFood(Effect):
    keyword = "gain_food"

    def resolve(self, state, seat, eff, target, turn, ev):
        gain_food(state, seat, eff.param("amount"), ev, source="card")


@_register
class DrawCards(Effect):
    keyword = "draw_cards"

    def resolve(self, state, seat, eff, target, turn, ev):
        draw(state, seat, eff.param("amount"), ev, source="card")


# ------------------------------------------------------------------ government (with a vote)
@_register
class DoubleVote(Effect):
    keyword = "double_vote"

    def usable(self, state, seat, eff, turn):
        return False  # played with a vote, never in a window

    def resolve(self, state, seat, eff, target, turn, ev):  # pragma: no cover
        raise AssertionError("double_vote is resolved by the vote")


# ------------------------------------------------------------------ event
@_register
class CancelEvent(Effect):
    keyword = "cancel_event"

    def usable(self, state, seat, eff, turn):
        return state["event"] is not None and not state["event"]["cancelled"]

    def resolve(self, state, seat, eff, target, turn, ev):
        state["event"]["cancelled"] = True
        ev.append(event("event_cancelled", seat=seat, event=state["event"]["id"]))


# ------------------------------------------------------------------ no confidence
@_register
class Defection(Effect):
    keyword = "defection"
    targeted = True

    def targets(self, state, seat, eff):
        gov = state["gov"]
        if gov is None:
            return []
        n = eff.param("amount")
        return [{"type": "target", "party": p} for p in gov["members"]
                if p != seat and state["parliament"][p] >= n]

    def resolve(self, state, seat, eff, target, turn, ev):
        n = eff.param("amount")
        state["parliament"][target["party"]] -= n
        state["parliament"][seat] += n
        ev.append(event("seats_moved", to=seat, source=target["party"], seats=n,
                        defection=True))


# ------------------------------------------------------------------ progress
@_register
class BlockGoal(Effect):
    keyword = "block_goal"

    def usable(self, state, seat, eff, turn):
        return str(state["round"]) in state["promises"] and not state["round_goal"]["blocked"]

    def resolve(self, state, seat, eff, target, turn, ev):
        state["round_goal"]["blocked"] = True
        ev.append(event("goal_blocked", seat=seat, source="card"))


def goals_forbidden(state: dict) -> bool:
    """This round's event (revealed, not cancelled) forbids realising any goal this round.

    Seed 000, phase 5: goals "may not be realised this round, or only with an extra payment";
    that holds for every way of realising one, the promised goal and a card's alike."""
    cur = state["event"]
    if cur is None or cur["cancelled"] or cur.get("round") != state["round"]:
        return False
    goal = load_content().events[cur["id"]].goal
    return bool(goal and goal.blocked)


@_register
class BuyGoal(Effect):
    """Pay food to advance your goal: not in a round whose event forbids goals, and an event's
    extra cost for this round's goals (``round_goal.cost``) is added to the card's price."""

    keyword = "buy_goal"

    def price(self, state, eff) -> int:
        return eff.param("cost") + state["round_goal"]["cost"]

    def usable(self, state, seat, eff, turn):
        return not goals_forbidden(state) and state["food"][seat] >= self.price(state, eff)

    def resolve(self, state, seat, eff, target, turn, ev):
        pay_food(state, seat, self.price(state, eff), ev, source="card")
        advance_goal(state, seat, ev, source="card")


# ------------------------------------------------------------------ playing a card
def effect_of(card_id: str):
    return load_content().cards[card_id].effect


def playable(state: dict, seat: int, phase: str, turn: dict | None = None) -> list[str]:
    """The distinct cards of ``phase`` in ``seat``'s hand that can be played now."""
    cards = load_content().cards
    out = []
    for cid in sorted(set(state["hands"][seat])):
        card = cards[cid]
        if card.phase == phase and EFFECTS[card.effect.keyword].usable(state, seat, card.effect,
                                                                       turn):
            out.append(cid)
    return out


def play(state: dict, seat: int, card_id: str, ev: list, turn: dict | None = None) -> None:
    """Play ``card_id`` from ``seat``'s hand: shown, discarded, resolved (or a target asked)."""
    eff = effect_of(card_id)
    discard_card(state, seat, card_id)
    ev.append(event("card_played", seat=seat, card=card_id))
    handler = EFFECTS[eff.keyword]
    if handler.targeted:
        push(state, "card_target", seat=seat, card=card_id)
    else:
        handler.resolve(state, seat, eff, None, turn, ev)


def open_window(state: dict, phase: str) -> None:
    """Ask every party with cards in hand, in seat order, to play one card of ``phase``."""
    queue = [s for s in in_order(state) if state["hands"][s]]
    if queue:
        push(state, "window", phase=phase, queue=queue)


@decision
class Window(Decision):
    """One party's chance to play a card of the window's phase (or pass)."""

    kind = "window"

    def seats(self, state, frame):
        return (frame["queue"][0],)

    def skip(self, state, frame):
        q = frame["queue"]
        while q and not state["hands"][q[0]]:
            q.pop(0)
        return not q

    def legal(self, state, frame, seat):
        return [{"type": "pass"}] + [{"type": "card", "card": c}
                                     for c in playable(state, seat, frame["phase"])]

    def apply(self, state, frame, seat, action, ev):
        frame["queue"].pop(0)
        if action["type"] == "pass":
            return
        play(state, seat, action["card"], ev)

    def explain(self, state, frame, seat, action):
        if action.get("type") == "card":
            cid = action.get("card")
            if not isinstance(cid, str) or cid not in state["hands"][seat]:
                return IllegalAction("not_in_hand", "You do not hold that card.")
            return IllegalAction("card_not_playable",
                                 f"That card cannot be played in the {frame['phase']} window "
                                 "now (wrong phase or nothing to use it on).")
        return None


@decision
class CardTarget(Decision):
    """The follow-up of a played card: choose what it acts on."""

    kind = "card_target"

    def legal(self, state, frame, seat):
        eff = effect_of(frame["card"])
        return EFFECTS[eff.keyword].targets(state, seat, eff)

    def apply(self, state, frame, seat, action, ev):
        finish(state, frame)
        eff = effect_of(frame["card"])
        EFFECTS[eff.keyword].resolve(state, seat, eff, action, None, ev)

    def explain(self, state, frame, seat, action):
        if action.get("type") != "target":
            return None
        return IllegalAction("bad_target", "That is not a possible target for this card "
                             "(the no-tie rule, a blockade or the owner rule forbids it).")

