"""The break (spec §7): hand limit, tokens, workers, association supply, display, income,
reset; the stall guard."""

from __future__ import annotations

from ..core import event
from . import deck, solo
from .actions.association import refill_supply
from .decisions import Decision, decision, finish, push
from .gains import gain
from .placement import adjacent_cells
from .scoring import end_triggered_by
from .tables import T, appeal_income
from .zoo import hand_limit, zoo_map


def advance_break(state: dict, n: int, ev: list, seat: int) -> None:
    """Advance the break token by ``n`` (the caller pays any money for it). A solo game has no
    break token: nothing moves (the money is still paid)."""
    if solo.is_solo(state):
        return
    before = state["break_pos"]
    state["break_pos"] = min(state["break_len"], before + n)
    if state["break_pos"] != before:
        ev.append(event("break_advanced", seat=seat, by=state["break_pos"] - before,
                        pos=state["break_pos"]))


@decision
class Break(Decision):
    """Starts the break: first everyone over the hand limit discards (at the same time)."""

    kind = "break"
    auto = True

    def run(self, state, frame, ev):
        ev.append(event("break", seat=frame["seat"], number=state["breaks"] + 1))
        push(state, "break_rest", seat=frame["seat"])
        over = {str(s): len(p["hand"]) - hand_limit(p)
                for s, p in enumerate(state["players"]) if len(p["hand"]) > hand_limit(p)}
        if over:
            push(state, "hand_limit", excess=over)


@decision
class HandLimit(Decision):
    kind = "hand_limit"

    def seats(self, state, frame):
        return [int(s) for s in sorted(frame["excess"], key=int)]

    def legal(self, state, frame, seat):
        return [{"type": "discard", "card": c} for c in sorted(set(state["players"][seat]["hand"]))]

    def apply(self, state, frame, seat, action, ev):
        p = state["players"][seat]
        p["hand"].remove(action["card"])
        state["discard"].append(action["card"])
        ev.append(event("discarded", seat=seat, card=action["card"], reason="hand limit"))
        # the break's summary names these discards too (the discard pile is public)
        rest = next((f for f in reversed(state["stack"]) if f.get("kind") == "break_rest"), None)
        if rest is not None:
            rest.setdefault("hand_limit", []).append([seat, action["card"]])
        key = str(seat)
        frame["excess"][key] -= 1
        if frame["excess"][key] <= 0:
            del frame["excess"][key]
        if not frame["excess"]:
            finish(state, frame)


def kiosk_income(player: dict) -> int:
    """1 money per distinct paying building next to each kiosk."""
    zmap = zoo_map(player)
    by_cell = {}
    for b in player["buildings"]:
        for c in b["cells"]:
            by_cell[tuple(c)] = b
    total = 0
    for k in player["buildings"]:
        if k["kind"] != "kiosk":
            continue
        seen = set()
        for cell in adjacent_cells(zmap, [tuple(c) for c in k["cells"]]):
            b = by_cell.get(cell)
            if b is None or b["id"] in seen:
                continue
            if b["kind"] in ("special", "pavilion", "sponsor") or (
                    b["kind"] == "enclosure" and b["animals"]):
                seen.add(b["id"])
        total += len(seen)
    return total


@decision
class BreakRest(Decision):
    kind = "break_rest"
    auto = True

    def run(self, state, frame, ev):
        trigger = frame["seat"]
        for p in state["players"]:
            p["venom"] = []
            p["constriction"] = []
            p["placed"] = 0
            p["task_uses"] = {}
        refill_supply(state)  # the association board's partner zoos and universities
        dropped = []
        for f in (0, 1):
            if state["display"][f]:
                dropped.append(state["display"][f])
                state["discard"].append(state["display"][f])
                state["display"][f] = None
        deck.refill_display(state)
        n = state["seats"]
        income = []
        for i in range(n):
            seat = (trigger + i) % n
            p = state["players"][seat]
            money = appeal_income(p["appeal"]) + kiosk_income(p)
            p["money"] += money
            income.append([seat, money])
            ev.append(event("income", seat=seat, money=money))
            for sid in p["sponsors"]:
                from .deck import card
                gain(state, seat, card(sid).get("income"), ev, source=sid)
            p["history"].append([p["appeal"], p["conservation"]])
        state["break_pos"] = 0
        state["breaks"] += 1
        # what every viewer may know of the break at once (the table's break summary): public
        ev.append(event("break_over", number=state["breaks"], income=income, dropped=dropped,
                        display=list(state["display"]), hand_limit=list(frame.get("hand_limit", []))))
        if solo.is_solo(state):
            solo.after_break(state, ev)  # a donation space covered, a shorter row, or the end
        elif state["end"] is None:
            order = [(trigger + 1 + i) % n for i in range(n)]
            if end_triggered_by(state):
                state["end"] = {"trigger": trigger, "remaining": order}
                ev.append(event("end_triggered", seat=trigger, remaining=order, in_break=True))
            elif state["breaks"] >= T.stall_breaks:
                # the stall guard (no real game gets here): finish like an end in a break,
                # with a last round for everyone, then final scoring
                state["end"] = {"trigger": None, "remaining": order}
                ev.append(event("stalled", breaks=state["breaks"], remaining=order))
