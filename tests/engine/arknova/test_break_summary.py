"""The break's public summary event (issue #14, item 8): income per zoo, the display's discards
and the refilled display, in one event every viewer may see."""

from __future__ import annotations

from engine.arknova.breaks import BreakRest

from .positions import fresh


def test_break_over_says_what_the_break_did():
    state = fresh()
    before = list(state["display"])
    money = [p["money"] for p in state["players"]]
    ev = []
    BreakRest().run(state, {"seat": 1}, ev)
    over = [e for e in ev if e["kind"] == "break_over"]
    assert len(over) == 1
    d = over[0]["data"]
    assert d["number"] == state["breaks"] == 1
    # income in the break's order (the trigger first), as the players' money changed
    assert [s for s, _ in d["income"]] == [1, 0]
    for seat, m in d["income"]:
        assert state["players"][seat]["money"] - money[seat] >= m
    assert d["dropped"] == [c for c in before[:2] if c]
    assert d["display"] == state["display"]
    assert d["display"][: len(before) - 2] == [c for c in before[2:]]


def test_break_over_names_the_hand_limit_discards():
    from engine.arknova.breaks import Break, HandLimit
    from engine.arknova.decisions import top
    from engine.arknova.zoo import hand_limit

    state = fresh()
    p = state["players"][0]
    extra = [c for c in state["deck"][: hand_limit(p) + 1 - len(p["hand"])]]
    p["hand"] += extra
    state["deck"] = state["deck"][len(extra):]
    ev = []
    Break().run(state, {"seat": 0}, ev)
    frame = top(state)
    assert frame["kind"] == "hand_limit"
    gone = []
    while top(state)["kind"] == "hand_limit":
        seat = int(sorted(top(state)["excess"])[0])
        card = sorted(state["players"][seat]["hand"])[0]
        gone.append([seat, card])
        HandLimit().apply(state, top(state), seat, {"type": "discard", "card": card}, ev)
    assert any(seat == 0 for seat, _ in gone)
    rest = top(state)
    assert rest["kind"] == "break_rest"
    BreakRest().run(state, rest, ev)
    over = [e for e in ev if e["kind"] == "break_over"][0]["data"]
    assert over["hand_limit"] == gone
