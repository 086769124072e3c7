"""The decision bar names the other people it waits for by their names, with their seat chips.

Three people at a table (Bob's name as long and as wide as a name may be), at 1440x900 and
390x844, Ark Nova (the opening keep: everyone chooses at once) and Zoocracy (the secret bid):
while Ada chooses, her bar says "also waiting for: ② Bob ③ Cyd"; once she (and Bob) answered,
"waiting for: ③ Cyd" and who has answered (a chip and ✓, the name in words for a screen reader).
Never "seat 2"; a long name ends in "…" (its tooltip has it whole) and the page does not scroll
sideways.

Screenshots: ``test-artifacts/waiting-names-{arknova,zoocracy}-{mine,answered}-{1440x900,390x844}.png``.
"""

from __future__ import annotations

import pytest

from .helpers import PASSWORD, unique
from .test_exits import LAPTOP, PHONE, open_page
from .test_phone import assert_fits

pytestmark = pytest.mark.usefixtures("no_console_errors")

#: the bar's waiting line: each item's words (chip and name), the names' tooltips, the labels
WAITING = """() => { const line = document.querySelector('#decision .waiting-for');
  if (!line) return null;
  const items = (sel) => [...line.querySelectorAll(sel)].map(e => ({
    text: e.innerText.replace(/\\s+/g, ' ').trim(), name: (e.querySelector('.seat-name') || {}).title || null,
    spoken: e.textContent.replace(/\\s+/g, ' ').trim(),
    chip: (e.querySelector('.seat-chip') || {}).textContent || null }));
  return { text: line.innerText, waiting: items('.wf:not(.done)'), done: items('.wf.done') }; }"""


def people(server) -> list[dict]:
    stem = unique("wn")
    names = [stem + "_ada", (stem + "_bob").ljust(32, "W"), stem + "_cyd"]
    return [server.api("POST", "/api/auth/register", {"username": n, "password": PASSWORD}) for n in names]


def table(server, game: str, regs: list[dict]) -> int:
    gid = server.api("POST", "/api/games", {"game": game, "seats": 3}, regs[0]["token"])["id"]
    server.set_seed(gid, f"e2e-waiting-names-{game}")
    for reg in regs[1:]:
        server.api("POST", f"/api/games/{gid}/join", {}, reg["token"])
    server.api("POST", f"/api/games/{gid}/start", {}, regs[0]["token"])
    return gid


def answer_first(server, gid: int, reg: dict) -> None:
    legal = server.api("GET", f"/api/games/{gid}/legal", None, reg["token"])
    assert legal["actions"], legal
    server.api("POST", f"/api/games/{gid}/actions",
               {"version": legal["version"], "action": legal["actions"][0]}, reg["token"])


def read_bar(page, version: int) -> dict:
    page.wait_for_function("(v) => { const m = window.menagerie; const s = m && m.state;"
                           " return !!s && !!s.view && s.version >= v && !s.pending && s.legalVersion === s.version; }",
                           arg=version)
    page.wait_for_selector("#decision .waiting-for .wf")
    return page.evaluate(WAITING)


def check_names(line: dict, regs: list[dict], waiting: list[int], done: list[int]) -> None:
    names = [r["user"]["username"] for r in regs]
    assert "seat 2" not in line["text"].lower() and "seat 3" not in line["text"].lower(), line["text"]
    assert [w["chip"] for w in line["waiting"]] == [str(q + 1) for q in waiting], line
    assert [w["name"] for w in line["waiting"]] == [names[q] for q in waiting], line
    for w, q in zip(line["waiting"], waiting):
        # the name is read whole, or cut short with "…" (the tooltip above has it whole)
        shown = w["text"].removeprefix(str(q + 1)).strip()
        assert shown == names[q] or names[q].startswith(shown.rstrip("…").rstrip("."))
        assert names[q] in w["spoken"]
    assert [d["chip"] for d in line["done"]] == [str(q + 1) for q in done], line
    for d, q in zip(line["done"], done):
        assert "✓" in d["text"], d
        # the reader's own answer (Zoocracy lists it): "you ✓"
        assert (" you " in f" {d['text']} ") if q == 0 else (names[q] in d["spoken"]), d


@pytest.mark.parametrize("game", ["arknova", "zoocracy"])
def test_the_bar_names_whom_it_waits_for(server, browser, watch, artifacts, game):
    regs = people(server)
    ada, bob, _ = regs
    gid = table(server, game, regs)
    v0 = server.api("GET", f"/api/games/{gid}")["version"]
    assert server.api("GET", f"/api/games/{gid}")["waiting_for"] == [0, 1, 2]
    # Ada chooses: the bar also waits for Bob and Cyd (on a phone the opening keep leaves them
    # to the header: its bar shows the cards)
    for viewport in (LAPTOP, PHONE):
        size = f"{viewport['width']}x{viewport['height']}"
        ctx, page = open_page(browser, watch, server, ada, "en", viewport, f"/game.html?id={gid}", f"{game}-mine-{size}")
        try:
            hidden = game == "arknova" and viewport is PHONE
            if hidden:
                page.wait_for_selector("#decision.mine")
                page.screenshot(path=str(artifacts / f"waiting-names-{game}-mine-{size}.png"))
            else:
                line = read_bar(page, v0)
                page.screenshot(path=str(artifacts / f"waiting-names-{game}-mine-{size}.png"))
                assert line["text"].startswith("also waiting for:"), line["text"]
                check_names(line, regs, [1, 2], [])
            assert_fits(page, f"{game}: Ada's bar while she chooses")
        finally:
            ctx.close()
    # Ada and Bob answered: Ada's bar waits for Cyd and shows who has answered
    answer_first(server, gid, ada)
    answer_first(server, gid, bob)
    v1 = server.api("GET", f"/api/games/{gid}")["version"]
    assert server.api("GET", f"/api/games/{gid}")["waiting_for"] == [2]
    for viewport in (LAPTOP, PHONE):
        size = f"{viewport['width']}x{viewport['height']}"
        ctx, page = open_page(browser, watch, server, ada, "en", viewport, f"/game.html?id={gid}", f"{game}-done-{size}")
        try:
            line = read_bar(page, v1)
            page.screenshot(path=str(artifacts / f"waiting-names-{game}-answered-{size}.png"))
            assert line["text"].startswith("waiting for:"), line["text"]
            check_names(line, regs, [2], [1] if game == "arknova" else [0, 1])
            assert_fits(page, f"{game}: Ada's bar after she answered")
        finally:
            ctx.close()
