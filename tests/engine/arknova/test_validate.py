"""The direct checks of answers (engine/arknova/validate.py) accept exactly the legal set.

On every position of seeded random games: each listed legal answer passes the direct check
(without listing), and near misses of them (wrong types, 1.0 for 1, true for 1, out-of-range
numbers, extra and missing keys, other decisions' answers) are refused by ``check`` with the
same codes as the reference check that looks answers up in the listing.
"""

from __future__ import annotations

import pytest

import engine
from engine.arknova.validate import CHECKERS, accepts
from engine.core import IllegalAction, rng as _rng
from engine.core.stack import top

GAME = engine.get_game("arknova")
#: the decisions that must be checked without listing (the common and expensive ones)
DIRECT = {"turn", "build", "place", "animals", "sponsors", "cards", "hand_limit", "keep",
          "association"}


def outcome(fn, state, seat, action):
    try:
        fn(state, seat, action)
    except IllegalAction as exc:
        return exc.code
    return None


def near_misses(action: dict, pool: list[dict]) -> list:
    out: list = []
    for key, v in action.items():
        if key == "type":
            out += [{**action, "type": v + "x"}, {**action, "type": 1}]
            continue
        rest = {k: x for k, x in action.items() if k != key}
        out.append(rest)  # missing key
        out.append({**action, key: None})
        if type(v) is int:
            out += [{**action, key: float(v)}, {**action, key: v + 1}, {**action, key: v - 1},
                    {**action, key: -1}, {**action, key: 99}, {**action, key: str(v)}]
            if v in (0, 1):
                out.append({**action, key: bool(v)})
        elif type(v) is str:
            out += [{**action, key: v + "_"}, {**action, key: 1}, {**action, key: [v]}]
        elif type(v) is list:
            out += [{**action, key: v[:-1]}, {**action, key: v + v[:1]},
                    {**action, key: list(reversed(v))}, {**action, key: tuple(v)}]
            if v and type(v[0]) is list:
                out.append({**action, key: [[float(x) for x in c] for c in v]})
                out.append({**action, key: [[x + 1 for x in c] for c in v]})
                out.append({**action, key: [tuple(c) for c in v]})
            if v and type(v[0]) is str:
                out.append({**action, key: [v[0] + "_"] + v[1:]})
    out.append({**action, "extra": 1})
    out += pool
    return out


def positions(seeds, seats):
    for seed in seeds:
        state = GAME.setup(seats, {}, seed)
        chooser = {"rng": _rng.seed_to_int(f"validate-{seed}")}
        while GAME.waiting_for(state):
            waiting = sorted(GAME.waiting_for(state))
            seat = waiting[_rng.randbelow(chooser, len(waiting))]
            legal = GAME.legal_actions(state, seat)
            yield state, seat, legal
            state, _ = GAME.apply(state, seat, legal[_rng.randbelow(chooser, len(legal))])


@pytest.mark.parametrize("seeds,seats", [((1, 2), 2), ((3,), 3), ((4,), 4)])
def test_direct_checks_accept_exactly_the_legal_answers(seeds, seats):
    pool: dict[str, dict] = {}  # one answer of every decision kind seen (other decisions)
    seen: dict[str, int] = {}
    chooser = {"rng": 99}
    for state, seat, legal in positions(seeds, seats):
        kind = top(state)["kind"]
        seen[kind] = seen.get(kind, 0) + 1
        for a in legal:
            if kind in CHECKERS:
                assert accepts(state, top(state), seat, a), (kind, a)
            pool.setdefault(a["type"], a)
        picks = [legal[_rng.randbelow(chooser, len(legal))] for _ in range(min(3, len(legal)))]
        for a in picks:
            assert outcome(GAME.check, state, seat, a) is None
            for m in near_misses(a, list(pool.values())):
                want = outcome(GAME.check_by_listing, state, seat, m)
                assert outcome(GAME.check, state, seat, m) == want, (kind, a, m)
                if want is not None and isinstance(m, dict) and isinstance(m.get("type"), str):
                    assert not accepts(state, top(state), seat, m), (kind, a, m)
    # the common decisions were met (and are all checked directly)
    assert DIRECT <= set(CHECKERS)
    assert {"turn", "build", "place", "animals", "cards"} <= set(seen)


def test_common_decisions_are_checked_without_listing(monkeypatch):
    """``check`` of a legal answer to a directly checked decision never lists the answers."""
    answers = []
    for state, seat, legal in positions((5,), 2):
        if top(state)["kind"] in DIRECT:
            answers.append((state, seat, legal[len(legal) // 2]))
    assert len(answers) > 300

    def no_listing(*args):
        raise AssertionError("check listed the legal answers")

    monkeypatch.setattr(GAME, "_legal_actions", no_listing)
    for state, seat, action in answers:
        GAME.check(state, seat, action)
