"""Direct legality checks of answers, by decision kind (the engine's fast path of ``check``).

``Game.check`` used to list every legal answer of the decision and look the action up among
them (as canonical JSON, so that ``1.0`` is not ``1`` and ``true`` is not ``1``). Here the
common and expensive decisions check an answer against the decision itself: the action card
of a turn, the building to build and where to place it, the animal and sponsor cards, card
draws, discards and keeps. A checker returns True only for an answer that is exactly one of
``legal_actions`` (same keys, same types, same values); False means "not shown here", and
``check`` then decides by listing, as before, so refusals keep their codes and sentences.
``tests/engine/arknova/test_validate.py`` checks every checker against the listing on many
positions of random games: each listed answer passes, near misses do not.

Checkers narrow the listing to the card asked for (``animal_options(..., only=card)``) where
the rules are involved, so they share the rules' code instead of repeating it.
"""

from __future__ import annotations

from collections.abc import Callable

from ..core.state import canonical_json
from . import deck
from .actions.animals import animal_options
from .actions.association import (
    TASKS as ASSOCIATION_TASKS,
    donation_cost,
    partner_options,
    university_options,
    workers_needed,
)
from .actions.build import can_build
from .actions.projects import support_options
from .actions.sponsors import sponsor_options
from .tables import T
from .zoo import active_workers, placements
from .zoomap import load_buildings

Checker = Callable[[dict, dict, int, dict], bool]
CHECKERS: dict[str, Checker] = {}


def checker(kind: str):
    def register(fn: Checker) -> Checker:
        CHECKERS[kind] = fn
        return fn
    return register


def accepts(state: dict, frame: dict, seat: int, action: dict) -> bool:
    """True if ``action`` is certainly a legal answer of ``seat`` to ``frame`` (the top)."""
    fn = CHECKERS.get(frame["kind"])
    return fn is not None and fn(state, frame, seat, action)


# --------------------------------------------------------------------------- helpers
def _only(action: dict, n: int) -> bool:
    """The action has exactly ``n`` keys (its type and ``n - 1`` others, checked by caller)."""
    return len(action) == n


def _card(action: dict, cards) -> bool:
    """``{"type": ..., "card": <a str among cards>}`` and nothing else."""
    c = action.get("card")
    return len(action) == 2 and type(c) is str and c in cards


def _folder(action: dict, key: str = "folder"):
    f = action.get(key)
    return f if type(f) is int else None


def _among(action: dict, candidates: list) -> bool:
    """Exactly equal (as JSON: types included) to one of a few candidates."""
    if not candidates:
        return False
    try:
        wanted = canonical_json(action)
    except TypeError:
        return False
    return any(canonical_json(a) == wanted for a in candidates)


# --------------------------------------------------------------------------- turns
@checker("turn")
def _turn(state, frame, seat, action):
    p = state["players"][seat]
    t = action["type"]
    card = action.get("card")
    if type(card) is not str or card not in p["cards"]:
        return False
    if t == "action":
        x = action.get("x")
        return len(action) == 3 and type(x) is int and 0 <= x <= p["x"]
    if t == "x_token":
        return len(action) == 2 and p["x"] < T.max_x
    return False


@checker("keep")
def _keep(state, frame, seat, action):
    offer = frame["offer"].get(str(seat))
    cards = action.get("cards")
    if action["type"] != "keep" or len(action) != 2 or offer is None or \
            type(cards) is not list or len(cards) != T.start.keep:
        return False
    i = 0  # the kept cards are a subsequence of the offer, in its order (combinations)
    for c in cards:
        if type(c) is not str:
            return False
        while i < len(offer) and offer[i] != c:
            i += 1
        if i == len(offer):
            return False
        i += 1
    return True


# --------------------------------------------------------------------------- building
@checker("build")
def _build(state, frame, seat, action):
    t = action["type"]
    if t == "done":
        return _only(action, 1)
    b = action.get("building")
    return (t == "building" and _only(action, 2) and type(b) is str and b in load_buildings()
            and (frame["side"] == 2 or not frame["built"]) and can_build(state, seat, frame, b))


