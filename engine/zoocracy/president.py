"""Phase 1, the presidential election: secret simultaneous bids, a card window, the re-bid.

Every party secretly bids food from its treasury; the bids are revealed together; then a card
window (bid bonus / malus cards). The highest bid (with card changes) wins: the president
advances its goal marker and draws a card. Everybody pays its bid and gets half of it back
(rounded down). On a tie at the top only the tied parties bid again, each at least its first
bid; a second tie means no president this time, and the next presidential election moves one
round earlier.
"""

from __future__ import annotations

from ..core import IllegalAction, event
from .cards import open_window
from .decisions import Decision, decision, finish, push
from .parties import advance_goal, draw, pay_food
from .tables import T


@decision
class PhasePresident(Decision):
    kind = "phase_president"
    auto = True

    def run(self, state, frame, ev):
        state["phase"] = "president"
        if state["round"] != state["pres_round"]:
            return
        n = state["seats"]
        state["pres"] = {"round": state["round"], "stage": 1, "bids": None, "rebids": None,
                         "bonus": {}, "winner": None}
        push(state, "bid", stage=1, bidders=list(range(n)), min={str(s): 0 for s in range(n)},
             bids={})


@decision
class Bid(Decision):
    """A secret bid; revealed when every bidder has bid."""

    kind = "bid"
    hidden = ("bids",)
    simultaneous = True

    def seats(self, state, frame):
        return [s for s in frame["bidders"] if str(s) not in frame["bids"]]

    def legal(self, state, frame, seat):
        lo = frame["min"][str(seat)]
        return [{"type": "bid", "amount": a} for a in range(lo, state["food"][seat] + 1)]

    def public(self, state, frame):
        out = super().public(state, frame)
        out["answered"] = sorted(int(s) for s in frame["bids"])
        return out

    def private(self, state, frame, seat):
        out = self.public(state, frame)
        out["mine"] = frame["bids"].get(str(seat))
        return out

    def apply(self, state, frame, seat, action, ev):
        frame["bids"][str(seat)] = action["amount"]
        ev.append(event("bid_placed", seat=seat))
        ev.append(event("my_bid", only=[seat], seat=seat, amount=action["amount"]))
        if self.seats(state, frame):
            return
        finish(state, frame)
        bids = dict(sorted(frame["bids"].items(), key=lambda kv: int(kv[0])))
        pres = state["pres"]
        stage = frame["stage"]
        pres["stage"] = stage
        pres["bids" if stage == 1 else "rebids"] = bids
        ev.append(event("bids_revealed", stage=stage, bids=bids))
        push(state, "pres_resolve", stage=stage)
        if stage == 1:
            open_window(state, "president")

    def explain(self, state, frame, seat, action):
        amount = action.get("amount")
        if action.get("type") == "bid" and isinstance(amount, int):
            if amount > state["food"][seat]:
                return IllegalAction("not_enough_food",
                                     f"You have only {state['food'][seat]} food.")
            if amount < frame["min"][str(seat)]:
                return IllegalAction("bid_too_low", "A re-bid must be at least your first bid "
                                     f"({frame['min'][str(seat)]}).")
        return None


def final_bids(pres: dict) -> dict[str, int]:
    out = dict(pres["bids"])
    out.update(pres["rebids"] or {})
    return out


def effective(pres: dict) -> dict[str, int]:
    """Each party's bid as it counts: its last bid plus card changes, never below 0."""
    return {s: max(0, b + pres["bonus"].get(s, 0)) for s, b in final_bids(pres).items()}


@decision
class PresResolve(Decision):
    kind = "pres_resolve"
    auto = True

    def run(self, state, frame, ev):
        pres = state["pres"]
        eff = effective(pres)
        top = max(eff.values())
        tied = sorted(int(s) for s, v in eff.items() if v == top)
        if len(tied) > 1 and frame["stage"] == 1:
            ev.append(event("bid_tie", parties=tied, amount=top))
            push(state, "bid", stage=2, bidders=tied,
                 min={str(s): pres["bids"][str(s)] for s in tied}, bids={})
            return
        for s, b in final_bids(pres).items():
            back = b // 2
            if b:
                pay_food(state, int(s), b - back, ev, source="bid")
        r = state["round"]
        if len(tied) > 1:
            state["president"] = None
            state["pres_round"] = r + T.election_every - 1
            ev.append(event("no_president", parties=tied, next_election=state["pres_round"]))
            return
        winner = tied[0]
        pres["winner"] = winner
        state["president"] = winner
        state["pres_round"] = r + T.election_every
        ev.append(event("president", seat=winner, bid=eff[str(winner)]))
        draw(state, winner, T.president.draw, ev, source="president")
        advance_goal(state, winner, ev, source="president", steps=T.president.goal_steps)
