"""Zoo map geometry, map and building data, and the placement rules (spec §4.1, §6)."""

from __future__ import annotations

import itertools
import json
import random

import pytest

from engine.arknova import hexes
from engine.arknova.hexes import GRID, distance, neighbours, orientations
from engine.arknova.placement import (
    PROBLEMS,
    adjacent_cells,
    bonuses_covered,
    footprints,
    legal_placements,
    placement_problem,
    touching,
    zoo_cells,
)
from engine.arknova.zoomap import MIN_BUILDABLE, ZooMap, load_buildings, load_map, load_maps

SHIPPED = ("highlands", "plains", "riverside")


def make_map(water=(), rock=(), upgrade_only=(), bonuses=None, id="test") -> ZooMap:
    return ZooMap(id=id, name=id.title(), description="", cells=hexes.GRID_SET,
                  water=frozenset(water), rock=frozenset(rock),
                  upgrade_only=frozenset(upgrade_only), bonuses=dict(bonuses or {}), ability=None)


#: water at (4,5) and (4,7), rock at (6,5), upgrade-only (2,5), a money bonus at (3,6)
TEST_MAP = make_map(water={(4, 5), (4, 7)}, rock={(6, 5)}, upgrade_only={(2, 5)},
                    bonuses={(3, 6): {"money": 3}, (1, 0): {"cards": 1}})
OPEN_MAP = make_map(id="open")
B = load_buildings()


def singles(cells):
    return [(c,) for c in sorted(cells)]


# --------------------------------------------------------------------------- geometry
def test_grid_has_58_cells_with_odd_parity():
    assert len(GRID) == 58 == len(set(GRID))
    assert all((x + y) % 2 == 1 and 0 <= x <= 8 and 0 <= y <= 12 for x, y in GRID)
    assert sum(1 for x, _ in GRID if x == 1) == 7 and sum(1 for x, _ in GRID if x == 0) == 6


def test_edge_cells():
    edge = OPEN_MAP.edge
    # columns 0 and 8, the top and bottom cell of every other column
    assert edge == {c for c in GRID if c[0] in (0, 8) or c[1] in (0, 1, 11, 12)}
    assert len(edge) == 26
    for cell in [(0, 1), (0, 7), (1, 0), (2, 1), (3, 12), (6, 11), (8, 5), (7, 0)]:
        assert cell in edge
    for cell in [(1, 2), (2, 3), (4, 5), (7, 10), (6, 9), (1, 10)]:
        assert cell not in edge
    assert OPEN_MAP.nbrs[(0, 1)] == ((1, 0), (1, 2), (0, 3))
    assert len(OPEN_MAP.nbrs[(0, 3)]) == 4
    assert len(OPEN_MAP.nbrs[(2, 1)]) == 5
    assert len(OPEN_MAP.nbrs[(4, 5)]) == 6
    assert sum(len(ns) for ns in OPEN_MAP.nbrs.values()) == 2 * 145   # 145 hex edges
    for m in load_maps().values():
        assert m.edge == edge and m.cells == hexes.GRID_SET


def test_neighbours_and_distance():
    assert set(neighbours((4, 5))) == {(4, 3), (4, 7), (3, 4), (3, 6), (5, 4), (5, 6)}
    assert set(neighbours((0, 1))) == {(0, -1), (0, 3), (1, 0), (1, 2), (-1, 0), (-1, 2)}
    assert distance((4, 5), (4, 5)) == 0
    assert distance((0, 1), (0, 3)) == 1
    assert distance((0, 1), (2, 1)) == 2
    assert distance((0, 1), (0, 5)) == 2
    assert distance((0, 1), (3, 4)) == 3
    assert distance((0, 1), (8, 11)) == 9
    assert distance((0, 11), (8, 3)) == 8
    assert distance((1, 0), (1, 12)) == 6


