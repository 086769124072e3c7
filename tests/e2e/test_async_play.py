"""Asynchronous play in real Chromium: a player whose time runs out is played by a bot and the
game goes on; a take-back works before a card is drawn and is refused after; a second tab of the
other player (the lobby) gets the "your turn" notice: a browser notification, the count in the
title and the favicon badge, and the game moves into its "your turn" list at once."""

from __future__ import annotations

import pytest

from .conftest import DESKTOP
from .helpers import (
    WAIT,
    answer,
    decision_kind,
    join_from_lobby,
    keep_cards,
    register,
    start_from_table,
    unique,
    use_action,
    version,
    view,
    wait_my_turn,
    wait_running,
    wait_settled,
    wait_version,
)

# records the notifications a page raises (the real ones need a desktop session)
SPY = """
window.__notes = [];
class FakeNotification {
  constructor(title, opts) { window.__notes.push({ title, body: opts && opts.body, tag: opts && opts.tag }); }
  static get permission() { return "granted"; }
  static requestPermission() { return Promise.resolve("granted"); }
  close() {}
}
window.Notification = FakeNotification;
"""


pytestmark = pytest.mark.usefixtures("no_console_errors")

#: seconds per decision: Bob's clock must run out in the first test, Alice must answer well
#: within it even on a loaded machine (with 10 s a slow page let her own clock run out, and the
#: bot then answered for her in the middle of the test's clicks)
MOVE_SECONDS = 25


@pytest.fixture(scope="module")
def table(server, browser, watch):
    """Alice creates a 2-player game with MOVE_SECONDS per decision; Bob joins; Alice starts."""
    contexts = []

    def page(label, init=None):
        ctx = browser.new_context(viewport=DESKTOP)
        if init:
            ctx.add_init_script(init)
        contexts.append(ctx)
        p = ctx.new_page()
        p.set_default_timeout(WAIT)
        watch.watch(p, label)
        return p

    alice, bob = page("alice"), page("bob", SPY)
    register(alice, server, unique("alice"))
    register(bob, server, unique("bob"))
    alice.click("#new-game-btn")
    alice.wait_for_selector("#ng-time")
    alice.select_option("#ng-seats", "2")
    alice.select_option("#ng-time", "custom")
    alice.select_option("#ng-time-mode", "move")
    alice.fill("#ng-time-seconds", str(MOVE_SECONDS))
    alice.fill("#ng-abandon", "3")
    alice.click("#create-game")
    alice.wait_for_url("**/game.html?id=*")
    gid = int(alice.url.split("id=")[1])
    server.set_seed(gid, "e2e-async-1")  # the same deal every run
    join_from_lobby(bob, server, gid)
    start_from_table(alice)
    wait_running(bob)
    yield {"alice": alice, "bob": bob, "gid": gid, "page": page}
    for ctx in contexts:
        ctx.close()


def test_the_clock_shows_and_a_timed_out_player_is_played_by_a_bot(table):
    alice, bob = table["alice"], table["bob"]
    # both owe the opening "keep 4 of 8" (a secret, simultaneous choice): both clocks run
    alice.wait_for_selector('#clocks .clock-chip.running[data-seat="0"]')
    alice.wait_for_selector('#clocks .clock-chip.running[data-seat="1"]')
    assert (str(MOVE_SECONDS) in alice.inner_text("#clocks .clock-control")
            or f"0:{MOVE_SECONDS}" in alice.inner_text("#clocks"))
    keep_cards(alice, {})
    # Bob does nothing: when his time is up the bot keeps four cards for him, and the game goes on
    wait_version(alice, 2, timeout=WAIT + MOVE_SECONDS * 1000)
    alice.wait_for_selector('#clocks .clock-chip[data-seat="1"] .clock-timeouts', timeout=WAIT)
    wait_my_turn(alice)
    assert decision_kind(alice) == "turn"
    wait_version(bob, 2)
    assert len(view(bob)["private"]["hand"]) == 4  # the bot's choice, in Bob's own hand
    log = bob.inner_text("#log")
    assert log.strip()


