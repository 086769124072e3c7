"""The X-token row on a phone (390x844, touch) in en, uk and de: each of its buttons says which
action card it moves (a name, not an icon alone), the row stands apart from the action buttons
above it (a gap a thumb does not bridge), and every button is a thumb's height; the decision bar
still takes at most 40 % of the screen. (Reported: five unlabelled icons right under the action
buttons, where one misclick cost a turn.) A game against the greedy bot from a fixed seed.
"""

from __future__ import annotations

import pytest

from .helpers import keep_cards, wait_my_turn
from .test_layout import BAR, PHONE, bad_names, catalog, new_game

pytestmark = pytest.mark.usefixtures("no_console_errors")

ROW = """() => {
  const xs = [...document.querySelectorAll('#decision .x-token')];
  const uses = [...document.querySelectorAll('#decision .use-card')];
  const box = (e) => e.getBoundingClientRect();
  return {
    names: xs.map((x) => { const n = x.querySelector('.xt-name'); return n && n.getClientRects().length ? n.textContent.trim() : ''; }),
    heights: xs.map((x) => box(x).height),
    gap: Math.min(...xs.map((x) => box(x).top)) - Math.max(...uses.map((u) => box(u).bottom)),
    minGap: Math.min(...xs.flatMap((a, i) => xs.slice(i + 1).map((b) => {
      const p = box(a), q = box(b);
      return Math.max(q.left - p.right, p.left - q.right, q.top - p.bottom, p.top - q.bottom); }))),
  };
}"""


@pytest.mark.parametrize("lang", ["en", "uk", "de"])
def test_phone_xtoken_row_named_and_apart(server, browser, watch, artifacts, lang):
    ctx, page = new_game(browser, server, PHONE, lang, touch=True)
    try:
        watch.watch(page, f"xrow-{lang}")
        keep_cards(page, catalog(server))
        wait_my_turn(page)
        page.wait_for_selector("#decision .x-token")
        got = page.evaluate(ROW)
        page.screenshot(path=str(artifacts / f"xtoken-row-390x844-{lang}.png"))
        legal = page.evaluate("window.menagerie.state.legal.filter(a => a.type === 'x_token').map(a => a.card)")
        assert len(got["names"]) == len(legal) == 5, got
        assert all(got["names"]), got                   # every button has its name in sight
        assert len(set(got["names"])) == 5, got
        assert min(got["heights"]) >= 40, got
        assert got["gap"] >= 12, got                    # apart from the action buttons
        assert got["minGap"] >= 4, got                  # and from one another
        assert not bad_names(page, "#decision .x-token .xt-name")  # whole, not cut
        bar = page.evaluate(BAR)
        assert bar <= 0.40 * PHONE["height"], f"the bar is {bar} px"
    finally:
        ctx.close()
