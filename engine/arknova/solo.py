"""The 1-seat game (docs/rules/arknova.md, "Solo"; after the published game's solo rules).

The solo tile replaces the break token. It is kept in the same two state fields as the break
track: ``break_len`` is the number of tokens in the tile's current row (7 at the start) and
``break_pos`` how many of them have moved this row. One token moves at the end of every turn;
when the last one of the row moves, a break follows (without the X token the break token would
give). At the end of each break one token leaves the tile and covers the lowest open donation
space of the association board (``state["donations"]`` counts covered spaces; beyond the
last priced space a token has no effect), so the next row is one token shorter: 7, 6, 5, 4, 3
and 2 turns between breaks. The game ends at the end of the break after the row of
``T.solo.last_row`` tokens (the 6th break, after 27 turns), then final scoring as usual.

What else changes (the rest of the rules is the multiplayer game's):
- setup as for 3 players: no blocked base project levels, no covered donation spaces; the zoo
  starts with ``options["solo_appeal"]`` appeal (20 by default; the difficulty);
- actions and abilities that would advance the break token do not (their money is still paid:
  :func:`engine.arknova.breaks.advance_break`);
- at most 2 projects lie in the project row (``T.project_row["1"]``);
- an animal's interaction with other zoos (venom, constriction, hypnosis, pilfering) is replaced
  by the card's ``solo`` effects (:func:`abilities_of`; the effects: :mod:`.solo_effects`);
- reaching 0 points does not end the game; the score is the result, the goal is 0 or more
  (:func:`details`).

This module holds only state and rule checks (no abilities), so the turn and the break can ask
it without an import circle.
"""

from __future__ import annotations

from ..core import event
from .decisions import push
from .keywords import INTERACTIONS
from .tables import T


def is_solo(state: dict) -> bool:
    """True for a 1-seat game (set up by :func:`setup`)."""
    return state.get("solo") is not None


def setup(state: dict, options: dict) -> None:
    """Make a freshly set-up 1-seat state a solo game (the players are already there)."""
    if state["seats"] != 1:
        return
    appeal = options["solo_appeal"]
    state["solo"] = {"appeal": appeal, "covered": 0}
    state["players"][0]["appeal"] = appeal


def end_of_turn(state: dict, seat: int, ev: list) -> None:
    """One token of the solo tile moves; the last of its row starts a break (no X token)."""
    state["break_pos"] = min(state["break_len"], state["break_pos"] + 1)
    if state["break_pos"] >= state["break_len"]:
        push(state, "break", seat=seat)


def after_break(state: dict, ev: list) -> None:
    """The end of a solo break: a token covers the lowest open donation space, the next row is
    one token shorter; after the shortest row's break the game ends (final scoring next)."""
    solo = state["solo"]
    state["donations"] += 1
    solo["covered"] += 1
    ev.append(event("solo_covered", donations=state["donations"], row=state["break_len"]))
    if state["break_len"] - 1 < T.solo.last_row:
        state["end"] = {"trigger": None, "remaining": []}
        ev.append(event("solo_end", breaks=state["breaks"], turns=state["turn"]))
    else:
        state["break_len"] -= 1


def turns_left(state: dict) -> int:
    """Turns still to play in a solo game (0 once its end has come)."""
    if state["end"] is not None or state["over"]:
        return 0
    rest = state["break_len"] - state["break_pos"]
    return rest + sum(range(T.solo.last_row, state["break_len"]))


def breaks_left(state: dict) -> float:
    """Breaks still to come, counting the current row's progress as a fraction."""
    if state["end"] is not None or state["over"]:
        return 0.0
    whole = state["break_len"] - T.solo.last_row + 1
    return whole - state["break_pos"] / max(1, state["break_len"])


def total_breaks() -> int:
    """Breaks in a whole solo game (6 with rows of 7 down to 2)."""
    return T.break_track["1"] - T.solo.last_row + 1


def public(state: dict) -> dict | None:
    """What the table shows of the solo game (None in a multiplayer game)."""
    if not is_solo(state):
        return None
    return {**state["solo"], "turns_left": turns_left(state), "breaks": total_breaks()}


def total_turns() -> int:
    """Turns in a whole solo game (27 with rows of 7 down to 2)."""
    return sum(range(T.solo.last_row, T.break_track["1"] + 1))


def abilities_of(state: dict, card: dict) -> list[dict]:
    """The abilities an animal resolves: in a solo game its interactions are replaced by its
    solo effects (``card["solo"]``, in the place of the first interaction)."""
    abilities = list(card.get("abilities") or ())
    if not is_solo(state) or not any(a["keyword"] in INTERACTIONS for a in abilities):
        return abilities
    out, replaced = [], False
    for ab in abilities:
        if ab["keyword"] not in INTERACTIONS:
            out.append(ab)
        elif not replaced:
            out.extend(card.get("solo") or ())
            replaced = True
    return out


def details(state: dict, vp: int) -> dict:
    """The solo part of the result: the score is the result, the goal is 0 or more."""
    solo = state["solo"]
    return {"score": vp, "goal": 0, "reached": vp >= 0, "start_appeal": solo["appeal"],
            "turns": state["turn"], "breaks": state["breaks"]}