def test_a_take_back_works_before_a_draw_and_is_refused_after(table, watch):
    alice = table["alice"]
    wait_my_turn(alice)
    before = view(alice)["public"]
    v = version(alice)
    use_action(alice, "cards")
    wait_version(alice, v + 1)
    wait_settled(alice)
    alice.wait_for_selector("#undo-btn")
    alice.click("#undo-btn")
    wait_version(alice, v + 2)
    wait_settled(alice)
    assert decision_kind(alice) == "turn"
    assert view(alice)["public"] == before
    assert "version" in alice.inner_text("#log").lower() or alice.locator("#log .ev-undo").count() >= 1
    # now choose the Cards action again and draw: the drawn card cannot be taken back
    use_action(alice, "cards")
    wait_version(alice, v + 3)
    wait_settled(alice)
    answer(alice, {"type": "draw"})
    wait_version(alice, v + 4)
    wait_settled(alice)
    assert alice.locator("#undo-btn").count() == 0
    status = alice.evaluate(
        """async ([gid, v]) => {
             const r = await fetch(`/api/games/${gid}/undo`, {method: "POST", credentials: "same-origin",
               headers: {"Content-Type": "application/json",
                         "X-CSRF-Token": document.cookie.match(/menagerie_csrf=([^;]+)/)[1]},
               body: JSON.stringify({version: v})});
             return [r.status, (await r.json()).error.code];
           }""", [table["gid"], version(alice)])
    assert status == [409, "cannot_undo"]
    # (the browser logs the refused request itself as an error: that one was expected)
    watch.errors[:] = [e for e in watch.errors if "409 (Conflict)" not in e]


def _play_until(page, done) -> None:
    """Answer on this page (preferring answers that end the turn) until ``done(waiting)``."""
    for _ in range(40):
        wait_settled(page)
        waiting = page.evaluate("window.menagerie.state.waitingFor") or []
        if done(waiting):
            return
        legal = page.evaluate("window.menagerie.state.legal")
        if not legal:  # the other seat (or its clock's bot) owes the answer: wait for it
            page.wait_for_function("(v) => window.menagerie.state.version > v", arg=version(page))
            continue
        pick = next((a for a in legal if a.get("type") in ("x_token", "done", "skip", "pass")),
                    legal[0])
        v = version(page)
        answer(page, pick)
        wait_version(page, v + 1)
    raise AssertionError("the turn did not pass")


def test_a_second_tab_of_the_other_player_hears_it_is_their_turn(table, server):
    alice, bob = table["alice"], table["bob"]
    lobby = bob.context.new_page()
    lobby.goto(server.url("/"))
    lobby.wait_for_function("() => window.menagerie && window.menagerie.feed && window.menagerie.feed.ws"
                            " && window.menagerie.feed.ws.readyState === 1")
    # if Bob already owes a decision, he plays on (in his game tab) until it is Alice's turn;
    # then Alice plays until Bob owes one: that is the notice Bob's lobby tab must hear
    _play_until(bob, lambda waiting: 1 not in waiting)
    assert lobby.evaluate("window.__notes.length") == 0  # his own moves are no news to him
    _play_until(alice, lambda waiting: 1 in waiting)
    lobby.wait_for_function("() => window.__notes.length > 0", timeout=WAIT)
    note = lobby.evaluate("window.__notes[0]")
    assert f"#{table['gid']}" in note["body"]
    lobby.wait_for_function("() => document.title.startsWith('(1)')")
    assert lobby.evaluate("document.documentElement.dataset.turns") == "1"
    assert lobby.locator(f'#list-turn [data-game="{table["gid"]}"]').count() == 1
    href = lobby.evaluate("document.querySelector(\"link[rel~='icon']\").href")
    assert href.startswith("data:image/png")
    lobby.close()
