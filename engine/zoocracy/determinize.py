"""Determinization: resample what one seat cannot see (for bots that search).

``determinize(state, seat, rng)`` returns a copy of ``state`` in which everything hidden from
``seat`` is dealt again at random, keeping every pile's size:

- **action cards**: the deck and the other seats' hands are pooled (sorted, so only *which*
  cards are hidden matters, not where they lay) and dealt again;
- **secret answers** of other seats in a pending simultaneous decision: a bid is redrawn
  between its minimum and that party's treasury, a vote is redrawn as yes or no without a card;
- **event deck**: the events not yet revealed are shuffled, and the end flag, while not yet
  revealed, is put again on one of the allowed positions that are still to come;
- **treasuries** of the other parties: no view shows them, so they are estimated from what the
  seat sees: its own treasury plus the difference in parliament seats (seats are income), give
  or take 2, never below a minimum the seat can see (a re-bid's floor);
- the generator ``state["rng"]`` is reseeded from ``rng``.

Known limit: every change of a treasury is announced in public events (bids once revealed,
placements, income, card and event food), so a player who follows the log could know the other
treasuries exactly; the views do not carry that history, so the estimate stands in for it.
"""

from __future__ import annotations

from collections.abc import MutableMapping

from ..core import rng as _rng
from ..core.state import clone
from .tables import T


def determinize(state: dict, seat: int, rng: MutableMapping) -> dict:
    s = clone(state)
    holder = {"rng": _rng.next_u64(rng)}
    others = [o for o in range(s["seats"]) if o != seat]
    frame = s["stack"][-1] if s["stack"] else None
    pending_payment = {}
    if s.get("pres") and s["pres"].get("bids") and any(
            f["kind"] == "pres_resolve" for f in s["stack"]):
        from .president import final_bids

        pending_payment = final_bids(s["pres"])
    for o in others:
        floor = 0
        if frame is not None and frame["kind"] == "bid" and o in frame["bidders"]:
            floor = frame["min"][str(o)]
        if pending_payment:  # revealed bids are paid later: the treasury must still cover them
            floor = max(floor, pending_payment.get(str(o), 0))
        guess = s["food"][seat] + s["parliament"][o] - s["parliament"][seat] \
            + _rng.randbelow(holder, 5) - 2
        s["food"][o] = max(floor, guess, 0)
    if frame is not None and frame["kind"] == "bid":
        for key in sorted(frame["bids"], key=int):
            o = int(key)
            if o != seat:
                lo = frame["min"][key]
                frame["bids"][key] = lo + _rng.randbelow(holder, s["food"][o] - lo + 1)
    if frame is not None and frame["kind"] == "vote":
        for key in sorted(frame["votes"], key=int):
            if int(key) != seat:
                frame["votes"][key] = {"yes": _rng.randbelow(holder, 2) == 1, "card": None}
    piles = [s["deck"]] + [s["hands"][o] for o in others]
    pool = sorted(c for pile in piles for c in pile)
    _rng.shuffle(holder, pool)
    i = 0
    for pile in piles:
        n = len(pile)
        pile[:] = pool[i:i + n]
        i += n
    for o in others:
        s["hands"][o].sort()
    s["events"] = sorted(s["events"])
    _rng.shuffle(holder, s["events"])
    if not s["end_flag"]:
        seen = len(s["revealed"])
        later = [p for p in T.end_flag_positions if p > seen]
        if later:
            s["flag_at"] = later[_rng.randbelow(holder, len(later))]
    s["rng"] = _rng.next_u64(holder)
    return s
