"""Languages: English, Ukrainian and German everywhere a player reads (fast, no browser).

The client's message catalogues (static/i18n/<lang>.json):
- no language misses a key that English has (and has none of its own but the ``.you`` /
  ``.you_obj`` variants of English keys, for verbs that agree with "you");
- every plural key has exactly the plural forms of each language (Intl.PluralRules: English and
  German one/other, Ukrainian one/few/many/other);
- no translation uses a placeholder that the English text does not have;
- no key is unused: each one is a literal in static/**/*.js|html (``t("…")``, ``data-i18n``), or
  belongs to a family of static/i18n/dynamic.json, whose values come from the game data;
- every run-time key of the code (``t(`icon.${name}`)``) belongs to a declared family.
Game data: every card has a Ukrainian and a German name, every final-scoring text a translation,
the English ability templates say what keywords.describe() says, the English data names in the
catalogue are the data's. Server: app/i18n.py negotiates Accept-Language and translates every
error sentence; every error code the app or an engine raises has a sentence in every language.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI

import engine
from app import errors, i18n
from engine.arknova import keywords

ROOT = Path(__file__).resolve().parents[1]
STATIC = ROOT / "static"
LANGS = ("en", "uk", "de")
#: CLDR plural categories the client's Intl.PluralRules use for integers and fractions
PLURAL_FORMS = {"en": {"one", "other"}, "de": {"one", "other"}, "uk": {"one", "few", "many", "other"}}
VARIANTS = (".you", ".you_obj")
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def load(lang: str) -> dict:
    return json.loads((STATIC / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def cats() -> dict[str, dict]:
    return {lang: load(lang) for lang in LANGS}


@pytest.fixture(scope="module")
def families() -> dict[str, list[str]]:
    return json.loads((STATIC / "i18n" / "dynamic.json").read_text(encoding="utf-8"))["families"]


def expand(families: dict[str, list[str]]) -> set[str]:
    return {pattern.replace("{}", str(v)) for pattern, values in families.items() for v in values}


def base_key(key: str) -> str:
    """The English key a variant belongs to ("log.built.you" -> "log.built")."""
    for v in VARIANTS:
        if key.endswith(v) and key[: -len(v)] in load("en"):
            return key[: -len(v)]
    return key


def sources() -> dict[Path, str]:
    """The client's code and pages (the catalogues themselves excluded)."""
    files = [p for p in STATIC.rglob("*") if p.suffix in (".js", ".html") and "i18n" not in p.parts]
    return {p: p.read_text(encoding="utf-8") for p in files}


def texts(value) -> list[str]:
    return list(value.values()) if isinstance(value, dict) else [value]


# --------------------------------------------------------------------------- client catalogues
@pytest.mark.parametrize("lang", ["uk", "de"])
def test_no_language_misses_an_english_key(cats, lang):
    en, other = cats["en"], cats[lang]
    missing = sorted(set(en) - set(other))
    assert not missing, f"{lang}.json misses {len(missing)} keys: {missing[:30]}"
    extra = sorted(k for k in other if k not in en and base_key(k) not in en)
    assert not extra, f"{lang}.json has keys English does not: {extra[:30]}"
    empty = sorted(k for k, v in other.items() if any(not str(t).strip() for t in texts(v)))
    assert not empty, f"{lang}.json has empty texts: {empty}"


def test_the_catalogues_are_translations(cats):
    """Most texts differ from English (names such as "Kiosk" or "Koala" may not)."""
    for lang in ("uk", "de"):
        same = [k for k, v in cats[lang].items() if v == cats["en"].get(k)]
        assert len(same) < len(cats["en"]) * 0.06, f"{lang}: {len(same)} texts are English: {same[:40]}"
    cyrillic = re.compile("[а-яіїєґ]", re.I)
    latin_words = [k for k, v in cats["uk"].items()
                   if not any(cyrillic.search(str(t)) for t in texts(v))
                   and re.search(r"[A-Za-z]{4,}", PLACEHOLDER.sub("", " ".join(map(str, texts(v)))))]
    allowed = {"bot.mcts", "game.doc_title", "lobby.page_title_turns"}  # the brand "Menagerie"
    assert set(latin_words) <= allowed, f"Ukrainian texts without Cyrillic: {sorted(set(latin_words) - allowed)}"


