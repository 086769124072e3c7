"""The structure of the code: no import circles, no private names imported across modules.

(The layer rules are import-linter contracts in pyproject.toml, checked by ``lint-imports``;
module sizes, HTTP statuses only at the edge, SQLAlchemy only in storage: tests/test_layers.py.)
"""

from __future__ import annotations

import ast
import fnmatch
import tomllib
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parent.parent


def _cycles(graph) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.find_modules_directly_imported_by(v):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    for module in sorted(graph.modules):
        if module not in index:
            visit(module)
    return out


@pytest.mark.parametrize("package", ["app", "engine"])
def test_no_import_circles(package):
    # imports inside functions and under ``if TYPE_CHECKING:`` count too: none may hold a
    # circle together
    graph = grimp.build_graph(package, exclude_type_checking_imports=False)
    assert _cycles(graph) == []


def test_every_app_module_is_in_a_layer():
    """Each module and package right under app/ is named in the layers contract of
    pyproject.toml (a module outside the layers is checked by no arrow)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    assert config["exclude_type_checking_imports"] is False
    layered = {name.strip() for contract in config["contracts"]
               if contract["type"] == "layers" and "app.cli" in contract["layers"]
               for layer in contract["layers"] for name in layer.split("|")}
    modules = {f"app.{p.stem}" for p in (ROOT / "app").glob("*.py") if p.stem != "__init__"}
    modules |= {f"app.{p.parent.name}" for p in (ROOT / "app").glob("*/__init__.py")}
    assert sorted(modules - layered) == []


def _private_imports(root: Path) -> list[str]:
    """``from project.module import _name`` across modules (an alias of a public name, like
    ``import rng as _rng``, is fine: the imported name is public)."""
    out = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            if not isinstance(node, ast.ImportFrom):
                continue
            ours = node.level > 0 or (node.module or "").split(".")[0] in ("app", "engine")
            if not ours:
                continue
            for alias in node.names:
                if alias.name.startswith("_") and not alias.name.startswith("__"):
                    out.append(f"{path.relative_to(ROOT)}:{node.lineno} imports {alias.name}")
    return out


def test_no_private_names_imported_across_modules():
    assert _private_imports(ROOT / "app") + _private_imports(ROOT / "engine") == []


#: the engine calls that decide what a viewer receives: only app/redaction.py makes them
REDACTING_CALLS = ("private_view", "public_view", "events_for")


def _redacting_calls(root: Path) -> list[str]:
    """``path:line name`` for every use of a redacting engine call under ``root`` (but in
    ``root/redaction.py``, the one module allowed to make them)."""
    out = []
    for path in sorted(root.rglob("*.py")):
        if path == root / "redaction.py":
            continue
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            name = {ast.Attribute: lambda n: n.attr, ast.Name: lambda n: n.id,
                    ast.alias: lambda n: n.name}.get(type(node), lambda n: None)(node)
            if name in REDACTING_CALLS:
                out.append(f"{path.relative_to(root)}:{node.lineno} {name}")
    return out


def test_hidden_information_is_decided_in_one_module():
    # Frame, the detail, the log, history and export all go through app/redaction.py
    assert _redacting_calls(ROOT / "app") == []


def test_a_stray_redacting_call_is_found(tmp_path):
    (tmp_path / "redaction.py").write_text("def f(g, s):\n    return g.private_view(s, 0)\n")
    (tmp_path / "stray.py").write_text(
        "from engine.core import events_for\n\ndef f(g, s):\n    return g.public_view(s)\n")
    assert _redacting_calls(tmp_path) == ["stray.py:1 events_for", "stray.py:4 public_view"]


# ------------------------------------------------------------------ one owner per table

#: a table's model class -> the modules (paths under app/, ``*`` patterns) that may use it in
#: code: its schema module and its owner's store (and the owner's domain, for the worker or
#: the rows' handling); every other module asks the owner's store (issue #34.4;
#: docs/codehealth.md). A module may still name a row's class in an annotation (the game
#: domain, the ratings and the analyses type the rows the game store hands them).
TABLE_OWNERS: dict[str, tuple[str, ...]] = {
    "User": ("models.py", "auth_store.py"),
    "Token": ("models.py", "auth_store.py"),
    **{name: ("models.py", "games/store*.py")
       for name in ("Game", "Seat", "ActionRecord", "Snapshot")},
    "ChatMessage": ("models.py", "chat_store.py", "chat.py"),
    "Rating": ("models.py", "ratings_store.py"),
    "RatingHistory": ("models.py", "ratings_store.py"),
    "RateBucket": ("models.py", "ratelimit.py"),
    "DailyAttempt": ("models.py", "daily/*"),
    "Analysis": ("models.py", "analysis/*"),
    "Vacation": ("models.py", "vacations_store.py", "vacations.py"),
    "Follow": ("models.py", "people_store.py"),
    "Seek": ("models.py", "seeks/*"),
    "Webhook": ("models_delivery.py", "webhooks_store.py", "webhooks.py"),
    "WebhookDelivery": ("models_delivery.py", "webhooks_store.py", "webhooks.py"),
    "ServerKey": ("models_delivery.py", "serverkeys.py"),
    "PushSubscription": ("models_delivery.py", "push_store.py", "push.py"),
    "PushDelivery": ("models_delivery.py", "push_store.py", "push.py"),
    "NotificationPrefs": ("models_delivery.py", "prefs_store.py", "notify/*"),
    "NoticeLog": ("models_delivery.py", "notify/*"),
    "EmailJob": ("models_delivery.py", "notify/*"),
    # the outbox's rows are added through outbox_store.add/notice, in the caller's session
    "OutboxEvent": ("models_delivery.py", "outbox_store.py", "outbox.py"),
}

#: ``(module, model class)`` reads of another owner's table that remain, with the reason; the
#: list may only shrink (test_the_foreign_table_allowlist_only_shrinks)
FOREIGN_TABLES_ALLOWED: set[tuple[str, str]] = set()

#: the one module that locks a user's row (``auth_store.lock_user``)
USER_LOCK_OWNER = "auth_store.py"


def _owned_in(rel: str, owners: tuple[str, ...]) -> bool:
    return any(fnmatch.fnmatchcase(rel, o) for o in owners)


def _annotation_nodes(tree: ast.AST) -> set[int]:
    """``id()`` of every node inside an annotation (a parameter's, a return's, a variable's)."""
    roots: list[ast.AST] = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            args = node.args
            roots += [a.annotation for a in (*args.posonlyargs, *args.args, *args.kwonlyargs,
                                             args.vararg, args.kwarg)
                      if a is not None and a.annotation is not None]
            if node.returns is not None:
                roots.append(node.returns)
        elif isinstance(node, ast.AnnAssign):
            roots.append(node.annotation)
    return {id(n) for root in roots for n in ast.walk(root)}


def foreign_table_uses(root: Path) -> list[str]:
    """``path:line name`` of each use of an owned table's model class outside its owners, and
    of each ``...with_for_update()`` on a query naming ``User`` outside auth_store.py. A use:
    the class in code (a bare name imported from a ``models`` module, engine.core's ``Game``
    being another class; or an attribute ``models.Game``), and its import unless the module
    names it only in annotations."""
    out = []
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        tree = ast.parse(path.read_text(), str(path))
        typed = _annotation_nodes(tree)
        imported: dict[str, list[int]] = {}   # model class -> lines importing it from models
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[-1] in (
                    "models", "models_delivery"):
                for a in node.names:
                    imported.setdefault(a.name, []).append(node.lineno)
        used: dict[str, list[int]] = {}       # model class -> lines using it in code
        typing: set[str] = set()              # model classes named in an annotation
        for node in ast.walk(tree):
            name = (node.id if isinstance(node, ast.Name) and node.id in imported else
                    node.attr if isinstance(node, ast.Attribute) else None)
            if name in TABLE_OWNERS:
                if id(node) in typed:
                    typing.add(name)
                else:
                    used.setdefault(name, []).append(node.lineno)
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "with_for_update" and rel != USER_LOCK_OWNER
                    and any(isinstance(n, ast.Name) and n.id == "User"
                            for n in ast.walk(node.func.value))):
                out.append(f"{rel}:{node.lineno} User locked")
        for name in TABLE_OWNERS:
            if _owned_in(rel, TABLE_OWNERS[name]):
                continue
            lines = used.get(name, [])
            if name in imported and (lines or name not in typing):
                lines = lines + imported[name]
            out += [f"{rel}:{ln} {name}" for ln in sorted(set(lines))]
    return out


