"""Phase 5, the event: reveal the top event card, a card window, then its effect.

The eight event cards are shuffled at setup; the game-end flag lies on one of the positions
``end_flag_positions`` of ``data/tables.json`` (6, 7 or 8: "among the last three"), chosen at
random and hidden. Revealing the flagged card ends the game after this round, even if a card
cancels the event's effect. Effects: food for office holders, a higher or lower limit for the
*next* campaign (this round's campaign is already over when the event is revealed), and this
round's goal blocked or costing food.
"""

from __future__ import annotations

from ..core import event
from .cards import open_window
from .content import load_content
from .decisions import Decision, decision, push
from .parties import draw, gain_food, role_seats


@decision
class PhaseEvent(Decision):
    kind = "phase_event"
    auto = True

    def run(self, state, frame, ev):
        state["phase"] = "event"
        if not state["events"]:
            return
        eid = state["events"].pop(0)
        position = len(state["revealed"]) + 1
        flag = position == state["flag_at"]
        state["event"] = {"id": eid, "flag": flag, "cancelled": False, "round": state["round"]}
        state["revealed"].append({"id": eid, "flag": flag})
        if flag:
            state["end_flag"] = True
        ev.append(event("event", id=eid, flag=flag))
        push(state, "event_apply")
        open_window(state, "event")


@decision
class EventApply(Decision):
    kind = "event_apply"
    auto = True

    def run(self, state, frame, ev):
        cur = state["event"]
        if cur is None or cur["cancelled"]:
            return
        card = load_content().events[cur["id"]]
        for role, amount in card.food.items():
            for s in role_seats(state, role):
                gain_food(state, s, amount, ev, source="event")
        for role, n in card.draw.items():
            for s in role_seats(state, role):
                draw(state, s, n, ev, source="event")
        if card.campaign_limit:
            state["limit_mod"] += card.campaign_limit
            ev.append(event("next_campaign_limit", change=card.campaign_limit))
        if card.goal is not None:
            if card.goal.blocked:
                state["round_goal"]["blocked"] = True
                ev.append(event("goal_blocked", source="event"))
            if card.goal.cost:
                state["round_goal"]["cost"] += card.goal.cost
                ev.append(event("goal_cost", cost=state["round_goal"]["cost"]))
