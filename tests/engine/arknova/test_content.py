"""The zoo builder's card set: the shipped data, and the loader's validation of broken files."""

from __future__ import annotations

import json
import shutil
import time
from collections import Counter
from pathlib import Path

import pytest

from engine.arknova import keywords as K
from engine.arknova.content import DATA_DIR, FILES, ContentError, _load, load_content
from tests.scripts import load_script

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def content():
    return load_content()


def animals(content):
    return list(content.animals.values())


# --------------------------------------------------------------------------- counts and ids
def test_exact_counts(content):
    assert len(content.animals) == 128
    assert len(content.sponsors) == 64
    assert len(content.projects) == 20
    assert len(content.base_projects) == 12
    assert len(content.final_scoring) == 11
    assert len(content.bonus_tiles) >= 8


def test_ids_are_the_stable_sequences(content):
    assert list(content.animals) == [f"A{i:03d}" for i in range(1, 129)]
    assert list(content.sponsors) == [f"S{i:03d}" for i in range(1, 65)]
    assert list(content.projects) == [f"P{i:03d}" for i in range(1, 21)]
    assert list(content.base_projects) == [f"B{i:02d}" for i in range(1, 13)]
    assert list(content.final_scoring) == [f"F{i:02d}" for i in range(1, 12)]
    assert list(content.bonus_tiles) == [f"T{i:02d}" for i in range(1, len(content.bonus_tiles) + 1)]


def test_ids_unique_across_files_and_model_ids_match_keys(content):
    ids = [*content.animals, *content.sponsors, *content.projects, *content.base_projects,
           *content.final_scoring, *content.bonus_tiles]
    assert len(ids) == len(set(ids))
    for group in (content.animals, content.sponsors, content.projects, content.base_projects,
                  content.final_scoring, content.bonus_tiles):
        for cid, card in group.items():
            assert card.id == cid


def test_names_unique(content):
    for group in (content.animals, content.sponsors, {**content.projects, **content.base_projects},
                  content.final_scoring, content.bonus_tiles):
        names = [c.name for c in group.values()]
        assert len(names) == len(set(names)), Counter(names).most_common(3)


def test_deck_ids_and_card_lookup(content):
    deck = content.deck_ids()
    assert deck == sorted(deck)
    assert len(deck) == 128 + 64 + 20
    assert set(deck) == set(content.animals) | set(content.sponsors) | set(content.projects)
    assert content.card("A001") is content.animals["A001"]
    assert content.card("S064") is content.sponsors["S064"]
    assert content.card("P020") is content.projects["P020"]
    assert content.card("B01") is content.base_projects["B01"]
    with pytest.raises(KeyError):
        content.card("Z999")


def test_default_load_is_cached_and_fast():
    assert load_content() is load_content()
    best = min(_timed_load() for _ in range(3))
    assert best < 0.050, f"loading the card data took {best * 1000:.1f} ms"


def _timed_load() -> float:
    t = time.perf_counter()
    _load(DATA_DIR)
    return time.perf_counter() - t


def test_catalog_is_plain_json(content):
    cat = content.as_catalog()
    again = json.loads(json.dumps(cat))
    assert again == cat
    assert len(cat["animals"]) == 128 and len(cat["sponsors"]) == 64
    assert len(cat["projects"]) == 20 and len(cat["base_projects"]) == 12
    assert len(cat["final_scoring"]) == 11 and len(cat["bonus_tiles"]) == len(content.bonus_tiles)
    assert set(cat["keywords"]) == set(K.ABILITY_KEYWORDS)
    first = cat["animals"][0]
    assert first["id"] == "A001" and first["type"] == "animal" and "icons" in first
    for a in cat["animals"]:
        assert len(a["texts"]) == len(a["abilities"])
        assert all(isinstance(t, str) and t for t in a["texts"])


# --------------------------------------------------------------------------- animals
def test_size_distribution(content):
    sizes = Counter(a.size for a in animals(content))
    for size, target in zip(range(1, 6), (34, 31, 24, 20, 19)):
        assert abs(sizes[size] - target) <= 3, (size, sizes[size])


def test_every_keyword_is_used(content):
    used = Counter(x.keyword for a in animals(content) for x in a.abilities)
    used += Counter(x.keyword for s in content.sponsors.values() for x in s.effects)
    missing = [k for k in K.ABILITY_KEYWORDS if not used[k]]
    assert not missing, missing


