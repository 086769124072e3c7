"""Post-game analysis, its work queue and hints (issue #19): ``service.py`` (requests, reports,
hints), ``worker.py`` (the bounded pool of worker processes fed from the ``analyses`` table),
``compute.py`` (what runs inside those processes), ``hints.py`` (the hint process). The search
itself is the engine's (``engine/bots/analysis.py``); docs/analysis.md describes both halves.

Kept free of imports: the worker processes import ``app.analysis.compute`` only.
"""
