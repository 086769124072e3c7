"""Load a script of ``benchmarks/`` or ``scripts/`` as a module for its tests (they are files,
not packages; ``benchmarks/engine.py`` would shadow the engine on ``sys.path``)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]


def load_script(path: str) -> ModuleType:
    """The module of the script at ``path`` (relative to the repository), executed once per call."""
    spec = importlib.util.spec_from_file_location(Path(path).stem, ROOT / path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
