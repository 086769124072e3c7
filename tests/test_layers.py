"""Where things may appear: HTTP statuses only at the edge, SQLAlchemy only in storage, no
module over 400 lines.

(The import arrows between layers are import-linter contracts in pyproject.toml; the rest of
the structure is in tests/test_architecture.py.)
"""

from __future__ import annotations

import ast
from pathlib import Path

from app import errors

ROOT = Path(__file__).resolve().parent.parent
APP = ROOT / "app"

# ------------------------------------------------------------------ refusals: HTTP at the edge

#: the edge: the modules that speak HTTP and WebSocket (routes/ holds the WebSocket gate too)
EDGE = ("routes/", "main.py", "errors.py")


def _in(rel: str, prefixes: tuple[str, ...]) -> bool:
    return any(rel == p or (p.endswith("/") and rel.startswith(p)) for p in prefixes)


def _names(tree: ast.AST) -> list[tuple[int, str]]:
    """``(line, name)`` of every name, attribute and imported name in a module."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            out.append((node.lineno, node.id))
        elif isinstance(node, ast.Attribute):
            out.append((node.lineno, node.attr))
        elif isinstance(node, ast.ImportFrom):
            out += [(node.lineno, alias.name) for alias in node.names]
    return out


def api_error_uses(root: Path) -> list[str]:
    """``path:line`` of each use of ``ApiError`` (the refusal that names its HTTP status)
    outside the edge modules."""
    out = []
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        if _in(rel, EDGE):
            continue
        for line, name in _names(ast.parse(path.read_text(), str(path))):
            if name == "ApiError":
                out.append(f"{rel}:{line}")
    return out


def test_the_domain_refuses_without_http_statuses():
    """Domain and service code raises ``Refusal(code, message, **params)``; only the edge
    knows statuses (``REFUSAL_STATUS``)."""
    assert api_error_uses(APP) == []


def test_a_stray_api_error_is_found(tmp_path):
    (tmp_path / "routes").mkdir()
    (tmp_path / "routes" / "games.py").write_text("from ..errors import ApiError\n")
    (tmp_path / "lobby.py").write_text(
        "from . import errors\n\ndef f():\n    raise errors.ApiError(409, 'x', 'y')\n")
    assert api_error_uses(tmp_path) == ["lobby.py:4"]


def _raised_codes(root: Path) -> dict[str, str]:
    """The literal code of each ``Refusal("code", ...)`` call under ``root`` (plain Refusal:
    its subclasses' statuses do not depend on the code), with one place that raises it."""
    out: dict[str, str] = {}
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id == "Refusal" and node.args
                    and isinstance(node.args[0], ast.Constant)):
                out.setdefault(node.args[0].value, f"{path.relative_to(root)}:{node.lineno}")
    return out


def test_every_refusal_code_has_its_status_at_the_edge():
    """A code missing from the table would answer 422 whatever it means: each code the app
    raises is named there, with its status."""
    codes = _raised_codes(APP)
    assert len(codes) > 80
    missing = {code: where for code, where in codes.items()
               if code not in errors.REFUSAL_STATUS}
    assert missing == {}


# ------------------------------------------------------------------ SQLAlchemy only in storage

#: the storage modules: the schema, the connection, the migrations and the store modules
STORAGE = (
    "db.py", "models.py", "models_delivery.py", "migrate.py",
    "games/store.py", "games/store_exits.py", "games/store_records.py", "games/store_reads.py",
    "games/store_rematch.py", "games/store_invites.py", "games/store_lookups.py",
    "games/store_people.py",
    "daily/store.py", "analysis/store.py", "notify/store.py", "people_store.py", "seeks/store.py", "vacations_store.py",
    "chat_store.py", "ratings_store.py", "push_store.py", "webhooks_store.py",
    "auth_store.py", "prefs_store.py", "outbox_store.py",
    # the edge: tells "the database is away" (503) from a bug (500) by SQLAlchemy's exceptions
    "errors.py",
)

#: modules outside storage that still query tables themselves or catch SQLAlchemy's
#: exceptions: each should read and write through a store module (issue #34.4, one owner per
#: table; docs/codehealth.md has the plan). This list may only SHRINK: remove a module when it
#: stops importing sqlalchemy (the test below fails while a listed module no longer needs it).
SQLALCHEMY_ALLOWED = (
    # infrastructure that owns one table of its own (its module is its store)
    "bus.py", "jobqueue.py", "outbox.py", "ratelimit.py", "serverkeys.py",
)


def sqlalchemy_imports(root: Path) -> dict[str, int]:
    """``{path: line}`` of the first ``sqlalchemy`` import (at any depth, in functions too) of
    each module under ``root``."""
    out: dict[str, int] = {}
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            else:
                continue
            if any(n == "sqlalchemy" or n.startswith("sqlalchemy.") for n in names):
                out.setdefault(path.relative_to(root).as_posix(), node.lineno)
    return out


