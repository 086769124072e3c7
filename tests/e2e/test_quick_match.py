"""Quick match (issue #33) in real Chromium, at 1440x900 and 390x844, in English, Ukrainian and
German: two players in two browsers post the same seek from the lobby's "Quick match" box; the
second seek pairs with the first; both pages land in the same started game (the first one
hears it on its per-user socket). Each run uses its own time control and rated/casual choice,
so runs never pair across each other."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from .helpers import PASSWORD, WAIT, sign_in, unique

LAPTOP = {"width": 1440, "height": 900}
PHONE = {"width": 390, "height": 844}
LOCALES = {"en": "en-GB", "uk": "uk-UA", "de": "de-DE"}
STATIC = Path(__file__).resolve().parents[2] / "static"
RUNS = [(lang, vp) for lang in LOCALES for vp in (LAPTOP, PHONE)]
TIMES = ["untimed", "move-600", "move-86400", "move-259200"]

pytestmark = pytest.mark.usefixtures("no_console_errors")


def words(lang: str) -> dict[str, str]:
    return json.loads((STATIC / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))


def player(server) -> dict:
    return server.api("POST", "/api/auth/register", {"username": unique("qm"),
                                                     "password": PASSWORD})


def lobby(browser, watch, server, reg: dict, lang: str, viewport: dict, label: str):
    ctx = browser.new_context(viewport=viewport, locale=LOCALES[lang])
    page = watch.watch(ctx.new_page(), label)
    page.set_default_timeout(WAIT)
    page.goto(server.url("/"))
    sign_in(page, server, reg["user"], reg["token"])
    page.goto(server.url("/"))
    return ctx, page


def choose(page, time: str, rated: bool) -> None:
    page.select_option("#seek-time", time)
    if page.is_checked("#seek-rated") != rated:
        page.click("#seek-rated")


@pytest.mark.parametrize("lang,viewport", RUNS,
                         ids=[f"{lang}-{vp['width']}" for lang, vp in RUNS])
def test_quick_match_between_two_browsers(server, browser, watch, artifacts, lang, viewport):
    w = words(lang)
    run = RUNS.index((lang, viewport))
    time, rated = TIMES[run % 4], run < 4
    ada, bob = player(server), player(server)
    contexts = []
    try:
        ctx, a = lobby(browser, watch, server, ada, lang, viewport, "ada")
        contexts.append(ctx)
        ctx, b = lobby(browser, watch, server, bob, lang, viewport, "bob")
        contexts.append(ctx)
        for page in (a, b):
            # (the box is drawn once the words are loaded; the heading is translated by then)
            assert page.wait_for_selector("#seek-post").inner_text() == w["seek.post"]
            assert page.inner_text("#h-seeks") == w["seek.title"]
        # ada posts and waits: her seek is listed as hers, looking
        choose(a, time, rated)
        a.click("#seek-post")
        mine = a.wait_for_selector("#my-seeks [data-status='open']")
        assert w["seek.status_open"] in mine.inner_text()
        a.screenshot(path=str(artifacts / f"quick-match-waiting-{lang}-{viewport['width']}.png"))
        # the box fits the phone: the page never scrolls sideways
        assert a.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        seek_id = int(mine.get_attribute("data-seek"))
        # bob sees it among the others' seeks (after a reload: the list also polls)
        b.reload()
        other = b.wait_for_selector(f"#list-seeks [data-seek='{seek_id}']")
        assert ada["user"]["username"] in other.inner_text()
        b.screenshot(path=str(artifacts / f"quick-match-list-{lang}-{viewport['width']}.png"))
        # bob posts the same seek: a game at once, and both pages go there
        choose(b, time, rated)
        b.click("#seek-post")
        b.wait_for_url(re.compile(r".*/game\.html\?id=\d+$"))
        gid = int(b.url.rsplit("=", 1)[1])
        a.wait_for_url(re.compile(rf".*/game\.html\?id={gid}$"))
        for page in (a, b):
            page.wait_for_function(
                "() => window.menagerie && window.menagerie.state.status === 'running'")
        b.screenshot(path=str(artifacts / f"quick-match-game-{lang}-{viewport['width']}.png"))
        g = server.api("GET", f"/api/games/{gid}")
        assert g["status"] == "running" and g["casual"] is (not rated)
        assert sorted(x["user"]["id"] for x in g["seats"]) == sorted(
            [ada["user"]["id"], bob["user"]["id"]])
        assert (g["time_control"] or {}).get("seconds") == (
            None if time == "untimed" else int(time.split("-")[1]))
        seeks = server.api("GET", "/api/seeks", token=ada["token"])
        assert [(s["status"], s["game_id"]) for s in seeks["mine"]] == [("paired", gid)]
    finally:
        for ctx in contexts:
            ctx.close()
        for reg in (ada, bob):  # nothing of this run stays open for the next ones
            for s in server.api("GET", "/api/seeks", token=reg["token"])["mine"]:
                if s["status"] == "open":
                    server.api("DELETE", f"/api/seeks/{s['id']}", token=reg["token"])
