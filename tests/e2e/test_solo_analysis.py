"""A solo game's analysis on the replay page, in Chromium: a fast-level solo game is imported and
analysed; the chart has one line at the level of the expected final score (the solo measure is
calibrated by turns left, docs/analysis.md), and the accuracy counts the points given away (the
chance of reaching 0 sits near 0 for most solo games), which its tooltip says.

Screenshots: ``test-artifacts/solo-analysis-1440x900.png``, ``solo-analysis-390x844.png``.
"""

from __future__ import annotations

import re

import pytest

from tests.arkrecord import solo_record

from .helpers import PASSWORD, WAIT, unique
from .test_analysis import ANALYSIS, LAPTOP, PHONE, open_signed_in

pytestmark = pytest.mark.usefixtures("no_console_errors")


@pytest.mark.parametrize("viewport, shot", [(LAPTOP, "1440x900"), (PHONE, "390x844")])
def test_a_solo_games_analysis_reads_points(server, browser, watch, artifacts, viewport, shot):
    name = unique("so")
    reg = server.api("POST", "/api/auth/register", {"username": name, "password": PASSWORD})
    record = solo_record()
    gid = server.api("POST", "/api/games/import", record, reg["token"])["id"]
    ctx = browser.new_context(viewport=viewport)
    try:
        page = watch.watch(ctx.new_page(), f"solo-analysis-{shot}")
        open_signed_in(page, server, reg, f"/replay.html?id={gid}")
        page.wait_for_selector("#final-screen:not([hidden]) #final-analysis", timeout=WAIT)
        page.click("#final-analysis")
        page.click("#an-request")
        page.wait_for_selector("#an-chart", timeout=ANALYSIS)
        assert page.locator("#an-chart polyline.an-line").count() == 1
        assert page.locator("#an-accuracy li").count() == 1
        names = page.eval_on_selector_all("#analysis .an-axis-name", "els => els.map(e => e.textContent)")
        assert names == ["expected score (VP)", "moves"]
        tip = page.locator("#an-accuracy li").first.get_attribute("title") or ""
        assert re.search(r"Points given away per decision, on average: \d+(\.\d+)? VP", tip), tip
        report = server.api("GET", f"/api/games/{gid}/analysis")["report"]
        seat = report["seats"][0]
        assert seat["accuracy_by"] == "margin"
        final = server.api("GET", f"/api/games/{gid}")
        # the curve's values are expected final scores: the first within reach of the last
        values = [p["value"] for p in report["series"][0]]
        score = values[-1]
        assert abs(values[0] - score) < 40, (values[0], score, final.get("result"))
        # a mistake that gave away less than a whole point of win chance says its VP alone
        for m, text in zip(report["mistakes"], page.locator("#an-mistakes button").all_inner_texts()):
            assert "VP expected" in text
            assert ("win chance" in text) is (round(100 * m["win_loss"]) >= 1), text
        page.locator("#analysis").scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts / f"solo-analysis-{shot}.png"))
    finally:
        ctx.close()
