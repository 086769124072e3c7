"""The analysis measure's calibration in a solo game: how far its expected final score is off,
by turns left, and how widely the final score spreads around it (``data/calibration.json``,
written by ``benchmarks/calibrate.py`` from games of a bot level).

A solo game has a fixed number of turns (27), so a position's turns left are exact. The
measures of :mod:`.margin` were not fitted to a solo score at each stage: played by the fast
level (200 deals, 2026-12-07) the hand projection was 30 points too low at the first turn and
25 too high with 6 to 8 turns left (a win chance of 42 % shown where 0.5 % of the deals reached
0), the learned value 48 too low at the first turn. The file holds, per measure and per number
of turns left (the list's index), the mean of ``final score - measure`` (``offset``) and the
spread of what is left (``sigma``); :mod:`.margin` adds the offset and turns the sum into a
chance of reaching 0 with that spread. A duel's measures are not changed here.
"""

from __future__ import annotations

import json
import math
from functools import lru_cache
from importlib import resources

#: The measures :mod:`.margin` calibrates (its ``margin``, ``margin_learned``, ``margin_mean``).
MEASURES = ("hand", "learned", "mean")


class CalibrationFileError(ValueError):
    """calibration.json is not what :func:`validate` expects."""


def validate(raw: dict) -> dict:
    """``raw`` if it is a calibration file: for each of :data:`MEASURES` under ``solo``, lists
    ``offset`` and ``sigma`` of the same length (at least 2), finite, sigma > 0."""
    solo = raw.get("solo") if isinstance(raw, dict) else None
    if not isinstance(solo, dict) or not isinstance(solo.get("measures"), dict):
        raise CalibrationFileError("calibration.json: 'solo' with 'measures' expected")
    for name in MEASURES:
        entry = solo["measures"].get(name)
        if not isinstance(entry, dict):
            raise CalibrationFileError(f"calibration.json: measure {name!r} missing")
        off, sig = entry.get("offset"), entry.get("sigma")
        if not (isinstance(off, list) and isinstance(sig, list) and len(off) == len(sig) >= 2):
            raise CalibrationFileError(f"calibration.json: {name}: offset and sigma, one per "
                                       "number of turns left, the same length (>= 2)")
        for x in off + sig:
            if isinstance(x, bool) or not isinstance(x, (int, float)) or not math.isfinite(x):
                raise CalibrationFileError(f"calibration.json: {name}: {x!r} is not a number")
        if min(sig) <= 0:
            raise CalibrationFileError(f"calibration.json: {name}: sigma must be > 0")
    return raw


@lru_cache(maxsize=1)
def load() -> dict:
    """The shipped calibration (``engine/arknova/data/calibration.json``), validated once."""
    raw = resources.files("engine.arknova").joinpath("data/calibration.json").read_text("utf-8")
    return validate(json.loads(raw))


def _at(measure: str, key: str, turns_left: float) -> float:
    row = load()["solo"]["measures"][measure][key]
    return float(row[max(0, min(len(row) - 1, int(round(turns_left))))])


def offset(measure: str, turns_left: float) -> float:
    """What to add to the solo ``measure`` with ``turns_left`` turns to play (the last entry
    serves a longer game)."""
    return _at(measure, "offset", turns_left)


def sigma(measure: str, turns_left: float) -> float:
    """The spread of the final solo score around the calibrated ``measure``."""
    return _at(measure, "sigma", turns_left)
