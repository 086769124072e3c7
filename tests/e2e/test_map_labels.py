"""Every label of the zoo map stays inside the map, on every map, at a phone's and a desktop's
width: a zoo is drawn with every named building (special buildings, sponsor buildings) and
every animal's chip at the map's left and right edges and at its top and bottom, through the
client's own map view, and the box the browser drew for each text is compared with the map's.

(A bot game once ended with a building name at the map's edge drawn past it on a phone: the
layout guessed text widths at 0.62 em per character, and the fallback font draws bold text
wider than that. This checks all buildings and animals instead of the luck of one game.)
"""

from __future__ import annotations

import pytest

from .conftest import PHONE

pytestmark = pytest.mark.usefixtures("no_console_errors")

# draw a zoo with these buildings in a host of the given width; return every text outside
DRAW = """async ({map, buildings, sponsorBuildings, animals, placed, width}) => {
  const { ZooMapView } = await import('/js/arknova/zoomap.js');
  const host = document.createElement('div');
  host.style.width = width + 'px';
  host.className = 'label-check';
  host.style.position = 'relative';
  document.querySelectorAll('.label-check').forEach((e) => e.remove());
  document.body.prepend(host);
  const byId = new Map(animals.map((a) => [a.id, a]));
  const view = new ZooMapView(host);
  view.render(map, {buildings: placed, map: map.id}, {byId, buildings, sponsorBuildings, seat: 0});
  // the map measures its scale once it is in the page, and draws again with bigger texts
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  const svg = host.querySelector('svg');
  const box = svg.getBoundingClientRect();
  const scale = svg.getScreenCTM().a;
  const texts = [...svg.querySelectorAll('text')].filter((e) => e.textContent.trim());
  const out = texts.map((e) => ({text: e.textContent, cls: e.getAttribute('class'),
                                 r: e.getBoundingClientRect(), chip: e.closest('.animal-chip')}))
    .filter((x) => x.r.width && (x.r.left < box.left - 1 || x.r.right > box.right + 1
                                 || x.r.top < box.top - 1 || x.r.bottom > box.bottom + 1
                                 || (x.chip && x.r.right > x.chip.querySelector('.chip-card')
                                     .getBoundingClientRect().right + 1)))
    .map((x) => `${x.cls} "${x.text}" [${x.r.left.toFixed(1)}, ${x.r.right.toFixed(1)}] x `
                + `[${x.r.top.toFixed(1)}, ${x.r.bottom.toFixed(1)}] in [${box.left.toFixed(1)}, `
                + `${box.right.toFixed(1)}] x [${box.top.toFixed(1)}, ${box.bottom.toFixed(1)}]`);
  const px = texts.map((e) => parseFloat(getComputedStyle(e).fontSize) * scale);
  return {count: texts.length, out, minPx: Math.min(...px), names: svg.querySelectorAll('.b-name').length,
          chips: svg.querySelectorAll('.animal-chip').length};
}"""


@pytest.fixture(scope="module")
def catalog(server):
    return server.api("GET", "/api/catalog/arknova")


@pytest.fixture(scope="module")
def page(server, browser, watch):
    ctx = browser.new_context(viewport=PHONE, device_scale_factor=2)
    p = watch.watch(ctx.new_page(), "labels")
    p.set_default_timeout(30_000)
    p.goto(server.url("/"))
    p.wait_for_load_state("load")
    yield p
    ctx.close()


def _shift(shape, x0: int, y0: int, max_y: int) -> list[list[int]]:
    """The shape moved so its leftmost cell is in column x0 and it lies in rows near y0 (the
    doubled-height parity kept: a move by (dx, dy) with dx + dy even)."""
    xs = [c[0] for c in shape]
    ys = [c[1] for c in shape]
    dx = x0 - min(xs)
    dy = y0 - min(ys)
    if (dx + dy) % 2:
        dy += 1
    if max(ys) + dy > max_y:
        dy -= 2 * ((max(ys) + dy - max_y + 1) // 2)
    return [[c[0] + dx, c[1] + dy] for c in shape]


def zoo_at_edges(catalog, map_json, side: str) -> tuple[list[dict], dict, list[dict]]:
    """A zoo (the player's buildings) with every named building and every animal on one side."""
    cells = map_json["cells"]
    max_x = max(c[0] for c in cells)
    max_y = max(c[1] for c in cells)
    sponsor_buildings = {}
    for card in catalog["cards"].get("sponsors", []):
        if card.get("building"):
            b = card["building"]
            sponsor_buildings[b["id"]] = {**b, "kind": "sponsor", "size": len(b["shape"])}
    named = [(bid, b) for bid, b in catalog["buildings"].items()
             if b.get("kind") not in ("enclosure", "kiosk", "pavilion")]
    named += list(sponsor_buildings.items())
    animals = [a for a in catalog["cards"]["animals"]]
    placed, next_id = [], 1
    rows = list(range(0, max_y + 1))
    for i, (bid, b) in enumerate(named):
        shape = b["shape"]
        width = max(c[0] for c in shape) - min(c[0] for c in shape)
        x0 = 0 if side == "left" else max_x - width
        y0 = rows[(i * 3) % len(rows)] if side in ("left", "right") else (0 if side == "top" else max_y - 4)
        if side in ("top", "bottom"):
            x0 = i % (max_x - width + 1)
        # the empty building shows its name; the same building with an animal shows both
        for with_animal in (False, True):
            placed.append({"id": next_id, "type": bid, "kind": b.get("kind"),
                           "cells": _shift(shape, x0, y0, max_y),
                           "animals": [animals[(next_id * 7) % len(animals)]["id"]] if with_animal else []})
            next_id += 1
    # every animal in a one-space enclosure at that edge, and three in a bigger one
    for i, a in enumerate(animals):
        x = 0 if side == "left" else max_x if side == "right" else i % (max_x + 1)
        y = (2 * i + x + 1) % (max_y + 1) if side in ("left", "right") else (0 if side == "top" else max_y)
        if (x + y) % 2 == 0:
            y = y + 1 if y < max_y else y - 1
        placed.append({"id": next_id, "type": "enclosure_1", "kind": "enclosure", "cells": [[x, y]],
                       "animals": [a["id"]]})
        next_id += 1
    return placed, sponsor_buildings, animals


@pytest.mark.parametrize("width", [358, 1180])
def test_every_label_stays_inside_every_map(page, catalog, width):
    maps = catalog["maps"]
    assert len(maps) >= 3
    problems = []
    for map_id, m in sorted(maps.items()):
        for side in ("left", "right", "top", "bottom"):
            placed, sponsor_buildings, animals = zoo_at_edges(catalog, m, side)
            got = page.evaluate(DRAW, {"map": m, "buildings": catalog["buildings"],
                                       "sponsorBuildings": sponsor_buildings, "animals": animals,
                                       "placed": placed, "width": width})
            assert got["names"] >= 2 and got["chips"] >= len(animals), got
            assert got["minPx"] >= 14 - 0.01, (map_id, side, width, got["minPx"])
            problems += [f"{map_id} {side} {width}px: {o}" for o in got["out"]]
    assert not problems, f"{len(problems)} map labels outside the map or their card:\n" + "\n".join(problems[:30])
