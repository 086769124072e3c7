"""The Cards action (spec §4.3): draw, discard, or snap a display card; the break advances."""

from __future__ import annotations

from ...core import event
from .. import deck
from ..breaks import advance_break
from ..decisions import Decision, decision, finish, push
from ..gains import draw_to_hand, take_display_card
from ..tables import T, cards_row
from . import action


@action("cards")
def start(state, seat, strength, side, ev):
    advance_break(state, T.strength.cards_break_advance, ev, seat)
    row = cards_row(side, strength)
    if row is None:
        return
    push(state, "cards", seat=seat, side=side, draw=row.draw, discard=row.discard,
         snap=strength >= T.strength.cards_snap_from[str(side)], started=False)


@decision
class Cards(Decision):
    kind = "cards"

    def skip(self, state, frame):
        if frame["draw"] > 0:
            return False
        return frame["discard"] <= 0 or not state["players"][frame["seat"]]["hand"]

    def legal(self, state, frame, seat):
        p = state["players"][seat]
        out = []
        if frame["draw"] > 0:
            if not frame["started"] and frame["snap"]:
                out += [{"type": "snap", "folder": f} for f in range(1, T.display_size + 1)
                        if state["display"][f - 1]]
            if state["deck"] or state["discard"]:
                out.append({"type": "draw"})
            if frame["side"] == 2:
                out += [{"type": "draw", "folder": f} for f in deck.reachable_folders(p)
                        if state["display"][f - 1]]
            if not out:
                out.append({"type": "done"})
        else:
            out = [{"type": "discard", "card": c} for c in sorted(set(p["hand"]))]
        return out

    def apply(self, state, frame, seat, action, ev):
        kind = action["type"]
        if kind == "snap":
            finish(state, frame)
            take_display_card(state, seat, action["folder"], ev)
        elif kind == "done":
            finish(state, frame)
        elif kind == "draw":
            frame["started"] = True
            frame["draw"] -= 1
            if "folder" in action:
                take_display_card(state, seat, action["folder"], ev)
            else:
                draw_to_hand(state, seat, 1, ev)
        else:
            p = state["players"][seat]
            p["hand"].remove(action["card"])
            state["discard"].append(action["card"])
            frame["discard"] -= 1
            ev.append(event("discarded", seat=seat, card=action["card"]))