def test_interactions_are_rare_and_animal_only(content):
    used = Counter(x.keyword for a in animals(content) for x in a.abilities)
    for k in K.INTERACTIONS:
        assert 2 <= used[k] <= 4, (k, used[k])
    for s in content.sponsors.values():
        assert not {x.keyword for x in s.effects} & K.INTERACTIONS, s.id


def test_abilities_on_many_animals(content):
    assert sum(1 for a in animals(content) if a.abilities) >= 60
    assert all(len(a.abilities) <= 2 for a in animals(content))


def test_every_continent_and_class_well_represented(content):
    icons = Counter(i for a in animals(content) for i in a.icons)
    for icon in K.CONTINENTS + K.CLASSES:
        assert icons[icon] >= 6, (icon, icons[icon])


def test_special_enclosures(content):
    by = Counter(a.special.enclosure for a in animals(content) if a.special)
    assert by["reptile_house"] >= 8 and by["aviary"] >= 8 and by["petting_zoo"] >= 8
    for a in animals(content):
        if a.special is None:
            assert "pet" not in a.classes, a.id
            continue
        sp = a.special
        if sp.enclosure == "petting_zoo":
            assert sp.only and a.size == 1 and a.classes == ["pet"], a.id
            assert 3 <= a.cost <= 6 and 1 <= a.appeal <= 2, a.id
        elif sp.enclosure == "reptile_house":
            assert not sp.only and "reptile" in a.classes, a.id
        else:
            assert not sp.only and "bird" in a.classes, a.id
        assert sp.spaces <= a.size, a.id


def test_requirements_spread(content):
    req = [a.requires for a in animals(content)]
    assert 16 <= sum(1 for r in req if r.water) <= 26
    assert 9 <= sum(1 for r in req if r.rock) <= 15
    other = sum(1 for r in req if any((r.icons, r.partner, r.science, r.reputation)))
    assert 20 <= other <= 32


def test_conservation_and_reputation_are_rare(content):
    cons = [a.conservation for a in animals(content)]
    assert all(c <= 2 for c in cons)
    assert 18 <= sum(1 for c in cons if c) <= 32
    assert all(a.reputation <= 2 for a in animals(content))


def test_cost_and_appeal_follow_the_guidance(content):
    for a in animals(content):
        if "pet" in a.classes:
            continue
        assert a.size + 1 <= a.appeal <= 2 * a.size + 1, a.id
        base = 2 * a.size + a.appeal + 3 * a.conservation
        assert -3 <= a.cost - base <= 6, (a.id, a.cost, base)
    cost = {s: [a.cost for a in animals(content) if a.size == s and "pet" not in a.classes] for s in (1, 5)}
    assert 6 <= min(cost[1]) and max(cost[1]) <= 11
    assert 17 <= min(cost[5]) and max(cost[5]) <= 28


def test_report_flags_no_outliers(content):
    mod = load_script("scripts/cards_report.py")
    text, flagged = mod.report(content)
    assert not flagged, flagged
    assert "## Keyword usage" in text and "## Outliers" in text


# --------------------------------------------------------------------------- sponsors
def test_sponsor_shape(content):
    sp = list(content.sponsors.values())
    levels = Counter(s.level for s in sp)
    assert set(levels) <= set(range(1, 9))
    assert levels[1] >= 1 and levels[8] >= 1
    assert sum(levels[i] for i in range(2, 6)) >= 40
    assert 12 <= sum(1 for s in sp if s.income) <= 18
    assert 12 <= sum(1 for s in sp if s.triggers) <= 18
    assert 10 <= sum(1 for s in sp if s.end) <= 15
    assert sum(1 for s in sp if s.building) >= 4
    assert len(content.buildings) == sum(1 for s in sp if s.building)
    for s in sp:
        for icon in s.icons:
            assert icon == "science" or icon in K.CONTINENTS, s.id


# --------------------------------------------------------------------------- projects, final scoring, tiles
def test_project_kinds(content):
    kinds = Counter(p.kind for p in content.projects.values())
    assert kinds["release"] >= 4 and kinds["breeding"] >= 3 and kinds["distinct"] >= 2 and kinds["icon"] >= 1
    assert all(not p.base for p in content.projects.values())
    base = list(content.base_projects.values())
    assert all(p.base and p.kind == "icon" for p in base)
    covered = {p.icon for p in base}
    assert "science" in covered
    assert covered & set(K.CONTINENTS) == set(K.CONTINENTS)
    assert len(covered & set(K.CLASSES)) >= 5


