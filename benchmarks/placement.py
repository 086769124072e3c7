"""Time the zoo placement rules: µs per ``legal_placements`` call for every building and map,
on an empty map and on a half-built one (filled deterministically).

    .venv/bin/python benchmarks/placement.py [--repeat N]

Footprints are precomputed (and cached) before timing; the first column shows that one-time cost.
"""

from __future__ import annotations

import argparse
import time

from engine.arknova.placement import footprints, legal_placements, zoo_cells
from engine.arknova.zoomap import load_buildings, load_maps

FILL_ORDER = ("enclosure_5", "enclosure_3", "kiosk", "enclosure_4", "enclosure_2", "pavilion",
              "enclosure_1")


def half_built(zmap, buildings) -> list[dict]:
    """A zoo covering about half of the map's land, built by a fixed rule (no randomness)."""
    zoo: list[dict] = []
    target = len(zmap.land) // 2
    step = 0
    while True:
        occupied, kiosks = zoo_cells(zoo)
        if len(occupied) >= target:
            return zoo
        for attempt in range(len(FILL_ORDER)):
            b = buildings[FILL_ORDER[(step + attempt) % len(FILL_ORDER)]]
            options = legal_placements(zmap, b, occupied, kiosks, True)
            if options:
                cells = options[(7 * step) % len(options)]
                zoo.append({"kind": b.kind, "id": b.id, "cells": [list(c) for c in cells]})
                break
        else:
            return zoo
        step += 1


def per_call_us(fn, repeat: int) -> float:
    best = float("inf")
    for _ in range(5):
        t = time.perf_counter()
        for _ in range(repeat):
            fn()
        best = min(best, time.perf_counter() - t)
    return best / repeat * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=2000)
    args = parser.parse_args()
    buildings = load_buildings()
    for zmap in load_maps().values():
        zoo = half_built(zmap, buildings)
        occupied, kiosks = zoo_cells(zoo)
        print(f"\nmap {zmap.id}: {len(zmap.land)} land cells; half-built zoo: {len(zoo)} "
              f"buildings on {len(occupied)} cells")
        print(f"  {'building':<14} {'footprints':>10} {'precompute':>11} {'empty µs':>9} "
              f"{'half µs':>8} {'#legal empty/half':>18}")
        for b in buildings.values():
            zmap._footprints.pop(b, None)           # measure the one-time precomputation too
            t = time.perf_counter()
            fps = footprints(zmap, b)
            pre = (time.perf_counter() - t) * 1e3
            # the lambdas are timed at once, inside this iteration
            empty = per_call_us(lambda: legal_placements(zmap, b, set(), set(), True),  # noqa: B023
                                args.repeat)
            half = per_call_us(lambda: legal_placements(zmap, b, occupied, kiosks, True),  # noqa: B023
                               args.repeat)
            n_empty = len(legal_placements(zmap, b, set(), set(), True))
            n_half = len(legal_placements(zmap, b, occupied, kiosks, True))
            print(f"  {b.id:<14} {len(fps):>10} {pre:>9.2f}ms {empty:>9.1f} {half:>8.1f} "
                  f"{n_empty:>10}/{n_half:<7}")


if __name__ == "__main__":
    main()
