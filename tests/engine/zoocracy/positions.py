"""Helpers to build Zoocracy positions for the rules tests."""

from __future__ import annotations

import engine
from engine.zoocracy import board, rounds
from engine.zoocracy.decisions import advance, top

G = engine.get_game("zoocracy")


def fresh(seats: int = 3, seed: int = 1, **options) -> dict:
    """A new game: round 1, everybody owes a presidential bid."""
    return G.setup(seats, options, seed)


def play(state: dict, seat: int, *actions: dict) -> tuple[dict, list]:
    events = []
    for a in actions:
        state, ev = G.apply(state, seat, a)
        events += ev
    return state, events


def kind(state: dict) -> str | None:
    f = top(state)
    return f["kind"] if f else None


def frame(state: dict) -> dict:
    return top(state)


def waiting(state: dict) -> list[int]:
    return sorted(G.waiting_for(state))


def start(state: dict, phase: str, *, elected: bool | None = None) -> tuple[dict, list]:
    """Throw away the pending decisions and run the round from ``phase`` (a constructed
    position: the caller has set up the board, treasuries, government ...)."""
    state["stack"] = []
    if elected is not None:
        state["elected"] = elected
    rounds.schedule(state, phase)
    ev: list = []
    advance(state, ev)
    return state, ev


def pass_windows(state: dict) -> tuple[dict, list]:
    """Everybody passes in the card windows on top of the stack."""
    events = []
    while kind(state) == "window":
        state, ev = G.apply(state, waiting(state)[0], {"type": "pass"})
        events += ev
    return state, events


def no_cards(state: dict) -> dict:
    """Empty every hand (no card windows will ask anybody)."""
    for h in state["hands"]:
        state["deck"].extend(h)
        h.clear()
    return state


def bid_all(state: dict, bids: list[int] | dict[int, int]) -> tuple[dict, list]:
    items = bids.items() if isinstance(bids, dict) else enumerate(bids)
    events = []
    for s, amount in items:
        state, ev = G.apply(state, s, {"type": "bid", "amount": amount})
        events += ev
    return state, events


def vote_all(state: dict, votes: dict[int, bool]) -> tuple[dict, list]:
    events = []
    for s, yes in votes.items():
        state, ev = G.apply(state, s, {"type": "vote", "yes": yes})
        events += ev
    return state, events


def set_board(state: dict, markers: dict[str, dict[int, int]]) -> None:
    state["board"] = board.empty_board()
    for e, counts in markers.items():
        state["board"][e] = {str(s): n for s, n in sorted(counts.items()) if n}


def set_gov(state: dict, members, head, finance, defence, *, ready=True, caretaker=False,
            ol="auto") -> None:
    from engine.zoocracy.parties import opposition_leader

    r = ready if isinstance(ready, dict) else {k: ready for k in
                                                ("head", "finance", "defence", "negative")}
    state["gov"] = {"members": sorted(members), "head": head, "finance": finance,
                    "defence": defence, "ready": dict(r), "caretaker": caretaker,
                    "formed": state["round"], "proposer": head, "had_majority": True}
    state["opposition_leader"] = opposition_leader(state) if ol == "auto" else ol


def propose(state: dict, seat: int, members: list[int], head: int, finance: int, defence: int,
            now: int, nxt: int) -> tuple[dict, list]:
    """Play a whole proposal chain for ``seat`` (the proposer is a member already)."""
    acts = [{"type": "add", "party": m} for m in members if m != seat]
    acts += [{"type": "members_done"},
             {"type": "office", "office": "head", "party": head},
             {"type": "office", "office": "finance", "party": finance},
             {"type": "office", "office": "defence", "party": defence},
             {"type": "goal", "slot": "now", "party": now},
             {"type": "goal", "slot": "next", "party": nxt}]
    return play(state, seat, *acts)
