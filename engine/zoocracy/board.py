"""The enclosures on the board: food markers per party, the no-tie rule, the office markers.

``state["board"]`` maps each enclosure id to ``{seat (as a string): markers}`` (parties with no
markers there are absent). Every change of the markers goes through :func:`change`, which
refuses a change that would leave two parties with the same count in an enclosure: there are
never ties on the board.
"""

from __future__ import annotations

from .content import load_content


def enclosure_ids() -> list[str]:
    return load_content().enclosure_ids


def empty_board() -> dict:
    return {e: {} for e in enclosure_ids()}


def tie_free(counts: dict[str, int]) -> bool:
    vals = [v for v in counts.values() if v > 0]
    return len(vals) == len(set(vals))


def changed(counts: dict[str, int], delta: dict[int, int]) -> dict[str, int] | None:
    """``counts`` after adding ``delta`` (seat -> markers, may be negative); None if a count
    would drop below 0 or two parties would tie."""
    new = dict(counts)
    for seat, d in delta.items():
        v = new.get(str(seat), 0) + d
        if v < 0:
            return None
        if v:
            new[str(seat)] = v
        else:
            new.pop(str(seat), None)
    return new if tie_free(new) else None


def can_change(state: dict, eid: str, delta: dict[int, int]) -> bool:
    """True if ``delta`` is allowed in enclosure ``eid``: no ties, no negative counts, and
    nothing added to a blockaded enclosure."""
    if state["blockaded"] == eid and any(d > 0 for d in delta.values()):
        return False
    return changed(state["board"][eid], delta) is not None


def change(state: dict, eid: str, delta: dict[int, int]) -> None:
    new = changed(state["board"][eid], delta)
    assert new is not None and not (state["blockaded"] == eid and any(d > 0 for d in delta.values()))
    state["board"][eid] = dict(sorted(new.items(), key=lambda kv: int(kv[0])))


def count(state: dict, eid: str, seat: int) -> int:
    return state["board"][eid].get(str(seat), 0)


def score(state: dict) -> tuple[list[int], list[dict]]:
    """Seats won by each party in each enclosure (first and second place; the manipulated
    enclosure gives only its fixed number to first place). Returns (seats per party, details)."""
    from .tables import T

    seats = [0] * state["seats"]
    details = []
    for enc in load_content().enclosures:
        counts = state["board"][enc.id]
        ranked = sorted(((v, int(s)) for s, v in counts.items() if v > 0), reverse=True)
        manipulated = state["manipulated"] == enc.id
        prizes = [T.manipulation_seats] if manipulated else [enc.first] + (
            [enc.second] if enc.second else [])
        won = {}
        for (_v, s), prize in zip(ranked, prizes):
            seats[s] += prize
            won[str(s)] = prize
        details.append({"enclosure": enc.id, "markers": dict(counts), "manipulated": manipulated,
                        "seats": won})
    return seats, details