@checker("place")
def _place(state, frame, seat, action):
    t = action["type"]
    if t != "place":
        return _only(action, 1) and t == ("back" if frame.get("back") else "skip")
    cells = action.get("cells")
    if not _only(action, 2) or type(cells) is not list:
        return False
    key = []
    for c in cells:
        if type(c) is not list or len(c) != 2 or type(c[0]) is not int or type(c[1]) is not int:
            return False
        key.append((c[0], c[1]))
    return tuple(key) in placements(state["players"][seat], frame["building"], frame["upgraded"])


# --------------------------------------------------------------------------- cards
@checker("animals")
def _animals(state, frame, seat, action):
    t = action["type"]
    if t == "done":
        return _only(action, 1)
    card = action.get("card")
    return t == "animal" and type(card) is str and _among(
        action, animal_options(state, seat, frame["side"], only=card))


@checker("sponsors")
def _sponsors(state, frame, seat, action):
    t = action["type"]
    if t == "done":
        return _only(action, 1)
    if t == "break_action":
        return _only(action, 1) and not frame["played"] and frame["strength"] > 0
    card = action.get("card")
    return t == "sponsor" and type(card) is str and _among(
        action, sponsor_options(state, seat, frame, only=card))


@checker("cards")
def _cards(state, frame, seat, action):
    t = action["type"]
    p = state["players"][seat]
    if frame["draw"] <= 0:
        return t == "discard" and _card(action, p["hand"])
    display = state["display"]
    if t == "snap":
        f = _folder(action)
        return (_only(action, 2) and not frame["started"] and bool(frame["snap"])
                and f is not None and 1 <= f <= T.display_size and bool(display[f - 1]))
    if t == "draw":
        if _only(action, 1):
            return bool(state["deck"] or state["discard"])
        f = _folder(action)
        return (_only(action, 2) and frame["side"] == 2 and f is not None
                and f in deck.reachable_folders(p) and bool(display[f - 1]))
    return False  # "done" only when nothing else is possible: the listing says


@checker("hand_limit")
def _hand_limit(state, frame, seat, action):
    return action["type"] == "discard" and _card(action, state["players"][seat]["hand"])


@checker("final_discard")
def _final_discard(state, frame, seat, action):
    return action["type"] == "discard_final" and _card(action, state["players"][seat]["final"])


@checker("hand_cards")
def _hand_cards(state, frame, seat, action):
    t = action["type"]
    if t == "done":
        return _only(action, 1)
    return t == frame["mode"] and _card(action, state["players"][seat]["hand"])


@checker("pick_card")
def _pick_card(state, frame, seat, action):
    src = action.get("from")
    if action["type"] != "pick" or not _only(action, 2):
        return False
    if src == "deck" and type(src) is str:
        return bool(state["deck"] or state["discard"])
    return (type(src) is int and src in deck.reachable_folders(state["players"][seat])
            and bool(state["display"][src - 1]))


# --------------------------------------------------------------------------- association
@checker("association")
def _association(state, frame, seat, action):
    t = action["type"]
    if t == "done":
        return _only(action, 1)
    p = state["players"][seat]
    if t == "donate":
        return (_only(action, 1) and frame["side"] == 2 and bool(frame["done"])
                and not frame["donated"] and p["money"] >= donation_cost(state))
    task = "project" if t == "support" else action.get("task")
    if t not in ("task", "support") or type(task) is not str or task not in ASSOCIATION_TASKS \
            or ASSOCIATION_TASKS[task] > frame["left"] or task in frame["done"]:
        return False
    need = workers_needed(p, task)
    if need is None or need > active_workers(p):
        return False
    if task == "reputation":
        return _only(action, 2)
    if task == "partner":
        c = action.get("continent")
        return _only(action, 3) and type(c) is str and \
            c in partner_options(state, p, frame["side"])
    if task == "university":
        u = action.get("university")
        return _only(action, 3) and type(u) is str and u in university_options(state, p)
    return _among(action, support_options(state, seat, frame["side"]))