def test_plural_forms(cats):
    for lang in LANGS:
        for key, value in cats[lang].items():
            english = cats["en"].get(base_key(key))
            if isinstance(english, dict) or isinstance(value, dict):
                assert isinstance(value, dict), f"{lang}: {key} needs plural forms {sorted(PLURAL_FORMS[lang])}"
                assert set(value) == PLURAL_FORMS[lang], \
                    f"{lang}: {key} has forms {sorted(value)}, wants {sorted(PLURAL_FORMS[lang])}"


def test_placeholders_come_from_english(cats):
    for lang in ("uk", "de"):
        for key, value in cats[lang].items():
            english = cats["en"][base_key(key)]
            allowed = {p for t in texts(english) for p in PLACEHOLDER.findall(str(t))}
            used = {p for t in texts(value) for p in PLACEHOLDER.findall(str(t))}
            assert used <= allowed, f"{lang}: {key} uses {sorted(used - allowed)}, English has {sorted(allowed)}"
    # a plural text shows its number somewhere (Ukrainian "one" may spell it out: "верхню карту")
    for key, value in cats["en"].items():
        if isinstance(value, dict):
            assert any("{count}" in t for t in value.values()), f"plural key {key} never shows {{count}}"


def test_no_key_is_unused(cats, families):
    code = sources()
    literal = set()
    for text in code.values():
        literal |= set(re.findall(r"""["']([a-z][a-z0-9_]*(?:\.[a-z0-9_]+)+)["']""", text))
        for attrs in re.findall(r'data-i18n-attr="([^"]+)"', text):
            literal |= {pair.split(":", 1)[1].strip() for pair in attrs.split(";") if ":" in pair}
    declared = expand(families)
    unused = sorted(k for k in cats["en"] if base_key(k) not in literal and base_key(k) not in declared)
    assert not unused, f"{len(unused)} English keys are used nowhere: {unused[:40]}"
    # and every literal that looks like one of our keys exists
    prefixes = {k.split(".")[0] for k in cats["en"]}
    unknown = sorted(k for k in literal if k.split(".")[0] in prefixes and base_key(k) not in cats["en"]
                     and not k.endswith((".js", ".html", ".json", ".md", ".svg", ".css")))
    assert not unknown, f"keys used in the code but missing from en.json: {unknown}"


#: where the tables and the lobby build what a player reads (icons.js keeps English labels only as
#: the fallback of its icon.* keys)
TABLE_CODE = ("js/zoocracy/*.js", "js/arknova/*.js", "js/tablebar.js", "js/table.js", "js/lobby.js",
              "js/asyncplay.js", "js/chat.js", "js/replay.js", "js/leaderboard.js",
              "js/game.js", "js/gamechrome.js", "js/live.js", "js/seats.js", "js/generic.js", "js/daily.js", "js/dailypage.js",
              "js/exits.js", "js/nextgame.js", "js/vacation.js", "js/seeks.js", "js/gametools.js")
_LITERAL = re.compile(r'"((?:[^"\\\n]|\\.)*)"|`((?:[^`\\]|\\.)*)`')
#: English prose: "Goal track", "Your move", "food markers per enclosure", "seats of the coalition"
_PROSE = re.compile(r"\b[A-Z][a-z]+(?: [a-z]+)+\b|\b[a-z]{2,} (?:the|a|of|to|in|for|is|are|has|your|you|seats?|food|round)\b")


