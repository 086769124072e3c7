"""A round: the seven phases in order, the hand limit, the round marker and the end of the game.

``round_start`` pushes one automatic frame per phase; each phase frame decides whether its
phase happens this round (elections only in election rounds) and pushes that phase's decisions.
The election rounds are tracked by two markers, ``pres_round`` and ``parl_round`` (the next
round with a presidential / parliamentary election).
"""

from __future__ import annotations

from ..core import IllegalAction, event
from .decisions import Decision, decision, push, push_all
from .parties import discard_card
from .tables import T

#: The phase frames of a round, in order.
PHASES = ["president", "campaign", "parliament", "government", "event", "no_confidence",
          "progress", "end_round"]


def schedule(state: dict, first: str = "president") -> None:
    """Push the phase frames of the rest of the round, starting with phase ``first``."""
    push_all(state, [f"phase_{p}" for p in PHASES[PHASES.index(first):]])


@decision
class RoundStart(Decision):
    kind = "round_start"
    auto = True

    def run(self, state, frame, ev):
        r = state["round"]
        state["elected"] = False
        state["round_goal"] = {"blocked": False, "cost": 0}
        ev.append(event("round", round=r, presidential=r == state["pres_round"],
                        parliamentary=r == state["parl_round"]))
        schedule(state)


@decision
class EndRound(Decision):
    """Phase 8 (bookkeeping): hand limit, then the round marker or the end of the game."""

    kind = "phase_end_round"
    auto = True

    def run(self, state, frame, ev):
        state["phase"] = "end_round"
        push(state, "round_end")
        if over_limit(state):
            push(state, "discard")


def over_limit(state: dict) -> list[int]:
    return [s for s in range(state["seats"]) if len(state["hands"][s]) > T.hand_limit]


@decision
class Discard(Decision):
    """Every party over the hand limit discards one card at a time (all at once)."""

    kind = "discard"

    def seats(self, state, frame):
        return over_limit(state)

    def skip(self, state, frame):
        return not over_limit(state)

    def legal(self, state, frame, seat):
        return [{"type": "discard", "card": c} for c in sorted(set(state["hands"][seat]))]

    def apply(self, state, frame, seat, action, ev):
        discard_card(state, seat, action["card"])
        ev.append(event("discarded", seat=seat, card=action["card"]))

    def explain(self, state, frame, seat, action):
        if action.get("type") == "discard":
            return IllegalAction("not_in_hand", "You do not hold that card.")
        return None


@decision
class RoundEnd(Decision):
    kind = "round_end"
    auto = True

    def run(self, state, frame, ev):
        r = state["round"]
        if state["end_flag"] or r >= T.rounds:
            reason = "end_flag" if state["end_flag"] else "last_round"
            state["over"] = {"reason": reason, "winner": None, "round": r}
            ev.append(event("game_over", reason=reason, round=r))
            return
        state["round"] = r + 1
        push(state, "round_start")
