"""The fit's bounds (benchmarks/train_value.py): floors and ceilings hold, per part."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

import pytest

from tests.scripts import load_script

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def tv():
    return load_script("benchmarks/train_value.py")


def data(true: list[float], repeat: int = 50) -> tuple[list[list[float]], list[float]]:
    """A full two-level design (the features exactly uncorrelated), a little noise."""
    rnd = random.Random(7)
    xs = [list(row) for row in itertools.product((-1.0, 1.0), repeat=len(true))] * repeat
    ys = [sum(w * x for w, x in zip(true, row)) + rnd.gauss(0, 0.01) for row in xs]
    return xs, ys


def test_a_ceiling_holds_and_the_others_are_fitted(tv):
    names = ("assets", "vp", "money")
    xs, ys = data([2.0, 1.0, -0.5])
    free = tv.bounded_ridge(xs, ys, 0.0, names, lower={}, upper={})
    assert free == pytest.approx([2.0, 1.0, -0.5], abs=0.01)
    capped = tv.bounded_ridge(xs, ys, 0.0, names, lower={}, upper={"assets": 0.3})
    assert capped[0] == 0.3
    assert capped[1:] == pytest.approx([1.0, -0.5], abs=0.01)  # uncorrelated features: unchanged
    floored = tv.bounded_ridge(xs, ys, 0.0, names, lower={"money": 0.05}, upper={})
    assert floored[2] == 0.05


def test_the_duel_caps_assets_and_solo_does_not(tv):
    assert tv.UPPER["assets"] == 0.3 and tv.UPPER["assets*phase"] == 0.5
    assert "assets" not in tv.SOLO_UPPER and "assets*phase" not in tv.SOLO_UPPER
    assert tv.UPPER["malus"] == tv.SOLO_UPPER["malus"] == 0.0



def test_the_shipped_weights_keep_within_the_bounds_a_refit_applies(tv):
    value = json.loads((ROOT / "engine" / "arknova" / "data" / "value.json").read_text())
    for part, (lower, upper) in tv.BOUNDS.items():
        shipped = dict(zip(value[part]["features"], value[part]["weights"]))
        for name, lo in lower.items():
            assert shipped[name] >= lo, (part, name)
        for name, hi in upper.items():
            assert shipped[name] <= hi, (part, name)
    # the option of a project is worth less than supporting it
    assert tv.SOLO_UPPER["projects*phase"] + tv.SOLO_UPPER["projects"] < 1.0
    assert tv.UPPER["project_soon"] < 1.0