def test_cube_coordinates():
    assert hexes.to_cube((0, 1)) == (0, 0, 0)
    assert hexes.to_cube((1, 0)) == (1, -1, 0)
    assert hexes.to_cube((0, 3)) == (0, 1, -1)
    for cell in GRID:
        q, r, s = hexes.to_cube(cell)
        assert q + r + s == 0 and hexes.from_cube((q, r, s)) == cell
        for n in neighbours(cell):
            assert distance(cell, n) == 1
    for a, b in itertools.combinations(GRID, 2):
        ca, cb = hexes.to_cube(a), hexes.to_cube(b)
        assert distance(a, b) == max(abs(i - j) for i, j in zip(ca, cb)) == distance(b, a)
    with pytest.raises(ValueError):
        hexes.to_cube((2, 2))


def test_rotate_and_mirror_are_symmetries():
    for cell in GRID:
        assert hexes.rotate(cell, 6) == cell
        assert hexes.mirror(hexes.mirror(cell)) == cell
        for n in neighbours(cell):
            assert distance(hexes.rotate(cell), hexes.rotate(n)) == 1
            assert distance(hexes.mirror(cell), hexes.mirror(n)) == 1
    assert hexes.normalize([(3, 6), (3, 8)]) == ((0, 1), (0, 3))
    assert hexes.normalize([(4, 7), (5, 6)]) == ((0, 1), (1, 0))
    assert hexes.normalize([(5, 6), (5, 8)]) == ((0, 1), (0, 3))


@pytest.mark.parametrize("shape, count", [
    ([(0, 1)], 1),                                        # single hex
    ([(0, 1), (0, 3)], 3),                                # domino
    ([(0, 1), (0, 3), (0, 5)], 3),                        # straight line of 3
    ([(0, 1), (0, 3), (1, 2)], 2),                        # triangle
    ([(0, 1), (0, 3), (1, 4)], 6),                        # bent line of 3
    ([(0, 1), (1, 0), (1, 2), (2, 1)], 3),                # rhombus
    ([(0, 1), (0, 3), (0, 5), (1, 6)], 12),               # asymmetric
    ([(4, 5), (4, 3), (4, 7), (3, 4), (3, 6), (5, 4), (5, 6)], 1),   # a flower
])
def test_orientation_counts(shape, count):
    found = orientations(shape)
    assert len(found) == count == len(set(found))
    assert found == sorted(found)
    for o in found:
        assert o == hexes.normalize(o) and len(o) == len(shape)
        assert all((x + y) % 2 == 1 and x >= 0 and y >= 0 for x, y in o)
        assert hexes.is_connected(o)
        # closed under rotation and mirroring
        assert hexes.normalize(hexes.rotate(c) for c in o) in found
        assert hexes.normalize(hexes.mirror(c) for c in o) in found
    # pairwise distances are preserved (a rigid motion)
    dists = sorted(distance(a, b) for a, b in itertools.combinations(shape, 2))
    for o in found:
        assert sorted(distance(a, b) for a, b in itertools.combinations(o, 2)) == dists


def test_building_orientation_counts():
    counts = {b.id: len(b.orientations) for b in B.values()}
    assert counts == {"enclosure_1": 1, "enclosure_2": 3, "enclosure_3": 2, "enclosure_4": 3,
                      "enclosure_5": 12, "kiosk": 1, "pavilion": 1, "petting_zoo": 6,
                      "reptile_house": 6, "aviary": 3}