def test_sqlalchemy_only_in_storage():
    found = sqlalchemy_imports(APP)
    assert {rel: line for rel, line in found.items()
            if not _in(rel, STORAGE) and rel not in SQLALCHEMY_ALLOWED} == {}


def test_the_sqlalchemy_allowlist_only_shrinks():
    """A listed module that no longer imports sqlalchemy leaves the list (so it cannot come
    back unnoticed)."""
    found = sqlalchemy_imports(APP)
    assert sorted(rel for rel in SQLALCHEMY_ALLOWED if rel not in found) == []


def test_a_stray_sqlalchemy_import_is_found(tmp_path):
    (tmp_path / "db.py").write_text("import sqlalchemy\n")
    (tmp_path / "chat.py").write_text("def f():\n    from sqlalchemy.exc import IntegrityError\n")
    (tmp_path / "ok.py").write_text("from .db import x\n")
    assert sqlalchemy_imports(tmp_path) == {"chat.py": 2, "db.py": 1}


# ------------------------------------------------------------------ module size

MAX_LINES = 400

#: modules over the limit that are being split right now (on other branches); this list may
#: only SHRINK: a listed file that is within the limit fails the test below until it leaves.
TOO_LONG_FOR_NOW: tuple[str, ...] = ()


def _sources() -> dict[str, int]:
    files = [p for folder in ("app", "engine", "benchmarks", "scripts")
             for p in (ROOT / folder).rglob("*.py")]
    files += list((ROOT / "static" / "js").rglob("*.js"))
    return {p.relative_to(ROOT).as_posix(): len(p.read_text(encoding="utf-8").splitlines())
            for p in sorted(files)}


def test_no_module_over_400_lines():
    long = {rel: n for rel, n in _sources().items()
            if n > MAX_LINES and rel not in TOO_LONG_FOR_NOW}
    assert long == {}


def test_the_long_module_allowlist_only_shrinks():
    sizes = _sources()
    assert sorted(rel for rel in TOO_LONG_FOR_NOW if sizes.get(rel, 0) <= MAX_LINES) == []


# ------------------------------------------------------------------ games are plugins

#: the generic layers: they find a game through its plugin (engine/core/plugin.py), by name
GENERIC = ("engine/core", "engine/bots", "app")


def game_paths(root: Path) -> list[str]:
    """``path:line`` of each mention of an installed game's package (``engine.arknova``,
    ``engine/arknova``, as the manifest ``engine/games.json`` lists them) in a generic module,
    code, strings, docstrings and comments alike."""
    from engine.core.registry import installed

    packages = [package for _, package in installed()]
    needles = packages + [p.replace(".", "/") for p in packages]
    out = []
    for folder in GENERIC:
        for path in sorted((root / folder).rglob("*.py")):
            for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if any(n in line for n in needles):
                    out.append(f"{path.relative_to(root).as_posix()}:{i}")
    return out


def test_generic_layers_name_no_game_package():
    assert game_paths(ROOT) == []


def test_a_game_package_in_a_generic_layer_is_found(tmp_path):
    for folder in GENERIC:
        (tmp_path / folder).mkdir(parents=True)
    (tmp_path / "engine/bots/x.py").write_text('MOD = "engine.zoocracy.evaluate"\n')
    (tmp_path / "app/y.py").write_text("# see engine/arknova/presentation/labels.py\nOK = 1\n")
    (tmp_path / "engine/core/z.py").write_text('GAME = "arknova"\n')  # a game's name is data
    assert game_paths(tmp_path) == ["engine/bots/x.py:1", "app/y.py:1"]


# ------------------------------------------------------------------ the client: one module per game

JS = ROOT / "static" / "js"


def test_mount_looks_each_game_up_and_names_none():
    """mount.js imports every game's module (static/js/<game>/index.js) and has no branch of its own
    for a game: no game's name appears in it as a string."""
    mount = (JS / "mount.js").read_text(encoding="utf-8")
    games = sorted(p.parent.name for p in JS.glob("*/index.js"))
    assert games == ["arknova", "zoocracy"]
    assert [g for g in games if f'from "./{g}/index.js"' not in mount] == []
    assert [g for g in games if f'"{g}"' in mount or f"'{g}'" in mount] == []


def test_one_toast_module():
    """The toasts of every page come from static/js/toast.js (no page keeps its own copy)."""
    own = sorted(p.relative_to(JS).as_posix() for p in JS.rglob("*.js")
                 if "function toast(" in p.read_text(encoding="utf-8"))
    assert own == ["toast.js"]