def test_each_table_is_written_and_read_by_its_owner():
    found = foreign_table_uses(ROOT / "app")
    assert [u for u in found
            if (u.split(":")[0], u.split()[-1]) not in FOREIGN_TABLES_ALLOWED] == []


def test_the_foreign_table_allowlist_only_shrinks():
    """A listed read that is gone leaves the list (so it cannot come back unnoticed)."""
    found = {(u.split(":")[0], u.split()[-1]) for u in foreign_table_uses(ROOT / "app")}
    assert sorted(FOREIGN_TABLES_ALLOWED - found) == []


def test_a_table_touched_outside_its_owner_is_found(tmp_path):
    (tmp_path / "outbox_store.py").write_text(
        "from .models_delivery import OutboxEvent\n\ndef add(s):\n    s.add(OutboxEvent())\n")
    (tmp_path / "chat_store.py").write_text(
        "from . import models_delivery as m\n\ndef f(s):\n"
        "    s.add(m.OutboxEvent(kind='notice'))\n")
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "store.py").write_text(
        "from ..models import User, Vacation\n\nasync def f(s, select):\n"
        "    await s.execute(select(User.id).where(User.id == 1).with_for_update())\n")
    (tmp_path / "games" / "store_reads.py").write_text(
        "from ..models import Game, Seat\n\ndef f(select):\n    return select(Game, Seat)\n")
    (tmp_path / "auth_store.py").write_text(
        "async def lock(s, select, User):\n"
        "    await s.execute(select(User.id).with_for_update())\n")
    # a row's class in annotations only, and engine.core's Game, are no reads of a table
    (tmp_path / "ratings.py").write_text(
        "from engine.core import Game as Rules\nfrom .models import Game, Seat\n\n"
        "def f(game: Game, seats: list[Seat]) -> Game:\n    x: Seat = seats[0]\n"
        "    return game\n")
    (tmp_path / "redaction.py").write_text(
        "from engine.core import Game\n\ndef f(g):\n    return Game, g\n")
    (tmp_path / "daily").mkdir()
    (tmp_path / "daily" / "store.py").write_text(
        "from ..models import DailyAttempt, User\n\ndef f(select, a: User):\n"
        "    return select(DailyAttempt.id, User.username)\n")
    assert foreign_table_uses(tmp_path) == [
        "chat_store.py:4 OutboxEvent",
        "daily/store.py:1 User", "daily/store.py:4 User",
        "games/store.py:4 User locked",
        "games/store.py:1 User", "games/store.py:4 User", "games/store.py:1 Vacation"]