# --------------------------------------------------------------------------- buildings data
def test_buildings():
    assert list(B) == ["enclosure_1", "enclosure_2", "enclosure_3", "enclosure_4", "enclosure_5",
                       "kiosk", "pavilion", "petting_zoo", "reptile_house", "aviary"]
    for n in range(1, 6):
        b = B[f"enclosure_{n}"]
        assert (b.kind, b.size, b.unique, b.needs_upgrade, b.capacity) == (
            "enclosure", n, False, False, None)
    assert (B["kiosk"].kind, B["kiosk"].size, B["kiosk"].appeal) == ("kiosk", 1, 0)
    assert (B["pavilion"].kind, B["pavilion"].size, B["pavilion"].appeal) == ("pavilion", 1, 1)
    pz, rh, av = B["petting_zoo"], B["reptile_house"], B["aviary"]
    assert (pz.kind, pz.size, pz.unique, pz.needs_upgrade, pz.capacity) == (
        "special", 3, True, False, 3)
    assert (rh.kind, rh.size, rh.unique, rh.needs_upgrade, rh.capacity) == (
        "special", 5, True, True, 5)
    assert (av.kind, av.size, av.unique, av.needs_upgrade, av.capacity) == (
        "special", 5, True, True, 5)
    for b in B.values():
        assert len(b.shape) == b.size and hexes.is_connected(b.shape)
    # buildings of the same size that are not all single hexes have different shapes
    for a, b in itertools.combinations([b for b in B.values() if b.size > 1], 2):
        if a.size == b.size:
            assert set(a.orientations) != set(b.orientations), (a.id, b.id)


# --------------------------------------------------------------------------- footprints
def test_footprints_on_an_open_map():
    assert len(footprints(OPEN_MAP, B["enclosure_1"])) == 58
    assert len(footprints(OPEN_MAP, B["enclosure_2"])) == 145
    fps = footprints(OPEN_MAP, "enclosure_5")
    assert footprints(OPEN_MAP, "enclosure_5") is fps                    # cached
    assert [fp.cells for fp in fps] == sorted({fp.cells for fp in fps})  # sorted, distinct
    for fp in fps:
        assert hexes.normalize(fp.cells) in B["enclosure_5"].orientations
        assert fp.touches_edge == bool(set(fp.cells) & OPEN_MAP.edge)
        assert fp.adjacent == adjacent_cells(OPEN_MAP, fp.cells)
        assert not fp.uses_upgrade_only


def test_footprints_avoid_water_and_rock_and_flag_upgrade_only():
    fps = footprints(TEST_MAP, "enclosure_1")
    assert [fp.cells for fp in fps] == singles(hexes.GRID_SET - {(4, 5), (4, 7), (6, 5)})
    flagged = [fp.cells for fp in footprints(TEST_MAP, "enclosure_2") if fp.uses_upgrade_only]
    assert flagged == [((1, 4), (2, 5)), ((1, 6), (2, 5)), ((2, 3), (2, 5)), ((2, 5), (2, 7)),
                       ((2, 5), (3, 4)), ((2, 5), (3, 6))]


# --------------------------------------------------------------------------- the rules
def test_first_building_must_touch_the_edge():
    got = legal_placements(TEST_MAP, "enclosure_1", set(), set(), False)
    assert got == singles(OPEN_MAP.edge)
    for cells in legal_placements(TEST_MAP, "enclosure_3", set(), set(), False):
        assert set(cells) & TEST_MAP.edge
    assert ((1, 2), (1, 4), (2, 3)) not in legal_placements(TEST_MAP, "enclosure_3", set(), set(),
                                                            False)
    assert placement_problem(TEST_MAP, "enclosure_1", [[4, 3]], [], [], False) == "not_at_edge"
    assert placement_problem(TEST_MAP, "enclosure_1", [[0, 5]], [], [], False) is None


def test_later_buildings_must_be_adjacent():
    got = legal_placements(TEST_MAP, "enclosure_1", {(0, 1)}, set(), False)
    assert got == [((0, 3),), ((1, 0),), ((1, 2),)]
    # an edge cell far from the zoo is no longer allowed
    assert placement_problem(TEST_MAP, "enclosure_1", [(8, 11)], {(0, 1)}, set(), False) == \
        "not_adjacent"
    for cells in legal_placements(TEST_MAP, "enclosure_4", {(0, 1), (0, 3)}, set(), True):
        assert not set(cells) & {(0, 1), (0, 3)}
        assert adjacent_cells(TEST_MAP, cells) & {(0, 1), (0, 3)}