def test_projects_are_reachable(content):
    # Pets live only in the petting zoo (3 places): no project may ask for more pets than that.
    for p in content.projects.values():
        if p.icon == "pet":
            need = p.levels[0].need * (2 if p.kind == "breeding" else 1)
            assert need <= 3, p.id
        if p.kind == "release":
            assert p.levels[0].need <= 5


def test_final_scoring(content):
    counters = [f.counter for f in content.final_scoring.values()]
    assert len(set(counters)) == len(counters)
    for f in content.final_scoring.values():
        K.parse_counter(f.counter)
        assert len(f.steps) == 4 and f.text


def test_bonus_tiles_varied(content):
    keys = {k for t in content.bonus_tiles.values() for k in t.gain}
    assert {"upgrade", "worker", "x", "reputation", "cards", "snap", "money"} <= keys


# --------------------------------------------------------------------------- keyword tables
def test_keyword_tables():
    assert set(K.ICONS) == set(K.CONTINENTS) | set(K.CLASSES) | {"science"}
    assert K.parse_counter("icon:bird") == ("icon", "bird")
    assert K.parse_counter("animals_min_size:4") == ("animals_min_size", "4")
    assert K.parse_counter("buildings:kiosk") == ("buildings", "kiosk")
    assert K.parse_counter("continents") == ("continents", None)
    for bad in ("icon:dragon", "animals_min_size:9", "buildings:castle", "everything", "", None):
        with pytest.raises(ValueError):
            K.parse_counter(bad)
    K.check_ability("boost", {"action": "cards", "strength": 2})
    for kw, value in [("sprint", True), ("sprint", 0), ("hypnosis", 2), ("pilfering", 3), ("clever", 1),
                      ("boost", {"action": "cards"}), ("sell", {"max": 1, "money": 2, "x": 1}),
                      ("pack", "africa"), ("iconic", "bird")]:
        with pytest.raises(ValueError):
            K.check_ability(kw, value)
    with pytest.raises(ValueError):
        K.check_ability("venom", None, sponsor=True)
    for kw in K.ABILITY_KEYWORDS:
        assert K.value_form(kw) != "?"


# --------------------------------------------------------------------------- broken files
@pytest.fixture
def data_dir(tmp_path):
    for fname in FILES.values():
        shutil.copy(DATA_DIR / fname, tmp_path / fname)
    return tmp_path


def _edit(directory: Path, fname: str, fn) -> None:
    path = directory / fname
    cards = json.loads(path.read_text())
    fn(cards)
    path.write_text(json.dumps(cards))


def _by_id(cards: list, cid: str) -> dict:
    return next(c for c in cards if c["id"] == cid)


def _set(cid: str, **fields):
    def fn(cards):
        _by_id(cards, cid).update(fields)
    return fn


def _sponsor_with_building(cards):
    return next(c for c in cards if c["building"])


def _shape(shape):
    def fn(cards):
        _sponsor_with_building(cards)["building"]["shape"] = shape
    return fn


def _dup(cid: str, copy_of: str):
    def fn(cards):
        cards.append(dict(_by_id(cards, copy_of), id=cid))
    return fn


def _del(cid: str, key: str):
    def fn(cards):
        del _by_id(cards, cid)[key]
    return fn