def english_literals(code: str) -> list[str]:
    """String literals of a script that read as English prose (comments and selectors aside)."""
    code = re.sub(r"/\*.*?\*/", "", code, flags=re.S)
    code = re.sub(r"(?m)^\s*//.*$", "", code)
    found = []
    for m in _LITERAL.finditer(code):
        text = re.sub(r"\$\{[^}]*\}", "n", m.group(1) if m.group(1) is not None else m.group(2))
        if text.startswith((".", "#")) or "[" in text or re.fullmatch(r"[MLAZHVCmlazhvc0-9 .,n-]+", text):
            continue  # selectors, SVG paths
        if _PROSE.search(text):
            found.append(text)
    return found


def test_the_tables_say_nothing_in_english_of_their_own():
    """Every sentence, label and tooltip of the tables and the lobby comes from the catalogues
    (t("…")), none is an English literal in the code (the Zoocracy table included)."""
    assert english_literals('h("h3", "Goal track"); x(`Round ${n} of ${m}`); /* "Not this" */ t("zc.log.round")') \
        == ["Goal track", "Round n of n"]
    files = sorted({p for pattern in TABLE_CODE for p in STATIC.glob(pattern)})
    assert any("zoocracy" in p.parts for p in files)
    left = {str(p.relative_to(STATIC)): english_literals(p.read_text(encoding="utf-8")) for p in files}
    left = {k: v for k, v in left.items() if v}
    assert not left, f"English text in the code instead of the catalogues: {left}"


def test_runtime_keys_are_declared(families):
    starts = [pattern.split("{}")[0] for pattern in families]
    found = set()
    for text in sources().values():
        found |= set(re.findall(r"\b(?:t|tv|tOr|has)\(`([a-z][a-z0-9_.]*)\$\{", text))
    assert found, "no run-time keys found: the scan is broken"
    undeclared = sorted(p for p in found if not any(s.startswith(p) or p.startswith(s) for s in starts))
    assert not undeclared, f"run-time keys with these prefixes are not declared in dynamic.json: {undeclared}"


def test_dynamic_families_follow_the_game_data(cats, families):
    from app.daily.kinds import KINDS
    from engine.arknova.game import HANDLERS
    from engine.arknova.tables import T
    from engine.bots import bot_kinds

    missing = sorted(k for k in expand(families) if k not in cats["en"])
    assert not missing, f"declared keys missing from en.json: {missing}"
    icons = re.findall(r"^  ([a-z]+): \{ label:", (STATIC / "js" / "icons.js").read_text(), re.M)
    data = ROOT / "engine" / "arknova" / "data"
    buildings = json.loads((data / "buildings.json").read_text())
    expect = {
        "ability.{}.name": set(keywords.ABILITY_KEYWORDS) | set(keywords.SOLO_KEYWORDS),
        "action.{}": set(keywords.ACTIONS),
        "icon.{}": set(icons),
        "gain.{}": set(keywords.GAIN_KEYS) | {"pick_card"},
        "kind.{}": set(keywords.BUILDING_KINDS),
        "counter.buildings.{}": set(keywords.BUILDING_KINDS),
        "trigger.build_{}": set(keywords.BUILDING_KINDS),
        "project.distinct.{}": set(keywords.DISTINCT_GROUPS),
        "counter.{}": set(keywords.COUNTERS) - {"icon", "animals_min_size", "animals_max_size", "buildings"},
        "game.{}.title": set(engine.game_names()),
        "bot.{}": set(bot_kinds()),
        "university.{}": set(T.association.universities),
        "task.{}": set(T.association.tasks),
        "assoc.task.{}": set(T.association.tasks),
        "map.{}.name": {p.stem for p in (data / "maps").glob("*.json")},
        "log.building.{}": {b["id"] for b in buildings if b["kind"] != "enclosure"},
        "daily.kind.{}": {k.name for k in KINDS},
        "daily.kind.{}.help": {k.name for k in KINDS},
    }
    for pattern, values in expect.items():
        assert set(families[pattern]) == values, f"dynamic.json {pattern}: {sorted(set(families[pattern]) ^ values)}"
    assert set(HANDLERS) <= set(families["doing.{}"]), sorted(set(HANDLERS) - set(families["doing.{}"]))
    ids = {b["id"] for b in buildings}
    for c in json.loads((data / "cards" / "sponsors.json").read_text()):
        if c.get("building"):
            ids.add(c["building"]["id"])
    assert set(families["building.{}"]) == ids
    # game options: label, help, and every choice of a choice option
    options = set()
    for name in engine.game_names():
        for o in engine.get_game(name).describe()["options"]:
            options |= {f"{name}.{o['name']}", f"{name}.{o['name']}.help"}
            if o["type"] != "bool":
                options |= {f"{name}.{o['name']}.{c}" for c in o["choices"]}
    assert set(families["option.{}"]) == options
    zoo = ROOT / "engine" / "zoocracy" / "data"
    for kind, file in (("card", "cards"), ("event", "events")):
        ids = [c["id"] for c in json.loads((zoo / f"{file}.json").read_text())]
        assert families[f"zoocracy.{kind}.{{}}.name"] == ids and families[f"zoocracy.{kind}.{{}}.text"] == ids