def test_water_rock_and_occupied_cells_are_refused():
    # around (3,4): (4,5) is water and (2,5) upgrade-only
    assert legal_placements(TEST_MAP, "enclosure_1", {(3, 4)}, set(), False) == \
        [((2, 3),), ((3, 2),), ((3, 6),), ((4, 3),)]
    # around (5,4): (6,5) is rock, (4,5) water
    assert legal_placements(TEST_MAP, "enclosure_1", {(5, 4)}, set(), False) == \
        [((4, 3),), ((5, 2),), ((5, 6),), ((6, 3),)]
    dominoes = legal_placements(TEST_MAP, "enclosure_2", {(0, 1), (0, 3)}, set(), False)
    assert ((0, 5), (0, 7)) in dominoes
    assert ((0, 3), (0, 5)) not in dominoes
    assert all(not {(0, 1), (0, 3)} & set(d) for d in dominoes)
    assert placement_problem(TEST_MAP, "enclosure_1", [(4, 5)], {(3, 4)}, set(), True) == "not_land"
    assert placement_problem(TEST_MAP, "enclosure_1", [(6, 5)], {(5, 4)}, set(), True) == "not_land"
    assert placement_problem(TEST_MAP, "enclosure_2", [(0, 3), (0, 5)], {(0, 1), (0, 3)}, set(),
                             True) == "occupied"
    assert placement_problem(TEST_MAP, "enclosure_1", [(9, 2)], set(), set(), True) == "off_map"
    assert placement_problem(TEST_MAP, "enclosure_2", [(0, 5), (0, 9)], {(0, 3)}, set(),
                             True) == "wrong_shape"


def test_upgrade_only_cells_need_build_two():
    assert ((2, 5),) not in legal_placements(TEST_MAP, "enclosure_1", {(3, 4)}, set(), False)
    assert legal_placements(TEST_MAP, "enclosure_1", {(3, 4)}, set(), True) == \
        [((2, 3),), ((2, 5),), ((3, 2),), ((3, 6),), ((4, 3),)]
    assert placement_problem(TEST_MAP, "enclosure_1", [(2, 5)], {(3, 4)}, set(), False) == \
        "upgrade_only"
    # also for a first building on the edge
    edge_map = make_map(upgrade_only={(0, 1), (1, 0)})
    assert ((0, 1),) not in legal_placements(edge_map, "kiosk", set(), set(), False)
    assert ((0, 1),) in legal_placements(edge_map, "kiosk", set(), set(), True)


def test_kiosks_keep_two_free_spaces_between():
    column = {(1, y) for y in range(0, 13, 2)}          # a zoo filling column 1
    kiosks = {(1, 4)}
    assert distance((1, 4), (2, 7)) == 2 and distance((1, 4), (2, 9)) == 3
    assert distance((1, 4), (0, 7)) == 2 and distance((1, 4), (0, 9)) == 3
    got = legal_placements(OPEN_MAP, "kiosk", column, kiosks, False)
    assert ((2, 7),) not in got and ((0, 7),) not in got and ((2, 5),) not in got
    assert ((2, 1),) not in got and ((0, 1),) not in got
    assert got == [((0, 9),), ((0, 11),), ((2, 9),), ((2, 11),)]
    near = {c for c in adjacent_cells(OPEN_MAP, column)}
    assert got == singles(c for c in near if distance(c, (1, 4)) >= 3)
    assert placement_problem(OPEN_MAP, "kiosk", [(2, 7)], column, kiosks, False) == \
        "kiosk_too_close"
    assert placement_problem(OPEN_MAP, "kiosk", [(2, 9)], column, kiosks, False) is None
    # other buildings may stand right beside a kiosk
    assert ((2, 5),) in legal_placements(OPEN_MAP, "pavilion", column, kiosks, False)
    assert ((2, 5),) in legal_placements(OPEN_MAP, "enclosure_1", column, kiosks, False)