BROKEN = [
    # (file, card, change, field named in the message, words in the message)
    ("animals.json", "A005", _set("A005", abilities=[{"keyword": "flying", "value": 2}]),
     "abilities.0.keyword", "unknown ability keyword"),
    ("animals.json", "A010", _set("A010", abilities=[{"keyword": "sprint", "value": "two"}]),
     "abilities.0.value", "sprint"),
    ("animals.json", "A010", _set("A010", abilities=[{"keyword": "sprint", "value": 1},
                                                     {"keyword": "clever", "value": 3}]),
     "abilities.1.value", "clever"),
    ("animals.json", "A011", _set("A011", abilities=[{"keyword": "boost", "value": {"action": "build"}}]),
     "abilities.0.value", "boost"),
    ("animals.json", "A012", _set("A012", abilities=[{"keyword": "pack", "value": "africa"}]),
     "abilities.0.value", "pack"),
    ("animals.json", "A013", _set("A013", abilities=[{"keyword": "hypnosis", "value": 2}]),
     "abilities.0.value", "hypnosis"),
    ("animals.json", "A014", _set("A014", classes=["bird", "dragon"]), "classes.1", "unknown class"),
    ("animals.json", "A015", _set("A015", continent="atlantis"), "continent", "unknown continent"),
    ("animals.json", "A016", _set("A016", requires={"icons": {"unicorn": 1}}), "requires.icons", "unknown icon"),
    ("animals.json", "A017", _set("A017", requires={"upgraded": "build"}), "requires.upgraded", "not permitted"),
    ("animals.json", "A018", _set("A018", special={"enclosure": "castle", "spaces": 1, "only": False}),
     "special.enclosure", "unknown special enclosure"),
    ("animals.json", "A019", _set("A019", size=6), "size", "less than or equal"),
    ("animals.json", "A020", _set("A020", wings=2), "wings", "not permitted"),
    ("animals.json", "A021", _del("A021", "cost"), "cost", "required"),
    ("animals.json", "A1", _set("A001", id="A1"), "id", "pattern"),
    ("animals.json", "S001", _set("A002", id="S001"), "id", "pattern"),
    ("animals.json", "A003", _dup("A003", "A004"), "id", "duplicate"),
    # solo effects: exactly on the animals with an interaction, of the solo vocabulary
    ("animals.json", "A043", _del("A043", "solo"), "solo", "needs its solo effects"),
    ("animals.json", "A001", _set("A001", solo=[{"keyword": "crowd", "value": 1}]), "solo",
     "only an animal with an interaction"),
    ("animals.json", "A028", _set("A028", solo=[{"keyword": "venom", "value": None}]), "solo.0",
     "cannot be a solo effect"),
    ("animals.json", "A041", _set("A041", solo=[{"keyword": "crowd", "value": 9}]), "solo.0",
     "value for 'crowd'"),
    ("animals.json", "A048", _set("A048", solo=[{"keyword": "steal", "value": 5}]), "solo.0",
     "unknown solo effect keyword"),
    ("sponsors.json", "S001", _set("S001", effects=[{"keyword": "venom", "value": None}]),
     "effects.0.keyword", "animals only"),
    ("sponsors.json", "S002", _set("S002", effects=[{"keyword": "money", "value": 0}]),
     "effects.0.value", "money"),
    ("sponsors.json", "S003", _set("S003", income={"gold": 2}), "income", "unknown gain key"),
    ("sponsors.json", "S004", _set("S004", income={"money": 0}), "income", "money"),
    ("sponsors.json", "S005", _set("S005", triggers=[{"on": "animal", "filter": {}, "gain": {"fame": 1}}]),
     "triggers.0.gain", "unknown gain key"),
    ("sponsors.json", "S006", _set("S006", triggers=[{"on": "lunch", "filter": {}, "gain": {"money": 1}}]),
     "triggers.0.on", "unknown trigger event"),
    ("sponsors.json", "S007", _set("S007", triggers=[{"on": "animal", "filter": {"colour": "red"},
                                                      "gain": {"money": 1}}]),
     "triggers.0.filter", "colour"),
    ("sponsors.json", "S008", _set("S008", triggers=[{"on": "animal", "filter": {"class": "bird", "size_min": 2},
                                                      "gain": {"money": 1}}]),
     "triggers.0.filter", "more than one key"),
    ("sponsors.json", "S009", _set("S009", triggers=[{"on": "build", "filter": {"building": "castle"},
                                                      "gain": {"money": 1}}]),
     "triggers.0.filter.building", "castle"),
    ("sponsors.json", "S010", _set("S010", end={"counter": "icon:dragon", "per": 1, "max": 2}),
     "end.counter", "unknown counter"),
    ("sponsors.json", "S011", _set("S011", end={"counter": "happiness", "per": 1, "max": 2}),
     "end.counter", "unknown counter"),
    ("sponsors.json", "S012", _set("S012", icons=["science", "moon"]), "icons.1", "unknown icon"),
    ("sponsors.json", "S013", _set("S013", requires={"upgraded": "dancing"}), "requires.upgraded", "unknown action"),
    ("sponsors.json", "S014", _set("S014", level=9), "level", "less than or equal"),
    ("sponsors.json", "S043", _shape([[0, 1], [0, 5]]), "building.shape", "not connected"),
    ("sponsors.json", "S043", _shape([[0, 1], [1, 2], [3, 4]]), "building.shape", "not connected"),
    ("sponsors.json", "S043", _shape([[0, 0], [0, 2]]), "building.shape", "x + y must be odd"),
    ("sponsors.json", "S043", _shape([[0, 1], [0, 3], [0, 5], [0, 7]]), "building.shape", "1 to 3 cells"),
    ("sponsors.json", "S043", _shape([[0, 1], [0, 1]]), "building.shape", "repeats a cell"),
    ("projects.json", "P001", _set("P001", levels=[{"need": 5, "cp": 5}, {"need": 4, "cp": 4}]),
     "levels", "exactly 3 levels"),
    ("projects.json", "P002", _set("P002", levels=[{"need": 2, "cp": 2}, {"need": 3, "cp": 4}, {"need": 4, "cp": 5}]),
     "levels", "sorted"),
    ("projects.json", "P003", _set("P003", levels=[{"need": 4, "cp": 4}, {"need": 4, "cp": 3}, {"need": 1, "cp": 2}]),
     "levels", "sorted"),
    ("projects.json", "P007", _del("P007", "icon"), "icon", "required for kind 'breeding'"),
    ("projects.json", "P011", _set("P011", of="planets"), "of", "planets"),
    ("projects.json", "P004", _set("P004", filter={"size": 3}), "filter", "unknown key"),
    ("projects.json", "P014", _set("P014", kind="vibes"), "kind", "unknown project kind"),
    ("projects.json", "B01", _set("B01", icon="dragon"), "icon", "unknown icon"),
    ("projects.json", "B02", _set("B02", base=False), "id", "pattern"),
    ("projects.json", "P005", _set("P005", base=True), "id", "pattern"),
    ("final_scoring.json", "F01", _set("F01", counter="animals_min_size:7"), "counter", "unknown counter"),
    ("final_scoring.json", "F02", _set("F02", steps=[1, 2, 3]), "steps", "exactly 4"),
    ("final_scoring.json", "F03", _set("F03", steps=[1, 3, 2, 4]), "steps", "ascending"),
    ("bonus_tiles.json", "T01", _set("T01", gain={"upgrade": 1, "hug": 1}), "gain", "unknown gain key"),
    ("bonus_tiles.json", "T02", _set("T02", gain={}), "gain", "non-empty"),
]


