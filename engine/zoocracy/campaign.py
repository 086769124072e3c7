"""Phase 2, the campaign: office markers, then every party's campaign turn in seat order.

Order: most parliament seats first (ties keep the previous order); in round 1 the president
first and then clockwise, or a seeded random order without a president. At the start the
finance minister may put the manipulation marker and the defence minister the blockade marker
on an enclosure (each once per government term). On its turn a party places food from its
treasury, up to the campaign limit in all, at most 3 into one enclosure per turn, never into the
blockaded enclosure, never creating a tie; the head of government may add 2 food from the supply
once per term; the opposition leader may run one negative campaign per term; campaign cards are
played during the own turn.
"""

from __future__ import annotations

from ..core import IllegalAction, event, rng as _rng
from . import board
from .cards import play, playable
from .decisions import Decision, decision, finish, push
from .parties import in_order, pay_food
from .tables import T, per_players


def first_order(state: dict) -> list[int]:
    """Round 1: the president first, then clockwise; without a president a random order."""
    n = state["seats"]
    p = state["president"]
    if p is not None:
        return [(p + i) % n for i in range(n)]
    order = list(range(n))
    _rng.shuffle(state, order)
    return order


@decision
class PhaseCampaign(Decision):
    kind = "phase_campaign"
    auto = True

    def run(self, state, frame, ev):
        state["phase"] = "campaign"
        state["order"] = first_order(state) if state["round"] == 1 else in_order(state)
        limit = max(0, per_players(T.campaign_limit, state["seats"]) + state["limit_mod"])
        state["limit_mod"] = 0
        state["campaign"] = {"limit": limit, "no_negative": False}
        ev.append(event("campaign", order=list(state["order"]), limit=limit))
        push(state, "campaign_end")
        for s in reversed(state["order"]):
            push(state, "campaign_turn", seat=s, paid=0, free=0, extra_limit=0, placed={})
        gov = state["gov"]
        if gov is not None:
            for office in ("defence", "finance"):  # finance minister first
                if gov["ready"][office]:
                    push(state, "office", seat=gov[office], office=office)


OFFICE_MARKER = {"finance": "manipulated", "defence": "blockaded"}


@decision
class Office(Decision):
    """The finance minister's manipulation marker or the defence minister's blockade."""

    kind = "office"

    def legal(self, state, frame, seat):
        return [{"type": "hold"}] + [{"type": "marker", "enclosure": e}
                                     for e in board.enclosure_ids()]

    def apply(self, state, frame, seat, action, ev):
        finish(state, frame)
        if action["type"] == "hold":
            ev.append(event("office_held", seat=seat, office=frame["office"]))
            return
        key = OFFICE_MARKER[frame["office"]]
        state[key] = action["enclosure"]
        state["gov"]["ready"][frame["office"]] = False
        ev.append(event(key, seat=seat, enclosure=action["enclosure"]))


def budget(state: dict, frame: dict, seat: int) -> int:
    """Markers the party may still place this turn (free ones first, then paid ones)."""
    limit = state["campaign"]["limit"] + frame["extra_limit"]
    paid_left = max(0, min(limit - frame["paid"], state["food"][seat]))
    return frame["free"] + paid_left


def can_negative(state: dict, seat: int) -> bool:
    gov = state["gov"]
    return (gov is not None and state["opposition_leader"] == seat and gov["ready"]["negative"]
            and not state["campaign"]["no_negative"])


@decision
class CampaignTurn(Decision):
    kind = "campaign_turn"

    def legal(self, state, frame, seat):
        out = []
        left = budget(state, frame, seat)
        for e in board.enclosure_ids():
            room = T.per_enclosure - frame["placed"].get(e, 0)
            for k in range(1, min(room, left) + 1):
                if board.can_change(state, e, {seat: k}):
                    out.append({"type": "place", "enclosure": e, "count": k})
        gov = state["gov"]
        if gov is not None and gov["head"] == seat and gov["ready"]["head"]:
            out.append({"type": "head_bonus"})
        if can_negative(state, seat):
            for e in board.enclosure_ids():
                for p in range(state["seats"]):
                    if p != seat and board.count(state, e, p) and \
                            board.can_change(state, e, {p: -1, seat: 1}):
                        out.append({"type": "negative", "enclosure": e, "party": p})
        out += [{"type": "card", "card": c} for c in playable(state, seat, "campaign", frame)]
        out.append({"type": "done"})
        return out

    def apply(self, state, frame, seat, action, ev):
        kind = action["type"]
        if kind == "done":
            finish(state, frame)
            ev.append(event("campaign_done", seat=seat))
        elif kind == "place":
            e, k = action["enclosure"], action["count"]
            free = min(frame["free"], k)
            frame["free"] -= free
            if k - free:
                pay_food(state, seat, k - free, ev, source="campaign")
            frame["paid"] += k - free
            frame["placed"][e] = frame["placed"].get(e, 0) + k
            board.change(state, e, {seat: k})
            ev.append(event("placed", seat=seat, enclosure=e, count=k, free=free))
        elif kind == "head_bonus":
            frame["free"] += T.head_extra_food
            state["gov"]["ready"]["head"] = False
            ev.append(event("head_bonus", seat=seat, food=T.head_extra_food))
        elif kind == "negative":
            e, p = action["enclosure"], action["party"]
            board.change(state, e, {p: -1, seat: 1})
            state["gov"]["ready"]["negative"] = False
            ev.append(event("negative_campaign", seat=seat, enclosure=e, party=p))
        elif kind == "card":
            play(state, seat, action["card"], ev, turn=frame)

    def explain(self, state, frame, seat, action):
        kind = action.get("type")
        e = action.get("enclosure")
        if kind in ("place", "negative") and e not in board.enclosure_ids():
            return IllegalAction("no_such_enclosure", f"There is no enclosure {e!r}.")
        if kind == "place":
            k = action.get("count")
            if not isinstance(k, int) or k < 1:
                return IllegalAction("malformed", "count must be a whole number of at least 1.")
            if state["blockaded"] == e:
                return IllegalAction("blockaded", "Nobody may add food to the blockaded "
                                     "enclosure.")
            if frame["placed"].get(e, 0) + k > T.per_enclosure:
                return IllegalAction("enclosure_limit", f"At most {T.per_enclosure} food into "
                                     "one enclosure per campaign turn.")
            if k > budget(state, frame, seat):
                return IllegalAction("over_limit", "That is more than your campaign limit or "
                                     "your treasury allows.")
            return IllegalAction("tie", "No ties: your count there must differ from every "
                                 "other party's.")
        if kind == "negative":
            if not can_negative(state, seat):
                return IllegalAction("no_negative_campaign", "Only the opposition leader may "
                                     "run a negative campaign, once per term, unless it is "
                                     "blocked.")
            return IllegalAction("tie", "The swap would create a tie, hits a blockade or "
                                 "that party has no food there.")
        if kind == "head_bonus":
            return IllegalAction("no_office_power", "Only the head of government may add 2 "
                                 "food, once per term.")
        if kind == "card":
            return IllegalAction("card_not_playable", "You do not hold that card, or it is "
                                 "not a campaign card that can be used now.")
        return None


@decision
class CampaignEnd(Decision):
    kind = "campaign_end"
    auto = True

    def run(self, state, frame, ev):
        state["campaign"] = None