def test_bonuses_covered_and_touching():
    assert bonuses_covered(TEST_MAP, [(3, 6), (3, 8)]) == [{"money": 3}]
    assert bonuses_covered(TEST_MAP, [[1, 0], [1, 2], [3, 6]]) == [{"cards": 1}, {"money": 3}]
    assert bonuses_covered(TEST_MAP, [(0, 1)]) == []
    bonuses_covered(TEST_MAP, [(3, 6)])[0]["money"] = 99             # a copy
    assert TEST_MAP.bonuses[(3, 6)] == {"money": 3}
    # (4,7) touches both cells: counted once
    assert touching(TEST_MAP, [(3, 6), (3, 8)], "water") == 2
    assert touching(TEST_MAP, [(3, 8)], "water") == 1
    assert touching(TEST_MAP, [(5, 6)], "water") == 2
    assert touching(TEST_MAP, [(5, 6)], "rock") == 1
    assert touching(TEST_MAP, [(0, 1)], "water") == 0
    with pytest.raises(ValueError):
        touching(TEST_MAP, [(0, 1)], "lava")
    assert adjacent_cells(TEST_MAP, [(0, 1)]) == {(1, 0), (1, 2), (0, 3)}
    assert adjacent_cells(TEST_MAP, [(0, 1), (0, 3)]) == {(1, 0), (1, 2), (1, 4), (0, 5)}


def test_zoo_cells_from_json_buildings():
    zoo = [{"kind": "enclosure", "id": "enclosure_2", "cells": [[0, 1], [0, 3]]},
           {"kind": "kiosk", "id": "kiosk", "cells": [[1, 4]]}]
    assert zoo_cells(zoo) == ({(0, 1), (0, 3), (1, 4)}, {(1, 4)})


def test_rules_agree_on_random_zoos():
    """``placement_problem`` is None exactly for what ``legal_placements`` lists."""
    rng = random.Random(20240501)
    maps = load_maps()
    for map_id in SHIPPED:
        zmap = maps[map_id]
        for _ in range(6):
            zoo: list[dict] = []
            for _ in range(rng.randrange(0, 12)):
                occupied, kiosks = zoo_cells(zoo)
                b = rng.choice(list(B.values()))
                upgraded = rng.random() < 0.5
                legal = legal_placements(zmap, b, occupied, kiosks, upgraded)
                assert legal == sorted(set(legal))
                assert legal == legal_placements(zmap, b, occupied, kiosks, upgraded)
                legal_set = set(legal)
                for fp in footprints(zmap, b):
                    problem = placement_problem(zmap, b, fp.cells, occupied, kiosks, upgraded)
                    assert (problem is None) == (fp.cells in legal_set), (fp.cells, problem)
                    assert problem is None or problem in PROBLEMS
                if legal:
                    cells = rng.choice(legal)
                    zoo.append({"kind": b.kind, "id": b.id, "cells": [list(c) for c in cells]})


# --------------------------------------------------------------------------- shipped maps
def test_shipped_maps_validate_and_have_character():
    maps = load_maps()
    assert set(SHIPPED) <= set(maps)
    assert list(maps) == sorted(maps)
    for m in maps.values():
        assert 6 <= len(m.water) <= 10, m.id
        assert 5 <= len(m.rock) <= 9, m.id
        assert 4 <= len(m.upgrade_only) <= 7, m.id
        assert 6 <= len(m.bonuses) <= 9, m.id
        assert len(m.land) >= MIN_BUILDABLE
        assert m.upgrade_only <= m.land and set(m.bonuses) <= m.land
        assert not m.upgrade_only & set(m.bonuses)
        # all land is one region, so a zoo can grow over the whole map
        seen, todo = set(), [min(m.land)]
        while todo:
            c = todo.pop()
            if c not in seen:
                seen.add(c)
                todo.extend(n for n in m.nbrs[c] if n in m.land)
        assert seen == m.land, m.id
        for b in B.values():
            assert legal_placements(m, b, set(), set(), True), (m.id, b.id)
    assert len(maps["riverside"].water) >= 9
    assert len(maps["highlands"].rock & maps["highlands"].edge) >= 5
    assert maps["plains"].ability is not None
    assert len(maps["plains"].bonuses) >= 8


