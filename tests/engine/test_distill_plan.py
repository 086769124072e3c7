"""benchmarks/distill_plan.py: the target of a position is the plan level's look less the
value's non-linear parts there, and a refit of kept positions writes weights moved ``alpha`` of
the way to the fit."""

from __future__ import annotations

import json
import random

import pytest

from engine.arknova.bot import learned
from tests.scripts import load_script


@pytest.fixture(scope="module")
def dp():
    return load_script("benchmarks/distill_plan.py")


def refit(dp, tmp_path, monkeypatch, games: list, part: str, *flags: str) -> dict:
    """Run the script's ``--refit`` on ``games`` (alpha 0.5, no ridge); the written file's
    weights of ``part`` by feature, the file checked by the loader's validation."""
    data = tmp_path / "rows.jsonl"
    data.write_text("".join(json.dumps(g) + "\n" for g in games))
    out = tmp_path / "out.json"
    monkeypatch.setattr("sys.argv", ["distill_plan.py", "--part", part, "--refit", *flags,
                                     "--data", str(data), "--alpha", "0.5", "--lam", "0.0",
                                     "--out", str(out)])
    dp.main()
    written = json.loads(out.read_text())
    learned.validate(written)
    other = "duel" if part == "solo" else "solo"
    assert written[other] == learned.load()[other]  # the other part is left as it is
    return dict(zip(written[part]["features"], written[part]["weights"]))


def test_the_target_is_the_look_less_the_values_non_linear_parts(dp):
    today = [0.5, 2.0]
    games = [{"rows": [{"x": [1.0, 3.0], "value": 10.0, "look": 14.0}]} for _ in range(5)]
    xs, ys = dp.samples(games, today, held=False)  # games 1..4 (0 is held out)
    assert len(xs) == 4 and xs[0] == [1.0, 3.0]
    # the value 10 is the linear 6.5 plus 3.5 of other parts; the look less those: 10.5
    assert ys == [14.0 - (10.0 - 6.5)] * 4
    assert len(dp.samples(games, today, held=True)[0]) == 1


def test_a_refit_moves_the_solo_weights_alpha_of_the_way(dp, tmp_path, monkeypatch):
    names = learned.SOLO
    today = learned.load()["solo"]["weights"]
    rnd = random.Random(3)
    target = [w + (0.05 if n in ("cards", "space*phase") else 0.0) for n, w in zip(names, today)]
    games = []
    for _ in range(40):
        rows = []
        for _ in range(25):
            x = [rnd.uniform(-3, 3) for _ in names]
            x[names.index("bias")] = 1.0
            now = sum(a * b for a, b in zip(x, today))  # the value's linear part today
            later = sum(a * b for a, b in zip(x, target))  # what the look finds
            rows.append({"x": x, "value": now - 20.0, "look": later - 20.0})
        games.append({"rows": rows})
    got = refit(dp, tmp_path, monkeypatch, games, "solo")
    for n, w, t in zip(names, today, target):  # (no floor or ceiling binds here)
        assert got[n] == pytest.approx(w + 0.5 * (t - w), abs=2e-3), n
    assert got["cards"] == pytest.approx(today[names.index("cards")] + 0.025, abs=2e-3)


def test_a_duel_refit_moves_the_duel_weights_and_holds_my_turn(dp, tmp_path, monkeypatch):
    """Every duel position is at its mover's turn start (``my_turn`` +1 always): the weight of
    that constant is held, and an offset of the look goes to no feature."""
    names = learned.DUEL
    today = learned.load()["duel"]["weights"]
    turn = names.index("my_turn")
    rnd = random.Random(5)
    target = [w + (0.1 if n == "money" else 0.0) for n, w in zip(names, today)]
    games = []
    for _ in range(40):
        rows = []
        for _ in range(25):
            x = [rnd.uniform(-3, 3) for _ in names]
            x[turn] = 1.0
            now = sum(a * b for a, b in zip(x, today))
            later = sum(a * b for a, b in zip(x, target)) + 6.0  # the look's max: above today
            rows.append({"x": x, "value": now + 4.0, "look": later + 4.0})
        games.append({"rows": rows})
    got = refit(dp, tmp_path, monkeypatch, games, "duel")
    assert got["my_turn"] == today[turn]
    assert got["money"] == pytest.approx(today[names.index("money")] + 0.05, abs=2e-3)
    assert got["vp"] == pytest.approx(today[names.index("vp")], abs=2e-3)


def test_per_answer_rows_fit_the_differences_within_a_decision(dp, tmp_path, monkeypatch):
    """``--per-answer``: a decision's answers are compared with each other only (each
    decision's own offset, the look's optimism, goes to no weight); the target is the look less
    the answer's term and the value's non-linear parts where its chain ends; ``bias`` stays."""
    names = learned.SOLO
    today = learned.load()["solo"]["weights"]
    rnd = random.Random(7)
    target = [w + (0.1 if n == "animals" else -0.05 if n == "ready" else 0.0)
              for n, w in zip(names, today)]
    games = []
    for _ in range(30):
        rows = []
        for group in range(20):
            offset = rnd.uniform(-15, 15)  # what the decision's looks share
            for _ in range(4):
                x = [rnd.uniform(-3, 3) for _ in names]
                x[names.index("bias")] = 1.0
                term, nl = rnd.uniform(-1, 1), rnd.uniform(-2, 2)
                look = sum(a * b for a, b in zip(x, target)) + offset + term + nl
                rows.append({"group": group, "x": x, "term": term, "nl": nl, "look": look})
        games.append({"scores": {"0": 0}, "rows": rows})
    xs, ys = dp.answer_samples(games[:2], held=False)  # game 1's 80 rows, demeaned
    assert len(xs) == 80 and abs(sum(ys[:4])) < 1e-9
    assert all(abs(sum(col)) < 1e-9 for col in zip(*xs[:4]))
    got = refit(dp, tmp_path, monkeypatch, games, "solo", "--per-answer")
    for n, w, t in zip(names, today, target):
        want = w if n == "bias" else w + 0.5 * (t - w)
        assert got[n] == pytest.approx(want, abs=2e-3), n


def test_per_answer_rows_leave_out_a_decision_that_ends_the_game(dp):
    stats = {"ends": [{"over": True}, {"over": False}], "terms": [0.0, 0.0], "means": [1.0, 2.0]}
    assert dp.answer_rows(stats, 0, 3) == []