def test_english_data_texts_are_the_datas(cats):
    """The English catalogue repeats names and texts of the data: they must not drift apart."""
    en = cats["en"]
    data = ROOT / "engine" / "arknova" / "data"
    for b in json.loads((data / "buildings.json").read_text()):
        assert en[f"building.{b['id']}"] == b["name"]
    for c in json.loads((data / "cards" / "sponsors.json").read_text()):
        if c.get("building"):
            assert en[f"building.{c['building']['id']}"] == c["building"]["name"]
    for p in (data / "maps").glob("*.json"):
        m = json.loads(p.read_text())
        assert en[f"map.{m['id']}.name"] == m["name"] and en[f"map.{m['id']}.description"] == m["description"]
    zoo = ROOT / "engine" / "zoocracy" / "data"
    for kind, file in (("card", "cards"), ("event", "events")):
        for c in json.loads((zoo / f"{file}.json").read_text()):
            assert en[f"zoocracy.{kind}.{c['id']}.name"] == c["name"]
            assert en[f"zoocracy.{kind}.{c['id']}.text"] == c["text"]
    for e in json.loads((zoo / "enclosures.json").read_text()):
        assert en[f"zoocracy.enclosure.{e['id']}"] == e["name"]
    for name in engine.game_names():
        d = engine.get_game(name).describe()
        assert en[f"game.{name}.title"] == d["title"]
        for o in d["options"]:
            assert en[f"option.{name}.{o['name']}.help"] == o["description"]


# --------------------------------------------------------------------------- card data
def card_ids() -> list[str]:
    ids = []
    for f in sorted((ROOT / "engine" / "arknova" / "data" / "cards").glob("*.json")):
        ids += [c["id"] for c in json.loads(f.read_text())]
    return ids


