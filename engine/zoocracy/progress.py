"""Phase 7, progress: a card window, card draws, the promised goal.

Every government party draws 1 action card and every other party 2 (without a government all
draw 2). The party promised this round's goal (in the "free hand" variant: the party the head
of government names) advances its goal marker 1 step, unless the goal is blocked; when an event
makes the goal cost food, that party pays it or forgoes the goal.
"""

from __future__ import annotations

from ..core import event
from .cards import open_window
from .decisions import Decision, decision, finish, push, push_all
from .parties import advance_goal, draw, in_order, pay_food
from .tables import T


@decision
class PhaseProgress(Decision):
    kind = "phase_progress"
    auto = True

    def run(self, state, frame, ev):
        state["phase"] = "progress"
        push_all(state, ["progress_draw", "progress_goal"])
        open_window(state, "progress")


@decision
class ProgressDraw(Decision):
    kind = "progress_draw"
    auto = True

    def run(self, state, frame, ev):
        gov = state["gov"]
        for s in in_order(state):
            n = T.progress_draw.government if gov and s in gov["members"] \
                else T.progress_draw.opposition
            draw(state, s, n, ev, source="progress")


def realise(state: dict, party: int, ev: list) -> None:
    cost = state["round_goal"]["cost"]
    if cost:
        push(state, "pay_goal", seat=party, cost=cost)
    else:
        advance_goal(state, party, ev, source="promise")


@decision
class ProgressGoal(Decision):
    kind = "progress_goal"
    auto = True

    def run(self, state, frame, ev):
        promised = state["promises"].get(str(state["round"]))
        if promised is None:
            return
        if state["round_goal"]["blocked"]:
            ev.append(event("goal_not_realised", party=promised, reason="blocked"))
            return
        gov = state["gov"]
        if state["options"]["free_hand"] and gov is not None:
            push(state, "assign_goal", seat=gov["head"], promised=promised)
            return
        realise(state, promised, ev)


@decision
class AssignGoal(Decision):
    """Free-hand variant: the head of government names who realises this round's goal."""

    kind = "assign_goal"

    def legal(self, state, frame, seat):
        return [{"type": "assign", "party": p} for p in range(state["seats"])]

    def apply(self, state, frame, seat, action, ev):
        finish(state, frame)
        ev.append(event("goal_assigned", seat=seat, party=action["party"],
                        promised=frame["promised"]))
        realise(state, action["party"], ev)


@decision
class PayGoal(Decision):
    """An event makes this round's goal cost food: pay it or forgo the goal."""

    kind = "pay_goal"

    def legal(self, state, frame, seat):
        out = [{"type": "decline"}]
        if state["food"][seat] >= frame["cost"]:
            out.insert(0, {"type": "pay"})
        return out

    def apply(self, state, frame, seat, action, ev):
        finish(state, frame)
        if action["type"] == "decline":
            ev.append(event("goal_not_realised", party=seat, reason="declined"))
            return
        pay_food(state, seat, frame["cost"], ev, source="goal")
        advance_goal(state, seat, ev, source="promise")
