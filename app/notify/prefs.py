"""A user's notification preferences: what is stored, the defaults, and the rules that read
them (quiet hours in the user's time zone, the per-game throttle).

Stored (``notification_prefs.prefs``)::

    {"channels": {"email": true, "push": true, "webhook": true},
     "kinds": {"your_turn": true, "game_over": true, "invitation": true,
               "daily_challenge": true, "chat_mention": true},
     "quiet_hours": {"start": "22:00", "end": "07:00"} | null,
     "only_when_away": true,
     "throttle_minutes": 0,
     "digest": false,
     "confirm_turn": true}

``confirm_turn`` is no notice: the table's "Confirm turn" (app/games/turns.py) kept here with the
user's other preferences; the end of a turn waits for the confirm when it is on and the client
asked for it (a move's ``hold``).

``throttle_minutes`` 0 means: the first notice of a waiting period only (the period ends when
the user moves in that game); N > 0 adds: and at most one notice per game per N minutes.
"""

from __future__ import annotations

import re
from datetime import datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from ..refusal import Refusal, say

CHANNELS = ("email", "push", "webhook")
KINDS = ("your_turn", "game_over", "invitation", "daily_challenge", "chat_mention")
LANGS = ("en", "uk", "de")
_HHMM = re.compile(r"^([01][0-9]|2[0-3]):([0-5][0-9])$")


def defaults() -> dict[str, Any]:
    return {"channels": {c: True for c in CHANNELS}, "kinds": {k: True for k in KINDS},
            "quiet_hours": None, "only_when_away": True, "throttle_minutes": 0,
            "digest": False, "confirm_turn": True}


def merged(stored: dict | None) -> dict[str, Any]:
    """The stored preferences over the defaults (new keys get their default)."""
    out = defaults()
    stored = stored or {}
    for group in ("channels", "kinds"):
        out[group].update({k: bool(v) for k, v in (stored.get(group) or {}).items()
                           if k in out[group]})
    for key in ("quiet_hours", "only_when_away", "throttle_minutes", "digest", "confirm_turn"):
        if key in stored:
            out[key] = stored[key]
    return out


def _bad(message: str) -> Refusal:
    return Refusal("bad_preferences", message)


def zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, TypeError):
        raise Refusal("bad_time_zone",
                      say("bad_time_zone")) from None


def update(current: dict, change: dict) -> dict[str, Any]:
    """``current`` with the parts of ``change`` applied (each checked), or 422."""
    out = merged(current)
    for group, names in (("channels", CHANNELS), ("kinds", KINDS)):
        if change.get(group) is not None:
            for key, value in change[group].items():
                if key not in names or not isinstance(value, bool):
                    raise _bad(say("bad_preferences.switch", group=group, key=key))
                out[group][key] = value
    if "quiet_hours" in change:
        window = change["quiet_hours"]
        if window is not None:
            if not isinstance(window, dict) or not all(
                    isinstance(window.get(k), str) and _HHMM.match(window[k])
                    for k in ("start", "end")):
                raise _bad(say("bad_preferences.quiet"))
            window = {"start": window["start"], "end": window["end"]}
        out["quiet_hours"] = window
    for key in ("only_when_away", "digest", "confirm_turn"):
        if change.get(key) is not None:
            out[key] = bool(change[key])
    if change.get("throttle_minutes") is not None:
        out["throttle_minutes"] = int(change["throttle_minutes"])
    return out


def _hhmm(text: str) -> time:
    h, m = text.split(":")
    return time(int(h), int(m))


def local_time(now: datetime, tz: str) -> datetime:
    """``now`` (aware) in the user's time zone (as it is, for a zone that is not known)."""
    try:
        return now.astimezone(ZoneInfo(tz))
    except (ZoneInfoNotFoundError, ValueError, TypeError):
        return now


def in_quiet_hours(prefs: dict, tz: str, now: datetime) -> bool:
    """Whether ``now`` (aware) falls in the user's quiet hours, read in their time zone."""
    window = prefs.get("quiet_hours")
    if not window:
        return False
    local = local_time(now, tz).time().replace(second=0, microsecond=0)
    start, end = _hhmm(window["start"]), _hhmm(window["end"])
    if start == end:
        return False
    if start < end:
        return start <= local < end
    return local >= start or local < end  # the window spans midnight


def throttled(prefs: dict, last_sent: datetime | None, moved_since: bool,
              now: datetime) -> bool:
    """Whether a notice about a game must wait: one was sent in this waiting period (the user
    has not moved since), or less than ``throttle_minutes`` ago."""
    if last_sent is None:
        return False
    if not moved_since:
        return True
    minutes = int(prefs.get("throttle_minutes") or 0)
    return minutes > 0 and now - last_sent < timedelta(minutes=minutes)
