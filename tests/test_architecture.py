"""The structure of the code: no import circles, no private names imported across modules.

(The layer rules are import-linter contracts in pyproject.toml, checked by ``lint-imports``;
module sizes, HTTP statuses only at the edge, SQLAlchemy only in storage: tests/test_layers.py.)
"""

from __future__ import annotations

import ast
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

#: a table's model class -> the modules (paths under app/, a folder ending in "/") that may
#: name it: its schema module and its owner's store (and the owner's domain, for a type or the
#: worker); every other module asks the owner's store (issue #34.4; docs/codehealth.md)
TABLE_OWNERS = {
    # the outbox's rows are added through outbox_store.add/notice, in the caller's session
    "OutboxEvent": ("models_delivery.py", "outbox_store.py", "outbox.py"),
    "NotificationPrefs": ("models_delivery.py", "prefs_store.py", "notify/"),
    "Vacation": ("models.py", "vacations_store.py", "vacations.py"),
}

#: the one module that locks a user's row (``auth_store.lock_user``)
USER_LOCK_OWNER = "auth_store.py"


def _owned_in(rel: str, owners: tuple[str, ...]) -> bool:
    return any(rel == o or (o.endswith("/") and rel.startswith(o)) for o in owners)


def foreign_table_uses(root: Path) -> list[str]:
    """``path:line name`` of each mention of an owned table's model class outside its owners,
    and of each ``...with_for_update()`` on a query naming ``User`` outside auth_store.py."""
    out = []
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            names = ([(node.lineno, node.id)] if isinstance(node, ast.Name) else
                     [(node.lineno, node.attr)] if isinstance(node, ast.Attribute) else
                     [(node.lineno, a.name) for a in node.names]
                     if isinstance(node, ast.ImportFrom) else [])
            for line, name in names:
                if name in TABLE_OWNERS and not _owned_in(rel, TABLE_OWNERS[name]):
                    out.append(f"{rel}:{line} {name}")
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "with_for_update" and rel != USER_LOCK_OWNER
                    and any(isinstance(n, ast.Name) and n.id == "User"
                            for n in ast.walk(node.func.value))):
                out.append(f"{rel}:{node.lineno} User locked")
    return out


def test_each_table_is_written_and_read_by_its_owner():
    assert foreign_table_uses(ROOT / "app") == []


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
    (tmp_path / "auth_store.py").write_text(
        "async def lock(s, select, User):\n"
        "    await s.execute(select(User.id).with_for_update())\n")
    assert foreign_table_uses(tmp_path) == [
        "chat_store.py:4 OutboxEvent", "games/store.py:1 Vacation",
        "games/store.py:4 User locked"]
