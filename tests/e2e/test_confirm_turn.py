"""Confirm turn / Restart turn at the table (issue #30), in Chromium against the greedy bot.

The game is dealt from a fixed seed and the page answers only when the bot owes nothing
(helpers.ALONE), so every run plays the same game. The page confirms its turns itself here
(``MANUAL_CONFIRM``): the first turn is confirmed with the button; on the second the player
takes the turn back after its last click while the bot still waits (the taken-back move leaves
the log), plays it differently and confirms with Enter; then the bot moves.
"""

from __future__ import annotations

from collections import Counter

import pytest

from .conftest import MANUAL_CONFIRM
from .helpers import (
    create_game,
    keep_cards,
    register,
    start_from_table,
    unique,
    version,
    view,
    wait_to_answer,
    wait_version,
)

pytestmark = pytest.mark.usefixtures("no_console_errors")

SEED = "e2e-confirm-1"
HELD = ("() => { const s = window.menagerie.state; return s.held !== null && s.held === s.seat"
        " && !s.pending && document.querySelector('#confirm-turn:not([disabled])') !== null; }")


@pytest.fixture
def table(server, browser, watch):
    ctx = browser.new_context(viewport={"width": 1440, "height": 900})
    ctx.add_init_script(MANUAL_CONFIRM)  # this test clicks "Confirm turn" itself
    page = watch.watch(ctx.new_page(), "confirm")
    page.set_default_timeout(30_000)
    register(page, server, unique("cf"))
    gid = create_game(page, seats=2, bots=(1,))
    server.set_seed(gid, SEED)  # the same deal every run
    start_from_table(page)
    yield page, gid
    ctx.close()


def x_tokens(page) -> list[dict]:
    return page.evaluate("window.menagerie.state.legal.filter(a => a.type === 'x_token')")


def click_answer(page, action: dict) -> None:
    page.evaluate(
        "(a) => { const b = [...document.querySelectorAll('#decision [data-answer]')]"
        ".find(e => { const x = JSON.parse(e.dataset.answer); return x.type === a.type"
        " && x.card === a.card; }); if (!b) throw new Error('no button'); b.click(); }", action)


def log_lines(page) -> list[str]:
    return page.eval_on_selector_all("#log li", "els => els.map(e => e.textContent)")


def test_confirm_restart_and_confirm_with_enter(table, server):
    page, gid = table
    cat = server.api("GET", "/api/catalog/arknova")
    catalog = {c["id"]: c for group in cat["cards"].values() if isinstance(group, list)
               for c in group}
    assert wait_to_answer(page)
    keep_cards(page, catalog)
    seat = page.evaluate("window.menagerie.state.seat")

    # turn 1: one click (an X token) ends it; the bar asks to confirm; the button passes it
    assert wait_to_answer(page)
    first = x_tokens(page)[0]
    before = version(page)
    click_answer(page, first)
    page.wait_for_function(HELD)
    assert version(page) == before + 1
    assert page.inner_text("#confirm-turn") == "Confirm turn"
    page.click("#confirm-turn")
    wait_version(page, before + 2)
    assert wait_to_answer(page)  # the bot moved, the turn came back

    # turn 2: a move, then "Restart turn" while the bot still waits
    start_view, start_v, start_log = view(page), version(page), log_lines(page)
    options = x_tokens(page)
    assert len({a["card"] for a in options}) >= 2, options
    click_answer(page, options[0])
    page.wait_for_function(HELD)
    game = server.api("GET", f"/api/games/{gid}")
    assert (game["version"], game["waiting_for"], game["held_seat"]) == \
        (start_v + 1, [seat], seat)  # the bot waits for the confirm
    assert page.is_visible("#restart-turn")
    moved = Counter(log_lines(page)) - Counter(start_log)
    assert moved, "the move is in the log while the turn waits"
    page.click("#restart-turn")
    wait_version(page, start_v + 2)
    assert wait_to_answer(page)
    assert view(page)["public"] == start_view["public"]
    assert view(page)["private"]["hand"] == start_view["private"]["hand"]
    # the log is the one before the turn, and the restart's own line
    new = Counter(log_lines(page)) - Counter(start_log)
    assert list(new) == [f"{line}" for line in new if "restarted the turn" in line], new
    assert sum(new.values()) == 1, new

    # played differently, confirmed with Enter: then the bot moves
    other = next(a for a in x_tokens(page) if a["card"] != options[0]["card"])
    click_answer(page, other)
    page.wait_for_function(HELD)
    held_v = version(page)
    assert server.api("GET", f"/api/games/{gid}")["version"] == held_v
    page.evaluate("document.activeElement && document.activeElement.blur()")
    page.keyboard.press("Enter")
    wait_version(page, held_v + 2)  # the confirm, then the bot's move
    assert wait_to_answer(page)
    entries = server.api("GET", f"/api/games/{gid}/log?after={held_v}")["entries"]
    assert entries[0]["events"][0]["kind"] == "confirm"
    assert any(e["seat"] == 1 for e in entries[1:]), entries
