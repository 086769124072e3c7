"""Phase 3, the parliamentary election: score the enclosures, a card window, income, majority.

First place in an enclosure wins its higher seat number, second place the lower one where the
enclosure has one; the manipulated enclosure gives only its fixed number (4) to first place.
After the card window (seat stealing) every party takes as much food from the supply as it has
seats. The markers leave the board; majority = floor(total seats / 2) + 1. Whether the sitting
government still has a majority under the new parliament is measured before the card window, so
that a seat taken from it by a card is a loss the vote of no confidence answers.
"""

from __future__ import annotations

from ..core import event
from . import board
from .cards import open_window
from .decisions import Decision, decision, push
from .parties import gain_food, in_order
from .tables import T


@decision
class PhaseParliament(Decision):
    kind = "phase_parliament"
    auto = True

    def run(self, state, frame, ev):
        state["phase"] = "parliament"
        if state["round"] != state["parl_round"]:
            return
        seats, details = board.score(state)
        state["parliament"] = seats
        state["scoring"] = {"round": state["round"], "enclosures": details}
        state["elected"] = True
        if state["gov"] is not None:
            # the sitting government's majority under the new parliament, measured *before*
            # the card window: a loss through a card (A11) is a loss through action cards, which
            # opens the vote of no confidence (seed 000, phase 6), not an election result
            state["gov"]["had_majority"] = (sum(seats[s] for s in state["gov"]["members"])
                                            >= sum(seats) // 2 + 1)
        ev.append(event("parliament_elected", seats=list(seats), enclosures=details))
        push(state, "parliament_income")
        open_window(state, "parliament")


@decision
class ParliamentIncome(Decision):
    kind = "parliament_income"
    auto = True

    def run(self, state, frame, ev):
        seats = state["parliament"]
        for s in range(state["seats"]):
            if seats[s]:
                gain_food(state, s, seats[s], ev, source="seats")
        total = sum(seats)
        state["majority"] = total // 2 + 1
        state["board"] = board.empty_board()
        state["manipulated"] = None
        state["blockaded"] = None
        state["order"] = in_order(state)
        state["parl_round"] = state["round"] + T.election_every
        ev.append(event("majority", seats=list(seats), total=total, majority=state["majority"],
                        order=list(state["order"])))
