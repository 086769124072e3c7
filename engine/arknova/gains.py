"""Gaining things: money, appeal, the reputation and conservation tracks and their bonuses.

Gains are dicts such as ``{"money": 3, "upgrade": 1}`` (cards, map bonuses, tiles, incomes).
Anything that needs a choice (which card to upgrade, which bonus tile) becomes a decision frame.
"""

from __future__ import annotations

from ..core import event
from . import deck
from .decisions import Decision, decision, finish, push
from .tables import T

ACTIONS = ("animals", "build", "cards", "association", "sponsors")


def gain(state: dict, seat: int, gains: dict | None, ev: list, source: str | None = None) -> None:
    if not gains:
        return
    p = state["players"][seat]
    shown = {}
    for key, n in gains.items():
        if not n:
            continue
        if key == "money":
            p["money"] += n
        elif key == "appeal":
            p["appeal"] += n
        elif key == "conservation":
            add_conservation(state, seat, n, ev)
        elif key == "reputation":
            add_reputation(state, seat, n, ev)
        elif key == "x":
            p["x"] = min(T.max_x, p["x"] + n)
        elif key == "cards":
            draw_to_hand(state, seat, n, ev)
        elif key == "worker":
            p["workers"] = min(T.start.max_workers, p["workers"] + n)
        elif key == "upgrade":
            for _ in range(n):
                offer_upgrade(state, seat)
        elif key == "snap":
            for _ in range(n):
                if any(state["display"]):
                    push(state, "snap", seat=seat, left=1, anywhere=True)
        elif key == "pick_card":
            push(state, "pick_card", seat=seat)
        else:  # pragma: no cover - data validation forbids other keys
            raise ValueError(f"unknown gain {key!r}")
        shown[key] = n
    if shown:
        ev.append(event("gain", seat=seat, gains=shown, source=source))


def draw_to_hand(state: dict, seat: int, n: int, ev: list) -> list[str]:
    drawn = deck.draw(state, n)
    state["players"][seat]["hand"].extend(drawn)
    if drawn:
        ev.append(event("drew", seat=seat, count=len(drawn)))
        ev.append(event("drew_cards", only=[seat], seat=seat, cards=drawn))
    return drawn


def add_reputation(state: dict, seat: int, n: int, ev: list) -> None:
    p = state["players"][seat]
    rep = T.reputation
    cap = rep.max if p["upgraded"]["cards"] else rep.cap_without_cards_upgrade
    for _ in range(n):
        if p["reputation"] >= rep.max:
            p["appeal"] += 1
            continue
        if p["reputation"] >= cap:
            break
        p["reputation"] += 1
        r = p["reputation"]
        bonus = rep.bonuses.get(str(r))
        if bonus and r not in p["rep_bonuses"]:
            p["rep_bonuses"].append(r)
            ev.append(event("reputation_bonus", seat=seat, at=r))
            gain(state, seat, bonus, ev, source=f"reputation {r}")


def add_conservation(state: dict, seat: int, n: int, ev: list) -> None:
    p = state["players"][seat]
    cons = T.conservation
    for _ in range(n):
        if p["conservation"] >= cons.max:
            break
        p["conservation"] += 1
        cp = p["conservation"]
        if cp in p["cp_bonuses"]:
            continue
        if cp == cons.choice_at:
            p["cp_bonuses"].append(cp)
            push(state, "cp_choice", seat=seat)
        elif cp in cons.tiles_at:
            p["cp_bonuses"].append(cp)
            push(state, "tile", seat=seat, space=cp)
        if cp == cons.final_discard_at and not state["cp10"]:
            state["cp10"] = True
            seats = [s for s, q in enumerate(state["players"]) if len(q["final"]) > 1]
            if seats:
                push(state, "final_discard", pending=seats)


def upgradable(player: dict) -> list[str]:
    return [a for a in ACTIONS if not player["upgraded"][a]]


def offer_upgrade(state: dict, seat: int) -> None:
    if upgradable(state["players"][seat]):
        push(state, "upgrade", seat=seat)


@decision
class Upgrade(Decision):
    """Choose which action card to flip to side II."""

    kind = "upgrade"

    def skip(self, state, frame):
        return not upgradable(state["players"][frame["seat"]])

    def legal(self, state, frame, seat):
        return [{"type": "upgrade", "card": a} for a in upgradable(state["players"][seat])]

    def apply(self, state, frame, seat, action, ev):
        finish(state, frame)
        state["players"][seat]["upgraded"][action["card"]] = True
        ev.append(event("upgraded", seat=seat, card=action["card"]))


