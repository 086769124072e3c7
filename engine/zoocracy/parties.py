"""A party's belongings: food (treasury), action cards, the goal marker; seat order and roles."""

from __future__ import annotations

from ..core import event, rng as _rng
from .tables import T


def gain_food(state: dict, seat: int, amount: int, ev: list, source: str) -> None:
    state["food"][seat] += amount
    ev.append(event("food", seat=seat, amount=amount, source=source))


def pay_food(state: dict, seat: int, amount: int, ev: list, source: str) -> None:
    assert state["food"][seat] >= amount
    state["food"][seat] -= amount
    ev.append(event("food", seat=seat, amount=-amount, source=source))


def draw(state: dict, seat: int, n: int, ev: list, source: str) -> int:
    """Draw ``n`` action cards (the discard pile is shuffled into a new deck when the deck
    runs out; with both empty fewer cards are drawn). Returns how many were drawn."""
    got = []
    for _ in range(n):
        if not state["deck"]:
            if not state["discard"]:
                break
            state["deck"] = sorted(state["discard"])
            state["discard"] = []
            _rng.shuffle(state, state["deck"])
            ev.append(event("deck_reshuffled", size=len(state["deck"])))
        got.append(state["deck"].pop())
    state["hands"][seat].extend(got)
    state["hands"][seat].sort()
    if n:
        ev.append(event("drew", seat=seat, count=len(got), source=source))
        if got:
            ev.append(event("drew_cards", only=[seat], seat=seat, cards=got))
    return len(got)


def discard_card(state: dict, seat: int, card: str) -> None:
    state["hands"][seat].remove(card)
    state["discard"].append(card)


def advance_goal(state: dict, seat: int, ev: list, source: str, steps: int = 1) -> None:
    """Move ``seat``'s goal marker; reaching the last step ends the game at once (it wins)."""
    for _ in range(steps):
        if state["over"]:
            return
        state["goals"][seat] += 1
        ev.append(event("goal", seat=seat, step=state["goals"][seat], source=source))
        if state["goals"][seat] >= T.goal_track:
            state["over"] = {"reason": "goal_track", "winner": seat, "round": state["round"]}
            ev.append(event("game_over", reason="goal_track", winner=seat))


def by_seats(state: dict, parties: list[int]) -> list[int]:
    """``parties`` ordered by parliament seats, most first; ties keep the current seat order."""
    order = state["order"]
    return sorted(parties, key=lambda s: (-state["parliament"][s], order.index(s)))


def in_order(state: dict) -> list[int]:
    """All parties in the current seat order of parliament (most seats first)."""
    return by_seats(state, list(range(state["seats"])))


def government_seats(state: dict) -> int:
    gov = state["gov"]
    return sum(state["parliament"][s] for s in gov["members"]) if gov else 0


def role_seats(state: dict, role: str) -> list[int]:
    """The parties that hold ``role`` now (an event's food or cards go to them)."""
    gov = state["gov"]
    n = state["seats"]
    if role == "all":
        return list(range(n))
    if role == "president":
        return [state["president"]] if state["president"] is not None else []
    if role == "opposition_leader":
        ol = state["opposition_leader"]
        return [ol] if ol is not None else []
    if role == "government":
        return sorted(gov["members"]) if gov else []
    if role == "opposition":
        return [s for s in range(n) if not gov or s not in gov["members"]]
    if gov is None:
        return []
    return [gov[role]]


def opposition_leader(state: dict) -> int | None:
    """The non-government party with most seats (ties: seat order); None without government."""
    gov = state["gov"]
    if gov is None:
        return None
    others = [s for s in range(state["seats"]) if s not in gov["members"]]
    return by_seats(state, others)[0] if others else None


def hand_limit() -> int:
    return T.hand_limit
