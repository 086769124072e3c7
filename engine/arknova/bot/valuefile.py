"""The learned value's weights file (``engine/arknova/data/value.json``): its feature names
and its validation (:func:`validate`), apart from the evaluation that reads it
(:mod:`.learned`).

A file has a ``duel`` and a ``solo`` part, each with its feature names (:data:`DUEL`,
:data:`SOLO`; an older file's names, a subsequence of today's in order, load with the missing
features at weight 0: :func:`widen`), one finite weight per feature and a positive ``sigma``,
and optional keys of its own (``money_cap``, ``hand_homes``, ``strength_used``,
``strength_by_card``, ``strength_fade``, ``idle_strength``, ``last_turn_depth``); at the
top the tempo term's ``tempo``, ``progress`` and ``progress_on``. docs/bots.md, "The learned
value", says what each does.
"""

from __future__ import annotations

import math

from ..keywords import ACTIONS
from .handhomes import HAND_HOMES

#: Per-zoo quantities (see :func:`zoo_features`).
ZOO = ("vp", "money", "side_income", "appeal_in", "assets", "space", "hand", "projects", "malus",
       "cards", "conservation", "animals", "ready", "build")
#: Zoo quantities that also enter times the clock: income times breaks left, the rest times the
#: phase (share of the game left, 1 far from the end, 0 at it).
BY_BREAKS = ("side_income", "appeal_in")
BY_PHASE = ("vp", "money", "assets", "space", "hand", "projects", "ready", "build")
#: Features of the end itself (duel only; see :func:`end_features`): the lead times how near the
#: end is, who is nearer to ending it (times the nearness), and breaks so far times the lead.
END = ("lead*near", "ends_first*near", "lead*breaks_done")
#: The feature names of a duel position, in weight order.
DUEL = (ZOO + tuple(f"{n}*breaks" for n in BY_BREAKS) + tuple(f"{n}*phase" for n in BY_PHASE)
        + ("project_soon",) + END + ("my_turn",))
#: The feature names of a solo position (the zoo itself, not a difference), in weight order.
SOLO = (ZOO + tuple(f"{n}*breaks" for n in BY_BREAKS) + tuple(f"{n}*phase" for n in BY_PHASE)
        + ("project_soon", "bias"))

#: What the tempo term's progress counts (``progress_on`` in value.json; absent: ``projected``):
#: ``projected`` the zoo's projected points (final-scoring cards included), ``markers`` the
#: points on the tracks, appeal plus the conservation's worth, which end the game at 0
#: (:func:`engine.arknova.scoring.end_triggered_by`).
PROGRESS_ON = ("projected", "markers")


class ValueFileError(ValueError):
    """``value.json`` does not hold a valid set of weights."""


def validate(data: dict) -> dict:
    """``data`` when it is a valid weights file (``ValueFileError`` otherwise)."""
    def finite(x) -> bool:
        return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)

    if not isinstance(data, dict):
        raise ValueFileError("value.json must hold an object")
    for part, names in (("duel", DUEL), ("solo", SOLO)):
        model = data.get(part)
        if not isinstance(model, dict):
            raise ValueFileError(f"value.json: {part!r} missing")
        given = list(model.get("features") or ())
        w = model.get("weights")
        if not isinstance(w, list) or len(w) != len(given) or not all(map(finite, w)):
            raise ValueFileError(f"value.json: {part} needs one finite weight per feature")
        if given != list(names):
            # an older file: its features in order, a subset of today's, the rest weigh 0
            full = widen(given, w, names)
            if full is None:
                raise ValueFileError(f"value.json: {part} features are not (a subset in "
                                     f"order of) {list(names)}")
            data[part] = {**model, "features": list(names), "weights": full}
        if not finite(model.get("sigma")) or model["sigma"] <= 0:
            raise ValueFileError(f"value.json: {part} sigma must be a positive number")
        if "money_cap" in model and (not finite(model["money_cap"]) or model["money_cap"] <= 0):
            raise ValueFileError(f"value.json: {part} money_cap must be a positive number")
        if "strength_used" in model and not finite(model["strength_used"]):
            raise ValueFileError(f"value.json: {part} strength_used must be a number")
        if "idle_strength" in model and not (finite(model["idle_strength"])
                                             and 0 <= model["idle_strength"] <= 1):
            raise ValueFileError(f"value.json: {part} idle_strength must be a number in [0, 1]")
        for key in ("strength_fade", "last_turn_depth"):
            if key in model and (not finite(model[key]) or model[key] <= 0):
                raise ValueFileError(f"value.json: {part} {key} must be a positive number")
        by_card = model.get("strength_by_card", {})
        if not isinstance(by_card, dict) or not all(
                k in ACTIONS and finite(v) for k, v in by_card.items()):
            raise ValueFileError(f"value.json: {part} strength_by_card must map action cards "
                                 f"{list(ACTIONS)} to numbers")
    if not finite(data.get("tempo")) or data["tempo"] < 0:
        raise ValueFileError("value.json: tempo must be a number >= 0")
    if "progress" in data and (not finite(data["progress"]) or data["progress"] <= 0):
        raise ValueFileError("value.json: progress must be a positive number")
    if "money_cap" in data and (not finite(data["money_cap"]) or data["money_cap"] <= 0):
        raise ValueFileError("value.json: money_cap must be a positive number")
    if data.get("progress_on", "projected") not in PROGRESS_ON:
        raise ValueFileError(f"value.json: progress_on must be one of {list(PROGRESS_ON)}")
    for where in (data, data["duel"], data["solo"]):
        if where.get("hand_homes", "shared") not in HAND_HOMES:
            raise ValueFileError(f"value.json: hand_homes must be one of {list(HAND_HOMES)}")
    return data


def widen(given: list, weights: list, names: tuple) -> list | None:
    """``weights`` of the features ``given`` spread over ``names`` (0 for the missing ones);
    None unless ``given`` is a subsequence of ``names``."""
    out, i = [], 0
    for name in names:
        if i < len(given) and given[i] == name:
            out.append(weights[i])
            i += 1
        else:
            out.append(0.0)
    return out if i == len(given) else None
