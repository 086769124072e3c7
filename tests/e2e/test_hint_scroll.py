"""Pressing Hint at 1440x900 (en, a game with hints against the greedy bot from a fixed seed):
the hint's marks come into sight and the zoo map stays where it was (the hint centred its mark
on the screen, which scrolled the map out of view). At a turn: the mark above the decision bar,
the page scrolled by no more than the mark needed, the map as much in sight as before.
"""

from __future__ import annotations

import pytest

from .helpers import keep_cards, unique, wait_my_turn
from .test_analysis import HINT, LAPTOP, WAIT, new_hints_game
from .test_layout import catalog

pytestmark = pytest.mark.usefixtures("no_console_errors")

#: how much of the map is in sight above the bar, the page's scroll, the first mark's box
SIGHT = """() => {
  const bar = document.querySelector('#decision').getBoundingClientRect().top;
  const m = document.querySelector('#zoo-map svg').getBoundingClientRect();
  const seen = Math.max(0, Math.min(m.bottom, bar) - Math.max(m.top, 0)) / m.height;
  // the mark the hint brings into sight (static/js/suggest.js: the action card, the card, the
  // placement's outline)
  const marks = [document.querySelector('#player .slot.suggested, .tray-card.suggested, #player .card.suggested, #board .suggested')
    || document.querySelector('#zoo-map .ghost-outline') || document.querySelector('.suggested')].filter(Boolean)
    .map((e) => { const r = e.getBoundingClientRect(); return [r.top, r.bottom, String(e.className.baseVal ?? e.className), !!e.closest('#decision')]; });
  return {seen, y: scrollY, bar, marks};
}"""


def hint(page) -> dict:
    page.evaluate("document.body.dataset.hintMarks = ''")
    page.click("#hint-btn")
    page.wait_for_function("() => Number(document.body.dataset.hintMarks) > 0", timeout=HINT)
    # the reveal runs two frames after the marks are drawn
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => requestAnimationFrame(r))))")
    return page.evaluate(SIGHT)


def test_hint_keeps_the_map_in_sight(server, browser, watch, artifacts):
    ctx = browser.new_context(viewport=LAPTOP)
    try:
        page = watch.watch(ctx.new_page(), "hint-scroll")
        page.set_default_timeout(WAIT)
        new_hints_game(page, server, unique("hs"), seed="e2e-hints-1")
        page.click("#start-btn")
        wait_my_turn(page)
        # keep 4 of 8: the marks are the bar's own cards; the page does not move
        page.evaluate("window.scrollTo(0, 0)")
        got = hint(page)
        assert got["marks"] and got["marks"][0][3], got
        assert got["y"] == 0, got
        keep_cards(page, catalog(server))
        wait_my_turn(page)
        page.evaluate("window.scrollTo(0, 0)")
        before = page.evaluate(SIGHT)
        assert before["seen"] > 0.5, before
        after = hint(page)
        page.screenshot(path=str(artifacts / "hint-scroll-1440x900.png"))
        assert after["marks"], after
        top, bottom, _, _ = after["marks"][0]
        assert top >= 0 and bottom <= after["bar"], after          # a mark in sight
        assert after["seen"] >= before["seen"] - 0.05, (before, after)  # the map stayed
        # where the mark was before the hint's scroll: in sight there, nothing moves
        moved = after["y"] - before["y"]
        if top + moved >= 12 and bottom + moved <= after["bar"] - 12:
            assert moved == 0, (before, after)
    finally:
        ctx.close()