def test_map_as_dict_round_trips(tmp_path):
    for m in load_maps().values():
        data = m.as_dict()
        assert len(data["cells"]) == 58 and len(data["edge"]) == 26
        del data["cells"], data["edge"]
        (tmp_path / f"{m.id}.json").write_text(json.dumps(data))
        assert load_map(tmp_path / f"{m.id}.json") == m
    assert set(load_maps(tmp_path)) == set(load_maps())


# --------------------------------------------------------------------------- the validator
def good_map() -> dict:
    return {
        "id": "broken", "name": "Broken", "description": "for tests",
        "water": [[4, 5], [4, 7], [3, 6], [5, 6], [2, 9], [6, 9]],
        "rock": [[0, 1], [8, 1], [0, 11], [8, 11], [1, 12]],
        "upgrade_only": [[2, 3], [6, 3], [4, 11], [7, 6]],
        "bonuses": [{"cell": [1, 2], "gain": {"money": 3}}, {"cell": [7, 2], "gain": {"cards": 1}},
                    {"cell": [3, 10], "gain": {"x": 1}}, {"cell": [5, 10], "gain": {"upgrade": 1}},
                    {"cell": [4, 1], "gain": {"worker": 1}},
                    {"cell": [1, 8], "gain": {"reputation": 1}}],
        "ability": None,
    }


def test_the_test_map_is_valid(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(good_map()))
    assert load_map(path).id == "broken"


def _set(path, value):
    def change(m):
        target = m
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
    return change


def _flood(m):           # columns 3..5 under water: 20 water + 5 rock leave 33 land cells
    m["water"] = [list(c) for c in GRID if c[0] in (3, 4, 5)]
    m["upgrade_only"] = [c for c in m["upgrade_only"] if c[0] not in (3, 4, 5)]
    m["bonuses"] = [b for b in m["bonuses"] if b["cell"][0] not in (3, 4, 5)]


def _surround(m):        # (4,5) closed in by water on all six sides
    m["water"] = [[4, 3], [4, 7], [3, 4], [3, 6], [5, 4], [5, 6]]


BROKEN_MAPS = [
    ("unknown key", lambda m: m.update(lava=[]), ["lava", "Extra inputs"]),
    ("missing field", lambda m: m.pop("rock"), ["rock", "required"]),
    ("off grid", _set(["water", 0], [9, 2]), ["water[0]", "off the grid"]),
    ("negative", _set(["rock", 1], [-1, 0]), ["rock[1]", "off the grid"]),
    ("parity", _set(["upgrade_only", 2], [2, 2]), ["upgrade_only[2]", "x + y even"]),
    ("not a pair", _set(["water", 1], [4]), ["water[1]"]),
    ("bad gain key", _set(["bonuses", 0, "gain"], {"gold": 3}), ["bonuses[0].gain.gold"]),
    ("two gain keys", _set(["bonuses", 1, "gain"], {"money": 1, "cards": 1}),
     ["bonuses[1].gain", "exactly one"]),
    ("empty gain", _set(["bonuses", 1, "gain"], {}), ["bonuses[1].gain", "exactly one"]),
    ("upgrade 2", _set(["bonuses", 3, "gain"], {"upgrade": 2}), ["bonuses[3].gain.upgrade"]),
    ("money as text", _set(["bonuses", 0, "gain"], {"money": "3"}), ["bonuses[0].gain.money"]),
    ("zero money", _set(["bonuses", 0, "gain"], {"money": 0}), ["bonuses[0].gain.money"]),
    ("water and rock overlap", _set(["rock", 0], [4, 5]), ["rock[0]", "also in water"]),
    ("bonus on water", _set(["bonuses", 2, "cell"], [3, 6]), ["bonuses[2].cell", "also in water"]),
    ("bonus on rock", _set(["bonuses", 2, "cell"], [8, 1]), ["bonuses[2].cell", "also in rock"]),
    ("upgrade-only on rock", _set(["upgrade_only", 0], [0, 1]), ["upgrade_only[0]", "rock"]),
    ("bonus on upgrade-only", _set(["bonuses", 0, "cell"], [2, 3]),
     ["bonuses[0].cell", "also in upgrade_only"]),
    ("duplicate", _set(["water", 1], [4, 5]), ["water[1]", "listed twice"]),
    ("unreachable land", _surround, ["water", "[4, 5]", "cannot be reached"]),
    ("too little land", _flood, ["water", "33 buildable", "at least 38"]),
    ("id mismatch", _set(["id"], "other"), ["id", "does not match"]),
    ("bad id", _set(["id"], "Broken Map"), ["id"]),
    ("bad ability", _set(["ability"], {"keyword": "start_money", "amount": 5}),
     ["ability.amount"]),
    ("not json", None, ["Invalid JSON"]),
]