@pytest.mark.parametrize("fname,cid,change,fieldname,words", BROKEN,
                         ids=[f"{b[0].split('.')[0]}-{b[1]}-{b[3]}-{i}" for i, b in enumerate(BROKEN)])
def test_broken_file_is_rejected(data_dir, fname, cid, change, fieldname, words):
    _edit(data_dir, fname, change)
    with pytest.raises(ValueError) as exc:
        load_content(data_dir)
    msg = str(exc.value)
    assert isinstance(exc.value, ContentError)
    assert msg.startswith(f"{fname}: {cid}: {fieldname}: "), msg
    assert words in msg, msg


def test_unbroken_copy_loads(data_dir):
    c = load_content(data_dir)
    assert c is not load_content()
    assert c.deck_ids() == load_content().deck_ids()


def test_missing_file_and_bad_json(data_dir):
    (data_dir / "bonus_tiles.json").write_text("{not json")
    with pytest.raises(ContentError, match="bonus_tiles.json: not valid JSON"):
        load_content(data_dir)
    (data_dir / "bonus_tiles.json").unlink()
    with pytest.raises(ContentError, match="bonus_tiles.json: file is missing"):
        load_content(data_dir)
    (data_dir / "animals.json").write_text('{"A001": {}}')
    with pytest.raises(ContentError, match="animals.json: must hold a JSON list"):
        load_content(data_dir)


def test_duplicate_id_across_files(data_dir):
    _edit(data_dir, "sponsors.json", _set("S064", id="S063"))
    with pytest.raises(ContentError, match=r"sponsors.json: S063: id: duplicate id"):
        load_content(data_dir)


def test_duplicate_sponsor_building_id(data_dir):
    def fn(cards):
        with_b = [c for c in cards if c["building"]]
        with_b[1]["building"]["id"] = with_b[0]["building"]["id"]
    _edit(data_dir, "sponsors.json", fn)
    with pytest.raises(ContentError, match=r"building.id: duplicate building id"):
        load_content(data_dir)


def test_sponsor_building_may_not_reuse_standard_ids(data_dir):
    def fn(cards):
        _sponsor_with_building(cards)["building"]["id"] = "kiosk"
    _edit(data_dir, "sponsors.json", fn)
    with pytest.raises(ContentError, match=r"building.id: .*standard building"):
        load_content(data_dir)


def test_trigger_may_name_a_sponsor_building(data_dir):
    def fn(cards):
        bid = _sponsor_with_building(cards)["building"]["id"]
        _by_id(cards, "S001")["triggers"] = [{"on": "build", "filter": {"building": bid}, "gain": {"appeal": 1}}]
    _edit(data_dir, "sponsors.json", fn)
    assert load_content(data_dir).sponsors["S001"].triggers[0].filter["building"]
