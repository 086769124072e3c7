"""The vocabulary of the zoo builder's card data: icons, gains, ability keywords, counters.

Every name a card file may use is defined here, together with the form of its value. The
loader (:mod:`engine.arknova.content`) checks the data against these tables, and the engine
implements exactly these keywords and counters. Adding a keyword means adding it here, to the
engine, and to the rules page - never a special case for one card.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

CONTINENTS: tuple[str, ...] = ("africa", "americas", "asia", "australia", "europe")
CLASSES: tuple[str, ...] = ("predator", "herbivore", "primate", "reptile", "bird", "bear", "pet", "sea")
ICONS: tuple[str, ...] = CONTINENTS + CLASSES + ("science",)

#: Keys of a gains dict (``{"money": 3, "x": 1}``); every value is an int >= 1.
GAIN_KEYS: tuple[str, ...] = ("money", "appeal", "conservation", "reputation", "x", "cards",
                              "worker", "upgrade", "snap")

#: The five action cards.
ACTIONS: tuple[str, ...] = ("animals", "build", "cards", "association", "sponsors")

#: Special enclosures an animal card may name.
SPECIAL_ENCLOSURES: tuple[str, ...] = ("reptile_house", "aviary", "petting_zoo")

#: Building kinds, as used by the ``buildings:<kind>`` counter and by build-trigger filters.
BUILDING_KINDS: tuple[str, ...] = ("kiosk", "pavilion", "enclosure", "special")

#: Sponsor trigger events and the filter keys each accepts (a filter has at most one key).
TRIGGER_EVENTS: dict[str, tuple[str, ...]] = {
    "animal": ("class", "continent", "size_min", "size_max", "icon"),
    "sponsor": ("icon",),
    "build": ("building", "size_min", "size_max"),
    "project": ("icon",),
}

#: Kinds of conservation project and which distinct-icon groups a ``distinct`` project counts.
PROJECT_KINDS: tuple[str, ...] = ("icon", "distinct", "release", "breeding")
DISTINCT_GROUPS: dict[str, tuple[str, ...]] = {"continents": CONTINENTS, "classes": CLASSES}


# --------------------------------------------------------------------------- value validators
Validator = Callable[[Any], None]


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def int_in(lo: int, hi: int) -> Validator:
    def check(v: Any) -> None:
        if not _is_int(v) or not lo <= v <= hi:
            want = f"the integer {lo}" if lo == hi else f"an integer {lo}..{hi}"
            raise ValueError(f"must be {want}, got {v!r}")
    check.form = f"int {lo}" if lo == hi else f"int {lo}..{hi}"  # type: ignore[attr-defined]
    return check


def int_of(*allowed: int) -> Validator:
    def check(v: Any) -> None:
        if not _is_int(v) or v not in allowed:
            raise ValueError(f"must be one of {list(allowed)}, got {v!r}")
    check.form = "int " + "|".join(map(str, allowed))  # type: ignore[attr-defined]
    return check


def null() -> Validator:
    def check(v: Any) -> None:
        if v is not None:
            raise ValueError(f"must be null, got {v!r}")
    check.form = "null"  # type: ignore[attr-defined]
    return check


def one_of(choices: tuple[str, ...], what: str) -> Validator:
    def check(v: Any) -> None:
        if v not in choices:
            raise ValueError(f"must be a {what} ({', '.join(choices)}), got {v!r}")
    check.form = what  # type: ignore[attr-defined]
    return check


def record(**fields: Validator) -> Validator:
    def check(v: Any) -> None:
        if not isinstance(v, dict):
            raise ValueError(f"must be an object with keys {sorted(fields)}, got {v!r}")
        if set(v) != set(fields):
            raise ValueError(f"must have exactly the keys {sorted(fields)}, got {sorted(v)}")
        for key, sub in fields.items():
            try:
                sub(v[key])
            except ValueError as exc:
                raise ValueError(f"{key!r} {exc}") from None
    check.form = "{" + ", ".join(f"{k}: {getattr(s, 'form', '?')}" for k, s in fields.items()) + "}"  # type: ignore[attr-defined]
    return check


#: Ability keywords (animal ``abilities`` and sponsor ``effects``) -> the check of their value.
ABILITY_KEYWORDS: dict[str, Validator] = {
    "sprint": int_in(1, 5),
    "hunter": int_in(2, 6),
    "perception": int_in(3, 6),
    "pack": one_of(CLASSES, "class icon"),
    "iconic": one_of(CONTINENTS, "continent icon"),
    "jumping": int_in(1, 5),
    "inventive": int_in(1, 3),
    "hire": int_in(1, 1),
    "clever": null(),
    "boost": record(action=one_of(ACTIONS, "action"), strength=int_in(1, 4)),
    "sell": record(max=int_in(1, 5), money=int_in(1, 6)),
    "pouch": record(max=int_in(1, 4), appeal=int_in(1, 3)),
    "kiosk": null(),
    "pavilion": null(),
    "flock": null(),
    "digging": int_in(1, 5),
    "snapping": int_in(1, 3),
    "scoring": int_in(1, 3),
    "resistance": null(),
    "venom": null(),
    "constriction": null(),
    "hypnosis": int_in(3, 3),
    "pilfering": int_of(1, 2),
    "money": int_in(1, 12),
    "reputation": int_in(1, 5),
    "upgrade": null(),
    "partner": null(),
    "university": null(),
}

#: The interactions of spec section 9: only animals carry them.
INTERACTIONS: frozenset[str] = frozenset({"venom", "constriction", "hypnosis", "pilfering"})

#: Solo effects (docs/rules/arknova.md, "Solo"): an animal with an interaction names in its
#: ``solo`` list what it does instead in a 1-seat game. A solo effect is one of these keywords
#: or any ability keyword that is not an interaction.
SOLO_KEYWORDS: dict[str, Validator] = {
    "crowd": int_in(1, 4),
    "grip": null(),
    "mimic": int_in(3, 3),
    "scavenge": int_of(5, 10),
}


def check_solo_ability(keyword: str, value: Any) -> None:
    """Raise ``ValueError`` unless ``keyword``/``value`` is a valid solo effect."""
    if keyword in SOLO_KEYWORDS:
        try:
            SOLO_KEYWORDS[keyword](value)
        except ValueError as exc:
            raise ValueError(f"value for {keyword!r} {exc}") from None
        return
    if keyword in INTERACTIONS:
        raise ValueError(f"interaction keyword {keyword!r} cannot be a solo effect")
    if keyword not in ABILITY_KEYWORDS:
        raise ValueError(f"unknown solo effect keyword {keyword!r}")
    check_ability(keyword, value)


#: Keywords a sponsor's immediate effects may use.
SPONSOR_KEYWORDS: tuple[str, ...] = tuple(k for k in ABILITY_KEYWORDS if k not in INTERACTIONS)


def check_ability(keyword: str, value: Any, *, sponsor: bool = False) -> None:
    """Raise ``ValueError`` unless ``keyword``/``value`` is a valid ability (or sponsor effect)."""
    if keyword not in ABILITY_KEYWORDS:
        raise ValueError(f"unknown ability keyword {keyword!r}")
    if sponsor and keyword in INTERACTIONS:
        raise ValueError(f"interaction keyword {keyword!r} is for animals only")
    ABILITY_KEYWORDS[keyword](value)


# --------------------------------------------------------------------------- counters
#: Counter families (sponsor end awards, final-scoring cards) -> full-match pattern.
COUNTERS: dict[str, re.Pattern[str]] = {
    "icon": re.compile(r"icon:(?P<arg>" + "|".join(ICONS) + r")"),
    "animals_min_size": re.compile(r"animals_min_size:(?P<arg>[1-5])"),
    "animals_max_size": re.compile(r"animals_max_size:(?P<arg>[1-5])"),
    "continents": re.compile(r"continents"),
    "classes": re.compile(r"classes"),
    "buildings": re.compile(r"buildings:(?P<arg>" + "|".join(BUILDING_KINDS) + r")"),
    "edge_covered": re.compile(r"edge_covered"),
    "projects": re.compile(r"projects"),
    "partners": re.compile(r"partners"),
    "universities": re.compile(r"universities"),
    "sponsors": re.compile(r"sponsors"),
    "reputation": re.compile(r"reputation"),
    "money": re.compile(r"money"),
    "water_enclosures": re.compile(r"water_enclosures"),
    "full_enclosures": re.compile(r"full_enclosures"),
}


def parse_counter(spec: str) -> tuple[str, str | None]:
    """``"icon:bird"`` -> ``("icon", "bird")``; ``"continents"`` -> ``("continents", None)``.

    Raises ``ValueError`` for anything that is not a counter.
    """
    if isinstance(spec, str):
        for name, pattern in COUNTERS.items():
            m = pattern.fullmatch(spec)
            if m:
                return name, m.groupdict().get("arg")
    raise ValueError(f"unknown counter {spec!r}")


# --------------------------------------------------------------------------- gains
def check_gains(gains: Any) -> None:
    """Raise ``ValueError`` unless ``gains`` is a non-empty dict of known keys to ints >= 1."""
    if not isinstance(gains, dict) or not gains:
        raise ValueError(f"must be a non-empty object of gains, got {gains!r}")
    for key, value in gains.items():
        if key not in GAIN_KEYS:
            raise ValueError(f"unknown gain key {key!r} (known: {', '.join(GAIN_KEYS)})")
        if not _is_int(value) or value < 1:
            raise ValueError(f"gain {key!r} must be an integer >= 1, got {value!r}")


# --------------------------------------------------------------------------- texts
_TEXTS: dict[str, Callable[[Any], str]] = {
    "sprint": lambda v: f"Draw {v} card{'s' * (v != 1)} from the deck.",
    "hunter": lambda v: f"Reveal {v} cards from the deck; keep one animal among them, discard the rest.",
    "perception": lambda v: f"Look at the top {v} cards of the deck; keep 2, discard the rest.",
    "pack": lambda v: f"+1 appeal for each {v} icon in your zoo (at most 5).",
    "iconic": lambda v: f"+1 appeal for each {v.capitalize()} icon in your zoo (at most 4).",
    "jumping": lambda v: f"Advance the break token {v} and gain {v} money.",
    "inventive": lambda v: f"Gain {v} X token{'s' * (v != 1)}.",
    "hire": lambda v: "Gain an association worker (at most 4 in all).",
    "clever": lambda v: "After the action, move one of your action cards to slot 1.",
    "boost": lambda v: f"After the action, carry out the {v['action'].capitalize()} action at strength {v['strength']}.",
    "sell": lambda v: f"Sell up to {v['max']} hand card{'s' * (v['max'] != 1)} for {v['money']} money each.",
    "pouch": lambda v: f"Tuck up to {v['max']} hand card{'s' * (v['max'] != 1)} under this card for {v['appeal']} appeal each.",
    "kiosk": lambda v: "Place a kiosk for free.",
    "pavilion": lambda v: "Place a pavilion for free.",
    "flock": lambda v: "Needs no enclosure of its own if your zoo has a standard enclosure of size 4+ holding a herbivore.",
    "digging": lambda v: f"Up to {v} time{'s' * (v != 1)}: replace a display card or a hand card with one from the deck.",
    "snapping": lambda v: f"Take {v} card{'s' * (v != 1)} from the display, from any folder.",
    "scoring": lambda v: f"Draw {v} final-scoring card{'s' * (v != 1)} and keep one.",
    "resistance": lambda v: "Take one base conservation project that is not in play into your hand.",
    "venom": lambda v: "Venom: every zoo ahead of you on appeal gets a venom token.",
    "constriction": lambda v: "Constriction: zoos ahead of you on appeal or conservation get constriction tokens.",
    "hypnosis": lambda v: f"Hypnosis: use one action card in slots 1..{v} of the zoo with the most appeal.",
    "pilfering": lambda v: ("Pilfering: the zoo with the most appeal gives you 5 money or a hand card."
                            if v == 1 else
                            "Pilfering: the zoos with the most appeal and the most conservation each give you 5 money or a hand card."),
    "money": lambda v: f"Gain {v} money.",
    "reputation": lambda v: f"Gain {v} reputation.",
    "upgrade": lambda v: "Upgrade one of your action cards.",
    "partner": lambda v: "Take a partner zoo for free.",
    "university": lambda v: "Take a university for free.",
}

_SOLO_TEXTS: dict[str, Callable[[Any], str]] = {
    "crowd": lambda v: f"Solo: gain {v} appeal.",
    "grip": lambda v: "Solo: after the action, move one of your action cards to slot 5.",
    "mimic": lambda v: f"Solo: after the action, carry out one of your action cards in slots 1..{v} at that slot's strength.",
    "scavenge": lambda v: f"Solo: gain {v} money.",
}

assert set(_TEXTS) == set(ABILITY_KEYWORDS)
assert set(_SOLO_TEXTS) == set(SOLO_KEYWORDS)


def describe(keyword: str, value: Any) -> str:
    """A one-line English text of an ability or a solo effect, for the card gallery."""
    if keyword in _SOLO_TEXTS:
        return _SOLO_TEXTS[keyword](value)
    return _TEXTS[keyword](value)


def value_form(keyword: str) -> str:
    """The form of a keyword's value, e.g. ``"int 1..5"`` or ``"null"``."""
    return getattr(ABILITY_KEYWORDS.get(keyword) or SOLO_KEYWORDS[keyword], "form", "?")
