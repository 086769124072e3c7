"""The screenshots of docs/screenshots (the README's table), taken from games against the
greedy bot from fixed seeds, with a few checks on what they show. They are written to
test-artifacts/; ``scripts/screenshots.sh`` runs this module with MENAGERIE_SCREENSHOTS set to
docs/screenshots to regenerate the README's pictures.

- a turn at 1440x900 and 1920x1080 (en) and on a German phone (390x844, touch); keep 4 of 8 on a
  laptop (en) and on a Ukrainian phone; the board on a German laptop: the association table's
  headers are not covered by anything (a bonus badge covered "Universitäten").
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from .helpers import (
    create_game,
    keep_cards,
    register,
    show_panel,
    start_from_table,
    unique,
    wait_my_turn,
)
from .test_layout import catalog

pytestmark = pytest.mark.usefixtures("no_console_errors")

SEED = "e2e-layout-1"


@pytest.fixture(scope="module")
def shots(artifacts) -> Path:
    where = os.environ.get("MENAGERIE_SCREENSHOTS")
    out = Path(where) if where else artifacts
    out.mkdir(parents=True, exist_ok=True)
    return out


def new_game(browser, server, viewport, lang, touch=False):
    ctx = browser.new_context(viewport=viewport, is_mobile=touch, has_touch=touch)
    page = ctx.new_page()
    page.set_default_timeout(45_000)
    page.goto(server.url("/"))
    page.evaluate("(l) => localStorage.setItem('menagerie.lang', l)", lang)
    register(page, server, unique(f"shot{lang}"))
    gid = create_game(page, seats=2, bots=(1,))
    server.set_seed(gid, SEED)
    start_from_table(page)
    wait_my_turn(page)
    return ctx, page


#: what covers a part of a board block's heading or of the association table's header cells
HEADERS_COVERED = """() => [...document.querySelectorAll('#board table.assoc thead th, #board .board-block h3')]
  .filter(th => th.getClientRects().length).flatMap(th => {
    const r = th.getBoundingClientRect();
    const out = [];
    for (const [x, y] of [[r.left + 3, r.top + r.height / 2], [r.right - 3, r.top + r.height / 2],
                          [(r.left + r.right) / 2, r.top + 3], [(r.left + r.right) / 2, r.bottom - 3]]) {
      if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) continue;
      const e = document.elementFromPoint(x, y);
      // the page's fixed bars (the decision bar) lie over what scrolls under them
      let fixed = false;
      for (let a = e; a && a !== document.body; a = a.parentElement) {
        if (['fixed', 'sticky'].includes(getComputedStyle(a).position)) { fixed = true; break; }
      }
      if (e && !fixed && !th.contains(e) && !e.contains(th)) out.push(th.textContent.trim() + ' under ' + e.tagName + '.' + (e.className.baseVal ?? e.className));
    }
    return out; })"""


@pytest.mark.parametrize("lang,viewport,touch,name", [
    ("en", {"width": 1440, "height": 900}, False, "1440x900"),
    ("en", {"width": 1920, "height": 1080}, False, "1920x1080"),
    ("de", {"width": 390, "height": 844}, True, "390x844-de"),
    ("uk", {"width": 390, "height": 844}, True, "390x844-uk"),
    ("de", {"width": 1440, "height": 900}, False, "1440x900-de"),
    ("de", {"width": 1920, "height": 1080}, False, "1920x1080-de"),
    ("de", {"width": 1180, "height": 820}, False, "1180x820-de"),
])
def test_turn_screenshots(server, browser, watch, shots, lang, viewport, touch, name):
    ctx, page = new_game(browser, server, viewport, lang, touch)
    try:
        watch.watch(page, f"shot-{name}")
        page.screenshot(path=str(shots / f"keep-{name}.png"))
        keep_cards(page, catalog(server))
        wait_my_turn(page)
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(shots / f"turn-{name}.png"))
        if touch:
            show_panel(page, "panel-board")
        else:
            page.locator("#board table.assoc").scroll_into_view_if_needed()
        page.screenshot(path=str(shots / f"board-{name}.png"))
        page.locator("#board table.assoc").scroll_into_view_if_needed()
        assert page.evaluate(HEADERS_COVERED) == []
    finally:
        ctx.close()
