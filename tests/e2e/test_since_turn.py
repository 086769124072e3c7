"""Since your turn (issue #30, item 3 of its list): the other seats' moves since the player's last
decision, listed in a dismissible panel and marked on the boards, in Chromium at 1440x900.

A player against the greedy bot (a fixed seed: the same deal and bot moves every run). When the
bot has moved, the panel lists exactly the bot's events since the player's last decision, as the
server's log has them; the bot's zoo tab and score row are marked, and so are the cells of what the
bot built; a reload shows the same panel; dismissed, it stays away after a reload until the bot
moves again.
"""

from __future__ import annotations

import random

import pytest

from .helpers import (
    ALONE,
    click_progress,
    create_game,
    register,
    start_from_table,
    unique,
    wait_running,
    wait_settled,
)

pytestmark = pytest.mark.usefixtures("no_console_errors")

SEED = "e2e-since-1"
VIEWPORT = {"width": 1440, "height": 900}
DECISIONS = {"action", "x_token", "kept", "break_action"}

MINE = f"""() => {{ const s = window.menagerie.state; return !!s.view && !s.pending
  && s.legalVersion === s.version && s.legal.length > 0 && {ALONE}; }}"""

#: the page has the log up to its version, and drew what follows from it (two frames later)
LOG_DRAWN = """async () => { const s = window.menagerie.state;
  const ok = s.log.length > 0 && s.log[s.log.length - 1].version >= s.version;
  if (ok) await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
  return ok; }"""

PANEL = """() => { const p = document.querySelector('#since-panel');
  if (!p || p.hidden) return null;
  return [...p.querySelectorAll('.log-line')].map(l => Number(l.dataset.version)); }"""


def server_log(server, gid: int) -> list[dict]:
    """Every public event of the game, from the server: [{version, kind, data}]."""
    out, after = [], 0
    while True:
        data = server.api("GET", f"/api/games/{gid}/log?after={after}")
        entries = data if isinstance(data, list) else data.get("log") or data.get("entries") or data.get("versions") or data.get("events") or []
        got = []
        for e in entries:
            if "events" in e:
                got += [{"version": e["version"], **ev} for ev in e["events"]]
            else:
                got.append(e)
        out += got
        if not (isinstance(data, dict) and data.get("more")) or not got:
            return out
        after = max(e["version"] for e in got)


def expected_moves(server, gid: int, seat: int = 0, dismissed: int = -1) -> list[dict]:
    """The other seats' events after ``seat``'s last decision (and after ``dismissed``)."""
    log = server_log(server, gid)
    last = max((e["version"] for e in log if e.get("data", {}).get("seat") == seat and e["kind"] in DECISIONS),
               default=-1)
    return [e for e in log if e["version"] > max(last, dismissed)
            and e["kind"] not in ("started", "joined") and not e.get("private")
            and e.get("data", {}).get("seat") != seat
            and not (e["kind"] == "gain" and not (e.get("data", {}).get("gains")))]


def play_until_the_bot_moved(page, server, gid, rng, dismissed=-1, limit=40) -> list[dict]:
    """Answer through the page until it is the player's turn (an action card to choose) after
    the bot moved since the player's last decision; returns those moves (from the server)."""
    for _ in range(limit):
        wait_settled(page)
        if not page.evaluate(MINE):
            page.wait_for_function(MINE)
            continue
        kind = page.evaluate("() => { const v = window.menagerie.state.view; const d = (v.private && v.private.decision) || v.public.decision; return d && d.kind; }")
        moves = expected_moves(server, gid, dismissed=dismissed)
        if kind == "turn" and any(m["kind"] == "action" for m in moves):
            return moves
        click_progress(page, rng)
    pytest.fail("the bot did not move")


@pytest.fixture(scope="module")
def game(server, browser, watch):
    ctx = browser.new_context(viewport=VIEWPORT)
    page = watch.watch(ctx.new_page(), "player")
    page.set_default_timeout(45_000)
    register(page, server, unique("since"))
    gid = create_game(page, seats=2, bots=(1,))
    server.set_seed(gid, SEED)
    start_from_table(page)
    yield {"page": page, "gid": gid, "rng": random.Random(7)}
    ctx.close()


def check_panel(page, moves) -> None:
    page.wait_for_function(LOG_DRAWN)
    # the newest six moves (the panel never scrolls), the number of the earlier ones in words
    page.wait_for_function(f"() => {{ const v = ({PANEL})(); return v && v.length === {min(len(moves), 6)}; }}")
    versions = page.evaluate(PANEL)
    assert versions == [m["version"] for m in moves][-6:]
    earlier = page.evaluate("(document.querySelector('#since-panel .since-more') || {}).textContent || ''")
    assert earlier == (f"and {len(moves) - 6} earlier move{'s' if len(moves) > 7 else ''} (in the log)" if len(moves) > 6 else "")
    # the bot's zoo tab and score row are marked, the player's are not
    assert page.evaluate("[...document.querySelectorAll('#zoo-tabs .zoo-tab')].map(e => e.classList.contains('since-mark'))") == [False, True]
    assert page.evaluate("[...document.querySelectorAll('#scoretrack .score-row')].map(e => e.classList.contains('since-mark'))") == [False, True]
    # what the bot built, marked on its map
    page.click("#zoo-tabs .zoo-tab >> nth=1")
    cells = sorted({tuple(c) for m in moves if m["kind"] == "built" for c in m["data"]["cells"]})
    page.wait_for_function(LOG_DRAWN)
    marked = page.evaluate("[...document.querySelectorAll('#zoo-map .hits polygon.since-mark')].map(e => [Number(e.dataset.x), Number(e.dataset.y)])")
    assert sorted(map(tuple, marked)) == cells
    page.click("#zoo-tabs .zoo-tab >> nth=0")


def test_the_bots_moves_are_listed_and_marked(game, server, artifacts):
    page = game["page"]
    moves = play_until_the_bot_moved(page, server, game["gid"], game["rng"])
    assert moves and all(m["data"].get("seat") != 0 for m in moves)
    check_panel(page, moves)
    page.click("#zoo-tabs .zoo-tab >> nth=1")
    page.screenshot(path=str(artifacts / "since-turn-1440x900.png"))
    page.click("#zoo-tabs .zoo-tab >> nth=0")
    # the head counts every move, in words
    n = len(moves)
    assert page.inner_text("#since-panel .since-head .muted") == f"{n} move{'s' if n != 1 else ''} of the other players"


def test_the_panel_survives_a_reload(game, server):
    page = game["page"]
    moves = expected_moves(server, game["gid"])
    page.reload()
    wait_running(page)
    wait_settled(page)
    check_panel(page, moves)


def test_dismissed_it_stays_away_until_the_bot_moves_again(game, server):
    page = game["page"]
    newest = max(m["version"] for m in expected_moves(server, game["gid"]))
    page.click("#since-panel .since-close")
    page.wait_for_selector("#since-panel", state="hidden")
    assert page.locator(".since-mark").count() == 0
    page.reload()
    wait_running(page)
    wait_settled(page)
    page.wait_for_function(LOG_DRAWN)
    assert page.evaluate(PANEL) is None
    assert page.locator(".since-mark").count() == 0
    # the player moves, the bot answers: the panel is back, with the new moves only
    moves = play_until_the_bot_moved(page, server, game["gid"], game["rng"], dismissed=newest)
    assert min(m["version"] for m in moves) > newest
    check_panel(page, moves)
