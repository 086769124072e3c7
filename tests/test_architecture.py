"""The structure of the code: no import circles, no private names imported across modules.

(The layer rules are import-linter contracts in pyproject.toml, checked by ``lint-imports``.)
"""

from __future__ import annotations

import ast
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


@pytest.mark.parametrize("package", ["app", "engine.core", "engine.bots", "engine.zoocracy"])
def test_no_import_circles(package):
    # (engine.arknova still has one, held together by imports inside functions: issue #17)
    graph = grimp.build_graph(package.split(".")[0], exclude_type_checking_imports=True)
    cycles = [c for c in _cycles(graph) if any(m == package or m.startswith(package + ".")
                                               for m in c)]
    assert cycles == []
