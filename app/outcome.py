"""A game's outcome as the app records it: the engine's result, adjusted for resignations.

The engine knows nothing of resigning (its contract has no such notion), so the override
lives here and is stored by the app (``games.result``), never in the engine state: the state
hash of a game stays the one ``engine.replay`` rebuilds from the seed and the log (the log's
``resign`` rows change no state, :mod:`app.history`).

- A resigned seat finishes **last**: behind every seat that did not resign; of several, the
  one who resigned first is the very last.
- When a resignation leaves at most one seat that did not resign, or none played by a person,
  the game **ends at once** (:func:`ended_by_resignation`): the seats left share first place.
- Otherwise the others play on (a bot plays the resigned seat) and the engine's final result
  is reordered (:func:`with_resignations`).

Both results carry ``resigned`` (the seats in the order they resigned) and ``details.places``
(seat -> place, 1 = first), from which the ratings score the game (:func:`places_of`).

Pure functions: no I/O.
"""

from __future__ import annotations

from collections.abc import Iterable


def places_of(result: dict) -> dict[int, int]:
    """Seat -> place (1 = first; equal places are a draw) from a result."""
    details = result.get("details") or {}
    ranking = [int(s) for s in result.get("ranking") or []]
    scores = {int(k): v for k, v in (result.get("scores") or {}).items()}
    given = details.get("places") if isinstance(details, dict) else None
    if isinstance(given, dict) and given:
        return {int(k): int(v) for k, v in given.items()}
    winners = details.get("winners") if isinstance(details, dict) else None
    places: dict[int, int] = {}
    if isinstance(winners, list) and winners:
        won = {int(w) for w in winners}
        for seat in won:
            places[seat] = 1
        for i, seat in enumerate(s for s in ranking if s not in won):
            places[seat] = len(won) + i + 1
        return places
    for i, seat in enumerate(ranking):
        if i and scores.get(seat) is not None and scores.get(seat) == scores.get(ranking[i - 1]):
            places[seat] = places[ranking[i - 1]]
        else:
            places[seat] = i + 1
    return places


def _last(resigned: list[int], ahead: int) -> dict[int, int]:
    """Places of the resigned seats behind ``ahead`` seats: the first to resign is last."""
    return {seat: ahead + i + 1 for i, seat in enumerate(reversed(resigned))}


def with_resignations(result: dict, resigned: Iterable[int]) -> dict:
    """The engine's final ``result`` with the ``resigned`` seats (in the order they resigned)
    moved behind every other seat; the others keep their places among themselves."""
    order = [int(s) for s in resigned]
    if not order:
        return result
    places = places_of(result)
    stay = [int(s) for s in result.get("ranking") or [] if int(s) not in order]
    new_places = {s: 1 + sum(1 for o in stay if places.get(o, 0) < places.get(s, 0))
                  for s in stay}
    new_places.update(_last(order, len(stay)))
    details = dict(result.get("details") or {})
    details["places"] = {str(s): p for s, p in sorted(new_places.items())}
    return {**result, "ranking": stay + list(reversed(order)), "details": details,
            "resigned": order}


def ended_by_resignation(seat_count: int, resigned: Iterable[int]) -> dict:
    """The result of a game that ends at once because of a resignation: the seats that did
    not resign share first place (no scores: the game was not played out)."""
    order = [int(s) for s in resigned]
    stay = [s for s in range(seat_count) if s not in order]
    places = {s: 1 for s in stay}
    places.update(_last(order, len(stay)))
    return {"scores": {}, "ranking": stay + list(reversed(order)),
            "details": {"places": {str(s): p for s, p in sorted(places.items())},
                        "winners": stay},
            "resigned": order, "ended_by": "resignation"}


def ends_now(seats: Iterable[tuple[int, bool]], resigned: Iterable[int]) -> bool:
    """Whether the game ends at once: ``seats`` are ``(seat, played by a person)`` pairs;
    True when at most one seat is left that did not resign, or none of them a person's."""
    gone = set(resigned)
    left = [(s, person) for s, person in seats if s not in gone]
    return len(left) <= 1 or not any(person for _, person in left)


def aborted(seat: int) -> dict:
    """The result of a game aborted by ``seat``'s player before its play began: nobody won,
    nothing is rated."""
    return {"scores": {}, "ranking": [], "details": {}, "aborted": int(seat),
            "ended_by": "abort"}


def play_began(initial: Iterable[int], decisions: Iterable[int]) -> bool:
    """Whether a seat made its first decision of play: ``initial`` are the seats the game was
    dealt waiting for, ``decisions`` the seats of the effective log in order. The opening is
    the first decision of each seat in a simultaneous first decision (Ark Nova's keep of four
    cards, Zoocracy's first bid); any other decision is of play."""
    opening = set(initial) if len(set(initial)) > 1 else set()
    seen: set[int] = set()
    for seat in decisions:
        if seat not in opening or seat in seen:
            return True
        seen.add(seat)
    return False


def recorded(status: str, result: dict | None) -> dict | None:
    """The recorded result of a game that a resignation or an abort ended or reordered (the
    engine's own result differs or is None); None for any other game."""
    if status == "finished" and result and (result.get("resigned")
                                            or result.get("aborted") is not None):
        return result
    return None
