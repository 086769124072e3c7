"""The solo calibration of the analysis measure (engine/arknova/bot/calibration.py, its data file
and benchmarks/calibrate.py): a solo position's expected score and chance of reaching 0 come
from the raw measure plus the offset at its turns left, with that stage's spread."""

from __future__ import annotations

import copy
import hashlib
import json
from importlib import resources

import pytest

import engine
from engine.arknova.bot import calibration, margin
from engine.arknova.bot.evaluate import clock
from engine.arknova.solo import total_turns
from engine.bots.analysis_measure import MEASURES, Measure, chance
from tests.scripts import load_script

ARK = engine.get_game("arknova")


@pytest.fixture(scope="module")
def script():
    return load_script("benchmarks/calibrate.py")


def shipped() -> dict:
    raw = resources.files("engine.arknova").joinpath("data/calibration.json").read_text("utf-8")
    return json.loads(raw)


def test_the_shipped_file_covers_every_number_of_turns_left_of_a_solo_game():
    data = calibration.load()
    for name in calibration.MEASURES:
        entry = data["solo"]["measures"][name]
        assert len(entry["offset"]) == len(entry["sigma"]) == total_turns() + 1
        assert min(entry["sigma"]) > 0


@pytest.mark.parametrize("spoil, message", [
    (lambda d: d["solo"]["measures"].pop("hand"), "missing"),
    (lambda d: d["solo"]["measures"]["learned"]["offset"].pop(), "same length"),
    (lambda d: d["solo"]["measures"]["mean"]["sigma"].__setitem__(3, 0.0), "> 0"),
    (lambda d: d["solo"]["measures"]["hand"]["offset"].__setitem__(0, float("nan")), "number"),
    (lambda d: d["solo"]["measures"]["hand"]["offset"].__setitem__(0, True), "number"),
    (lambda d: d.pop("solo"), "'solo'"),
])
def test_a_spoilt_file_is_refused_with_what_is_wrong(spoil, message):
    raw = copy.deepcopy(shipped())
    spoil(raw)
    with pytest.raises(calibration.CalibrationFileError, match=message):
        calibration.validate(raw)


def test_a_solo_start_is_measured_as_its_raw_measure_plus_the_offset_with_the_stage_spread():
    state = ARK.setup(1, {}, "calibration-test")
    turns_left = clock(state)[1]
    assert turns_left == total_turns()
    entry = calibration.load()["solo"]["measures"]["hand"]
    raw = margin.hand_margin(state, 0)
    expected = raw + entry["offset"][total_turns()]
    assert margin.margin(state, 0) == pytest.approx(expected)
    m, win = Measure(ARK, 1.0, MEASURES[0])(state, 0)
    assert m == pytest.approx(expected)
    assert win == pytest.approx(chance(expected, entry["sigma"][total_turns()]))
    learned = calibration.load()["solo"]["measures"]["learned"]
    assert margin.learned_margin(state, 0) == pytest.approx(
        margin.learned_projection(state, 0) + learned["offset"][total_turns()])


def test_a_duel_is_measured_as_before():
    state = ARK.setup(2, {}, "calibration-test")
    assert margin.margin(state, 0) == pytest.approx(margin.hand_margin(state, 0))
    m, win = Measure(ARK, 1.0, MEASURES[0])(state, 0)
    assert win == pytest.approx(chance(m, margin.sigma(2)))


def test_the_fit_is_the_mean_and_spread_of_what_the_measure_missed(script):
    n = total_turns() + 1
    deals = [  # rows: [turns left, hand, learned, mean]
        {"seed": "t:solo:1", "score": -10, "rows": [[5, -30.0, -20.0, -25.0], [2, -14.0, -9.0, -11.5]]},
        {"seed": "t:solo:2", "score": -20, "rows": [[5, -36.0, -30.0, -33.0], [2, -20.0, -24.0, -22.0]]},
    ]
    fitted = script.fit(deals)
    hand = fitted["hand"]
    assert len(hand["offset"]) == n
    assert hand["offset"][5] == pytest.approx(18.0)   # 20 and 16 missed
    assert hand["sigma"][5] == pytest.approx(2.0)
    assert hand["offset"][2] == pytest.approx(2.0)    # 4 and 0
    assert hand["sigma"][2] == pytest.approx(2.0)
    # a number of turns left no move started at takes the nearest known one's (a tie: the fewer)
    assert hand["offset"][0] == hand["offset"][1] == hand["offset"][3] == pytest.approx(2.0)
    assert hand["offset"][4] == pytest.approx(18.0) and hand["offset"][n - 1] == pytest.approx(18.0)
    assert fitted["learned"]["offset"][2] == pytest.approx((-1.0 + 4.0) / 2)
    # after the fit the training deals are measured without bias at each stage
    after = script.report(deals, fitted, 0.0)
    assert all(abs(s["bias"]) < 1e-9 for s in after["hand"].values())


def test_the_calibration_was_fitted_on_the_shipped_value():
    """The learned measure's offsets hold for the weights they were fitted on: a new
    value.json needs ``benchmarks/calibrate.py --write`` too (docs/bots.md)."""
    value = resources.files("engine.arknova").joinpath("data/value.json").read_bytes()
    assert shipped()["solo"]["value_sha256"] == hashlib.sha256(value).hexdigest(), \
        "value.json changed: refit the solo calibration (benchmarks/calibrate.py --write)"