@decision
class ConservationChoice(Decision):
    """Conservation space 2: an upgrade or an extra worker."""

    kind = "cp_choice"

    def legal(self, state, frame, seat):
        p = state["players"][seat]
        out = []
        if upgradable(p):
            out.append({"type": "bonus", "choice": "upgrade"})
        if p["workers"] < T.start.max_workers:
            out.append({"type": "bonus", "choice": "worker"})
        return out

    def skip(self, state, frame):
        return not self.legal(state, frame, frame["seat"])

    def apply(self, state, frame, seat, action, ev):
        finish(state, frame)
        gain(state, seat, {action["choice"]: 1}, ev, source="conservation 2")


@decision
class BonusTile(Decision):
    """Conservation spaces 5 and 8: take a face-up bonus tile or the money."""

    kind = "tile"

    def legal(self, state, frame, seat):
        out = [{"type": "tile", "tile": t} for t in state["bonus_tiles"][str(frame["space"])]]
        out.append({"type": "tile_money"})
        return out

    def apply(self, state, frame, seat, action, ev):
        finish(state, frame)
        space = str(frame["space"])
        if action["type"] == "tile_money":
            gain(state, seat, {"money": T.conservation.tile_money[space]}, ev,
                 source=f"conservation {space}")
            return
        state["bonus_tiles"][space].remove(action["tile"])
        state["players"][seat]["tiles"].append(action["tile"])
        ev.append(event("bonus_tile", seat=seat, tile=action["tile"], space=int(space)))
        gain(state, seat, deck.card(action["tile"])["gain"], ev, source=action["tile"])


@decision
class PickCard(Decision):
    """Reputation 10 and 13: one card from the deck or from the display within range."""

    kind = "pick_card"

    def legal(self, state, frame, seat):
        p = state["players"][seat]
        out = [{"type": "pick", "from": "deck"}] if (state["deck"] or state["discard"]) else []
        for f in deck.reachable_folders(p):
            if state["display"][f - 1]:
                out.append({"type": "pick", "from": f})
        return out

    def skip(self, state, frame):
        return not self.legal(state, frame, frame["seat"])

    def apply(self, state, frame, seat, action, ev):
        finish(state, frame)
        if action["from"] == "deck":
            draw_to_hand(state, seat, 1, ev)
        else:
            take_display_card(state, seat, action["from"], ev)


def take_display_card(state: dict, seat: int, folder: int, ev: list) -> str:
    cid = deck.take_from_display(state, folder)
    state["players"][seat]["hand"].append(cid)
    ev.append(event("took_display", seat=seat, card=cid, folder=folder))
    return cid


@decision
class Snap(Decision):
    """Take display cards: within reputation range, or from any folder (``anywhere``)."""

    kind = "snap"

    def folders(self, state, frame):
        p = state["players"][frame["seat"]]
        reach = range(1, T.display_size + 1) if frame.get("anywhere") else deck.reachable_folders(p)
        return [f for f in reach if state["display"][f - 1]]

    def skip(self, state, frame):
        return frame["left"] <= 0 or not self.folders(state, frame)

    def legal(self, state, frame, seat):
        return [{"type": "snap", "folder": f} for f in self.folders(state, frame)] + [
            {"type": "done"}]

    def apply(self, state, frame, seat, action, ev):
        if action["type"] == "done":
            finish(state, frame)
            return
        frame["left"] -= 1
        take_display_card(state, seat, action["folder"], ev)


@decision
class FinalDiscard(Decision):
    """Everyone with two final-scoring cards discards one (all at the same time)."""

    kind = "final_discard"
    hidden = ()

    def seats(self, state, frame):
        return frame["pending"]

    def legal(self, state, frame, seat):
        return [{"type": "discard_final", "card": c} for c in state["players"][seat]["final"]]

    def apply(self, state, frame, seat, action, ev):
        p = state["players"][seat]
        p["final"].remove(action["card"])
        state["final_deck"].insert(0, action["card"])
        frame["pending"].remove(seat)
        ev.append(event("discarded_final", seat=seat))
        if not frame["pending"]:
            finish(state, frame)