@pytest.mark.parametrize("change, expected", [(c, e) for _, c, e in BROKEN_MAPS],
                         ids=[name for name, _, _ in BROKEN_MAPS])
def test_validator_rejects_broken_maps(tmp_path, change, expected):
    path = tmp_path / "broken.json"
    if change is None:
        path.write_text('{"id": "broken",')
    else:
        data = good_map()
        change(data)
        path.write_text(json.dumps(data))
    with pytest.raises(ValueError) as err:
        load_map(path)
    message = str(err.value)
    assert str(path) in message
    for part in expected:
        assert part in message, message
    with pytest.raises(ValueError, match="broken.json"):
        load_maps(tmp_path)


def good_buildings() -> list[dict]:
    return json.loads(json.dumps([b.as_dict() for b in B.values()]))


BROKEN_BUILDINGS = [
    ("size mismatch", _set([1, "size"], 3), ["buildings[1]", "shape", "size 3"]),
    ("disconnected", _set([2, "shape"], [[0, 1], [0, 3], [2, 5]]),
     ["buildings[2]", "shape", "not one connected"]),
    ("parity", _set([0, "shape"], [[0, 0]]), ["buildings[0].shape[0]", "x + y even"]),
    ("duplicate cell", _set([1, "shape"], [[0, 1], [0, 1]]), ["buildings[1]", "twice"]),
    ("unknown key", lambda bs: bs[3].update(colour="red"), ["buildings[3].colour"]),
    ("bad kind", _set([5, "kind"], "shop"), ["buildings[5].kind"]),
    ("capacity on enclosure", _set([0, "capacity"], 2), ["buildings[0]", "capacity"]),
    ("special without capacity", _set([7, "capacity"], None), ["buildings[7]", "capacity"]),
    ("duplicate id", _set([1, "id"], "enclosure_1"), ["buildings[1].id", "twice"]),
    ("not a list", None, ["buildings"]),
]


@pytest.mark.parametrize("change, expected", [(c, e) for _, c, e in BROKEN_BUILDINGS],
                         ids=[name for name, _, _ in BROKEN_BUILDINGS])
def test_validator_rejects_broken_buildings(tmp_path, change, expected):
    path = tmp_path / "buildings.json"
    data = good_buildings()
    if change is None:
        data = {"buildings": data}
    else:
        change(data)
    path.write_text(json.dumps(data))
    with pytest.raises(ValueError) as err:
        load_buildings(path)
    message = str(err.value)
    assert str(path) in message
    for part in expected:
        assert part in message, message


def test_good_buildings_round_trip(tmp_path):
    path = tmp_path / "buildings.json"
    path.write_text(json.dumps(good_buildings()))
    assert load_buildings(path) == B
