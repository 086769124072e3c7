"""The browser client's structure (static/js), read as text (no browser): one class named
``DecisionBar`` per game, the page state handed to the modules instead of imported from a page,
``window.menagerie`` (the automation surface the browser tests read) written only by hooks.js.

(The 400-line limit and mount.js naming no game are in tests/test_layers.py.)
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STATIC = ROOT / "static"

_IMPORT = re.compile(r"""\bimport\s+([^"'`;]*?)\s*from\s*["']([^"']+)["']""", re.S)
_PAGE_SCRIPT = re.compile(r"""<script[^>]*type=["']module["'][^>]*src=["']([^"']+\.js)["']""")


def _modules(static: Path) -> dict[str, str]:
    """``{path under static/js: source}`` of every client module."""
    js = static / "js"
    return {p.relative_to(js).as_posix(): p.read_text(encoding="utf-8") for p in sorted(js.rglob("*.js"))}


def page_entries(static: Path) -> set[str]:
    """The modules a page loads itself (``<script type="module" src="js/…">``): game.js, replay.js, lobby.js…"""
    out = set()
    for html in static.glob("*.html"):
        for src in _PAGE_SCRIPT.findall(html.read_text(encoding="utf-8")):
            if src.startswith("js/"):
                out.add(src[3:])
    return out


def _resolve(module: str, spec: str) -> str:
    parts = module.split("/")[:-1]
    for piece in spec.split("/"):
        if piece == "..":
            parts = parts[:-1]
        elif piece not in (".", ""):
            parts.append(piece)
    return "/".join(parts)


# ------------------------------------------------------------------ the page state


def state_owners(static: Path) -> set[str]:
    """The page entries that hold a page state (a module-level ``st``): game.js, replay.js."""
    modules = _modules(static)
    return {e for e in page_entries(static) if re.search(r"^(?:const|let|var)\s+st\b", modules.get(e, ""), re.M)}


def page_state_imports(static: Path) -> list[str]:
    """Imports that reach a page's state other than through an argument: a module importing a
    page entry that holds one (game.js exported its ``st``), or a name ``st`` imported from anywhere."""
    owners = state_owners(static)
    modules = _modules(static)
    out = []
    for rel, src in modules.items():
        for names, spec in _IMPORT.findall(src):
            target = _resolve(rel, spec)
            if target in owners:
                out.append(f"{rel} imports the page {target}")
            elif re.search(r"\bst\b", names):
                out.append(f"{rel} imports st from {target}")
    for owner in sorted(owners):
        if re.search(r"^\s*export\b", modules[owner], re.M):
            out.append(f"the page {owner} exports (its state goes to the modules as an argument)")
    return out


def test_no_module_imports_the_page_state():
    assert state_owners(STATIC) == {"game.js", "replay.js"}
    assert page_state_imports(STATIC) == []


def test_an_imported_page_state_is_found(tmp_path):
    (tmp_path / "js" / "arknova").mkdir(parents=True)
    (tmp_path / "game.html").write_text('<script type="module" src="js/game.js"></script>')
    (tmp_path / "js" / "game.js").write_text("const st = {};\nexport { st };\n")
    (tmp_path / "js" / "arknova" / "ui.js").write_text('import {\n  st,\n  send } from "../game.js";\n')
    (tmp_path / "js" / "state.js").write_text('import { st as state } from "./store.js";\n')
    assert page_state_imports(tmp_path) == [
        "arknova/ui.js imports the page game.js",
        "state.js imports st from store.js",
        "the page game.js exports (its state goes to the modules as an argument)",
    ]


# ------------------------------------------------------------------ one DecisionBar per game


def decision_bars(static: Path) -> list[str]:
    """Where a class named DecisionBar is wrong: outside a game's folder (static/js/<game>/), or a
    second one in the same game. The bar every game shares is TableBar (static/js/tablebar.js)."""
    seen: dict[str, str] = {}
    out = []
    for rel, src in _modules(static).items():
        for _ in re.finditer(r"\bclass\s+DecisionBar\b", src):
            game = rel.split("/")[0] if "/" in rel else None
            if game is None:
                out.append(f"{rel}: a DecisionBar outside a game's folder")
            elif game in seen:
                out.append(f"{rel}: a second DecisionBar for {game} (the first in {seen[game]})")
            else:
                seen[game] = rel
    return out


def test_one_decision_bar_per_game():
    assert decision_bars(STATIC) == []
    games = {p.name for p in (STATIC / "js").iterdir() if p.is_dir() and (p / "decision.js").exists()}
    assert games >= {"arknova", "zoocracy"}
    for game in games:
        src = (STATIC / "js" / game / "decision.js").read_text(encoding="utf-8")
        assert re.search(r"export class DecisionBar extends TableBar\b", src), game