@pytest.mark.parametrize("lang", ["uk", "de"])
def test_every_card_has_a_name(lang):
    tr = json.loads((ROOT / "engine" / "arknova" / "data" / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    ids = card_ids()
    names = tr["cards"]
    assert sorted(names) == sorted(ids), f"{lang}: {sorted(set(ids) ^ set(names))}"
    assert all(isinstance(v, str) and v.strip() for v in names.values())
    english = {}
    for f in (ROOT / "engine" / "arknova" / "data" / "cards").glob("*.json"):
        english |= {c["id"]: c for c in json.loads(f.read_text())}
    same = [cid for cid in ids if names[cid] == english[cid]["name"]]
    assert len(same) < 25, f"{lang}: {len(same)} names are the English ones: {same}"
    with_text = sorted(cid for cid, c in english.items() if c.get("text"))
    assert sorted(tr["texts"]) == with_text
    if lang == "uk":
        assert all(re.search("[а-яіїєґ]", n, re.I) for n in names.values())
    # the game serves them: app.i18n.data_translations feeds the catalog
    assert i18n.data_translations("arknova")[lang]["cards"] == names


def _render(template, params: dict) -> str:
    if isinstance(template, dict):
        template = template["one" if params.get("count") == 1 else "other"]
    return PLACEHOLDER.sub(lambda m: str(params[m.group(1)]), template)


def _ability_params(keyword: str, value) -> dict:
    """What static/js/arknova/cards.js abilityParams() passes (icons: their English label)."""
    if isinstance(value, dict):
        if keyword == "boost":
            return {"action": value["action"].capitalize(), "strength": value["strength"]}
        if keyword == "sell":
            return {"count": value["max"], "money": value["money"]}
        if keyword == "pouch":
            return {"count": value["max"], "appeal": value["appeal"]}
    if isinstance(value, str):
        return {"icon": value}
    if isinstance(value, int):
        return {"count": value}
    return {}


def test_english_ability_lines_say_what_the_engine_says(cats):
    en = cats["en"]
    seen = set()
    for f in ("animals", "sponsors"):
        for c in json.loads((ROOT / "engine" / "arknova" / "data" / "cards" / f"{f}.json").read_text()):
            for ab in c.get("abilities", []) + c.get("effects", []) + c.get("solo", []):
                kw, value = ab["keyword"], ab["value"]
                key = f"ability.pilfering.text_{value}" if kw == "pilfering" else f"ability.{kw}.text"
                got = _render(en[key], _ability_params(kw, value))
                assert got.lower() == keywords.describe(kw, value).lower(), (c["id"], got)
                seen.add(kw)
    assert len(seen) > 20


# --------------------------------------------------------------------------- server texts
def test_negotiate():
    assert i18n.negotiate("uk-UA,uk;q=0.9,en-US;q=0.8,en;q=0.7") == "uk"
    assert i18n.negotiate("de-AT") == "de"
    assert i18n.negotiate("fr-FR,fr;q=0.9,de;q=0.5,uk;q=0.4") == "de"
    assert i18n.negotiate("en;q=0.9,uk;q=1") == "uk"
    assert i18n.negotiate("ru,*;q=0.1") == "en"
    assert i18n.negotiate("uk;q=0, de;q=oops, en") == "en"
    assert i18n.negotiate("") == "en" and i18n.negotiate(None) == "en"


def locale(lang: str) -> dict:
    return i18n.catalogue(lang)


def test_locales_have_the_same_keys_and_placeholders():
    en = locale("en")
    for lang in ("uk", "de"):
        other = locale(lang)
        assert set(other) == set(en), f"{lang}: {sorted(set(other) ^ set(en))}"
        for key, text in other.items():
            assert set(PLACEHOLDER.findall(text)) <= set(PLACEHOLDER.findall(en[key])), (lang, key)
            assert text != en[key], f"{lang}: {key} is not translated"


def raised_codes() -> set[str]:
    """Every error code the app and the engines raise or send (found in their source)."""
    patterns = [
        r'ApiError\(\s*\d+,\s*"(\w+)"', r'(?:Refusal|InvalidInput|BadLink)\(\s*"(\w+)"',
        r'IllegalAction\(\s*"(\w+)"', r'BadSetup\(\s*"(\w+)"',
        r'\b_error\(\s*"(\w+)"', r'_reply\(\s*send,\s*\d+,\s*"(\w+)"', r'error_response\(\s*\w+,\s*"(\w+)"',
        r'super\(\)\.__init__\(\s*\d+,\s*"(\w+)"',
        r'super\(\)\.__init__\(\s*"(\w+)"',
    ]
    codes: set[str] = set()
    for folder in ("app", "engine"):
        for p in (ROOT / folder).rglob("*.py"):
            text = p.read_text(encoding="utf-8")
            for pat in patterns:
                codes |= set(re.findall(pat, text))
    codes |= set(errors._HTTP_CODES.values()) | {"http_error", "not_found"}
    codes.discard("not_enough_money")  # a docstring example
    return codes


def test_every_error_code_has_a_sentence_in_every_language():
    codes = raised_codes()
    assert {"bad_credentials", "seat_taken", "rate_limited", "illegal_action", "tie"} <= codes
    for lang in LANGS:
        missing = sorted(c for c in codes if c not in locale(lang))
        assert not missing, f"app/locales/{lang}.json lacks {missing}"


def test_every_english_sentence_translates():
    """Each English template, filled with sample values, comes back in each language with the
    same values (the exact variant is found, not only the code's general sentence)."""
    en = locale("en")
    for key, template in en.items():
        code = key.split(".")[0]
        params = {name: f"V{i}" for i, name in enumerate(PLACEHOLDER.findall(template))}
        message = i18n.fill(template, params)
        assert i18n.translate_error(code, message, "en") == message
        for lang in ("uk", "de"):
            want = i18n.fill(locale(lang)[key], params)
            assert i18n.translate_error(code, message, lang) == want, (lang, key)


def test_translate_error_examples():
    te = i18n.translate_error
    assert te("seat_taken", "Seat 3 is taken.", "uk-UA,uk;q=0.9") == "Місце 3 зайняте."
    assert te("seat_taken", "Seat 3 is taken.", "de") == "Platz 3 ist besetzt."
    assert te("bad_credentials", "Wrong username or password.", "de-DE") == "Benutzername oder Passwort ist falsch."
    assert te("not_found", "No such game.", "uk") == "Такої гри немає."
    assert te("rate_limited", "Too many requests; try again in 7 s.", "de") == "Zu viele Anfragen; versuch es in 7 s noch einmal."
    # a message no template knows: the code's general sentence; an unknown code: as it was
    assert te("bad_options", "Something new and English.", "uk") == locale("uk")["bad_options"]
    assert te("no_such_code", "Left as it is.", "uk") == "Left as it is."
    assert te("seat_taken", "Seat 3 is taken.", "fr") == "Seat 3 is taken."


async def test_the_api_answers_in_the_callers_language():
    app = FastAPI()
    errors.install(app)

    @app.get("/boom")
    async def boom():
        raise errors.ApiError(409, "seat_taken", "Seat 2 is taken.", seat=2)

    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
        for header, message in ((None, "Seat 2 is taken."), ("uk", "Місце 2 зайняте."),
                                ("de-CH, de;q=0.9", "Platz 2 ist besetzt."), ("fr", "Seat 2 is taken.")):
            res = await client.get("/boom", headers={"Accept-Language": header} if header else {})
            assert res.status_code == 409
            body = res.json()["error"]
            assert body == {"code": "seat_taken", "message": message, "seat": 2}


# --------------------------------------------------------------------------- rules pages
@pytest.mark.parametrize("lang", ["uk", "de"])
def test_every_rules_page_is_translated(lang):
    """docs/rules/<game>.<lang>.md beside every English page, with the same sections and tables
    (static/js/rules.js picks the file of the page's language)."""
    pages = sorted(p for p in (ROOT / "docs" / "rules").glob("*.md") if p.stem.count(".") == 0)
    assert pages
    for page in pages:
        other = page.with_name(f"{page.stem}.{lang}.md")
        assert other.is_file(), f"{other.name} is missing"
        en, tr = page.read_text(encoding="utf-8"), other.read_text(encoding="utf-8")
        heads = lambda text: [len(m) for m in re.findall(r"^(#+) ", text, re.M)]  # noqa: E731
        assert heads(tr) == heads(en), f"{other.name}: the sections differ from {page.name}"
        rows = lambda text: len(re.findall(r"^\|", text, re.M))  # noqa: E731
        assert rows(tr) == rows(en), f"{other.name}: the tables differ from {page.name}"
        if lang == "uk":
            assert len(re.findall("[а-яіїєґ]", tr, re.I)) > len(tr) // 3