def test_a_stray_decision_bar_is_found(tmp_path):
    (tmp_path / "js" / "arknova").mkdir(parents=True)
    (tmp_path / "js" / "decisionbar.js").write_text("export class DecisionBar {}\n")
    (tmp_path / "js" / "arknova" / "decision.js").write_text("export class DecisionBar extends TableBar {}\n")
    (tmp_path / "js" / "arknova" / "other.js").write_text("class DecisionBar {}\n")
    assert decision_bars(tmp_path) == [
        "arknova/other.js: a second DecisionBar for arknova (the first in arknova/decision.js)",
        "decisionbar.js: a DecisionBar outside a game's folder",
    ]


# ------------------------------------------------------------------ window.menagerie: hooks.js only

HOOKS = "hooks.js"
_LINE_COMMENT = re.compile(r"(^|\s)//.*$", re.M)
_BLOCK_COMMENT = re.compile(r"/\*.*?\*/", re.S)
_GLOBAL = r"\b(?:window|globalThis|self)"
_MENAGERIE = re.compile(
    rf"""{_GLOBAL}\s*(?:\.\s*menagerie\b|\[\s*["'`]menagerie["'`]\s*\])"""
    rf"""|\bdefineProperty\(\s*{_GLOBAL}\s*,\s*["'`]menagerie["'`]"""
)
_EXPOSE = re.compile(r"\bexpose\(\s*\{(.*?)\}\s*\)\s*;", re.S)


def _code(src: str) -> str:
    return _LINE_COMMENT.sub(r"\1", _BLOCK_COMMENT.sub("", src))


def menagerie_writers(static: Path) -> list[str]:
    """Modules other than hooks.js that touch ``window.menagerie`` in their code (comments aside),
    modules other than the page entries that call expose(), and pages that call it more than once."""
    out = []
    entries = page_entries(static)
    for rel, src in _modules(static).items():
        code = _code(src)
        if rel != HOOKS and _MENAGERIE.search(code):
            out.append(f"{rel} touches window.menagerie (only {HOOKS} does: call expose())")
        calls = len(_EXPOSE.findall(code))
        if calls and rel not in entries:
            out.append(f"{rel} exposes hooks but is no page entry")
        if calls > 1:
            out.append(f"{rel} calls expose() {calls} times (once per page)")
    return out


def exposed_names(static: Path) -> set[str]:
    """The names the pages' expose({...}) calls publish (``name: value``, ``name``, ``get name()``)."""
    out = set()
    for src in _modules(static).values():
        for body in _EXPOSE.findall(_code(src)):
            body = re.sub(r"\{[^{}]*\}", "", body)  # a getter's body
            out |= set(re.findall(r"(?:^|,)\s*(?:get\s+)?([A-Za-z_$][\w$]*)", body))
    return out


def names_the_browser_tests_read(tests: Path) -> set[str]:
    """``window.menagerie.X`` and ``m.X`` after ``m = window.menagerie`` (in the same script) in tests/e2e."""
    out = set()
    for path in tests.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        out |= set(re.findall(r"window\.menagerie\??\.(\w+)", text))
        for m in re.finditer(r"(?:const|let|var)\s+(\w+)\s*=\s*window\.menagerie\b(?!\.)", text):
            end = text.find('"""', m.end())  # the script the alias is in
            script = text[m.end() : end if end > 0 else m.end() + 400]
            out |= set(re.findall(rf"\b{m.group(1)}\??\.(\w+)", script))
    return out


def test_only_the_hooks_module_writes_window_menagerie():
    assert menagerie_writers(STATIC) == []
    assert _MENAGERIE.search(_code((STATIC / "js" / HOOKS).read_text(encoding="utf-8")))


def test_every_hook_the_browser_tests_read_is_exposed():
    read = names_the_browser_tests_read(ROOT / "tests" / "e2e")
    assert read >= {"state", "ui", "live", "feed", "replay", "resync"}
    exposed = exposed_names(STATIC)
    assert exposed >= {"state", "ui", "live", "send", "endTurn", "resync", "refreshLegal", "chat",
                       "feed", "replay", "goTo", "analysis", "refresh"}
    assert read - exposed == set()


def test_a_stray_menagerie_write_is_found(tmp_path):
    js = tmp_path / "js"
    js.mkdir()
    (tmp_path / "game.html").write_text('<script type="module" src="js/game.js"></script>')
    (js / HOOKS).write_text("Object.defineProperty(window, 'menagerie', {});\n")
    (js / "game.js").write_text("// window.menagerie = {} (a comment)\nexpose({ a, get ui() { return 1; } });\n"
                                "expose({ b: 2 });\nwindow.menagerie.ui = ui;\n")
    (js / "lobby.js").write_text('window["menagerie"] = { feed };\nexpose({ feed });\n')
    (js / "chat.js").write_text("Object.defineProperty(globalThis, `menagerie`, { value: 1 });\n")
    assert menagerie_writers(tmp_path) == [
        "chat.js touches window.menagerie (only hooks.js does: call expose())",
        "game.js touches window.menagerie (only hooks.js does: call expose())",
        "game.js calls expose() 2 times (once per page)",
        "lobby.js touches window.menagerie (only hooks.js does: call expose())",
        "lobby.js exposes hooks but is no page entry",
    ]
    assert exposed_names(tmp_path) == {"a", "ui", "b", "feed"}
