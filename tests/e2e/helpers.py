"""What a person does on the pages, as small functions over a Playwright page."""

from __future__ import annotations

import json
import random
import re
import time
from urllib.parse import parse_qs, urlsplit

PASSWORD = "zebra-crossing-42"

STATE = "window.menagerie && window.menagerie.state"


def unique(prefix: str) -> str:
    return f"{prefix}{int(time.time() * 1000) % 10_000_000}{random.randint(10, 99)}"


# --------------------------------------------------------------------------- lobby
def register(page, server, name: str, password: str = PASSWORD) -> None:
    page.goto(server.url("/"))
    page.fill("#auth-user", name)
    page.fill("#auth-pass", password)
    page.click("#register-btn")
    page.wait_for_selector("#logout")
    assert name in page.inner_text("#auth")


def create_game(page, seats: int = 2, bots: tuple[int, ...] = ()) -> int:
    page.click("#new-game-btn")
    page.wait_for_selector("#ng-seats")
    page.select_option("#ng-seats", str(seats))
    for seat in bots:
        page.check(f'input[data-bot-seat="{seat}"]')
    page.click("#create-game")
    page.wait_for_url(re.compile(r".*/game\.html\?id=\d+"))
    return game_id(page)


def game_id(page) -> int:
    return int(parse_qs(urlsplit(page.url).query)["id"][0])


def join_from_lobby(page, server, gid: int) -> None:
    page.goto(server.url("/"))
    button = page.wait_for_selector(f'[data-join="{gid}"]')
    button.click()
    page.wait_for_url(re.compile(rf".*/game\.html\?id={gid}$"))


def start_from_table(page) -> None:
    page.wait_for_selector("#start-btn:not([disabled])", timeout=15_000)
    page.click("#start-btn")
    wait_running(page)


def wait_running(page, timeout: float = 20_000) -> None:
    page.wait_for_function(f"() => {STATE} && window.menagerie.state.version >= 0 && !!window.menagerie.state.view",
                           timeout=timeout)


# --------------------------------------------------------------------------- table state
def version(page) -> int:
    return page.evaluate("window.menagerie.state.version")


def view(page) -> dict:
    return page.evaluate("window.menagerie.state.view")


def legal(page) -> list[dict]:
    return page.evaluate("window.menagerie.state.legal")


def wait_version(page, v: int, timeout: float = 15_000) -> None:
    page.wait_for_function(f"() => window.menagerie.state.version >= {int(v)}", timeout=timeout)


def settled(page) -> bool:
    """The page has the answers for the newest version (or owes nothing)."""
    return page.evaluate(
        "() => { const s = window.menagerie.state;"
        " return !!s.view && !s.pending && s.legalVersion === s.version; }")


def wait_settled(page, timeout: float = 15_000) -> None:
    page.wait_for_function(
        "() => { const s = window.menagerie.state;"
        " return !!s.view && !s.pending && s.legalVersion === s.version; }", timeout=timeout)


def my_turn(page) -> bool:
    return page.evaluate(
        "() => { const s = window.menagerie.state;"
        " return !s.pending && s.legalVersion === s.version && s.legal.length > 0; }")


def wait_my_turn(page, timeout: float = 20_000) -> None:
    page.wait_for_function(
        "() => { const s = window.menagerie.state;"
        " return !s.pending && s.legalVersion === s.version && s.legal.length > 0"
        " && document.querySelector('#decision.mine') !== null; }", timeout=timeout)


def decision_kind(page) -> str | None:
    return page.evaluate(
        "() => { const v = window.menagerie.state.view; const d = (v.private && v.private.decision)"
        " || v.public.decision; return d ? d.kind : null; }")


def log_text(page) -> str:
    return page.inner_text("#log")


def answer(page, action: dict) -> None:
    """Click the bar button that sends exactly this answer."""
    page.evaluate(
        "(k) => { const b = [...document.querySelectorAll('#decision [data-answer]')]"
        ".find(e => e.dataset.answer === k); if (!b) throw new Error('no button for ' + k); b.click(); }",
        _stable(action))


def _stable(obj) -> str:
    """The same key the client's stableKey() makes."""
    if isinstance(obj, list):
        return "[" + ",".join(_stable(x) for x in obj) + "]"
    if isinstance(obj, dict):
        return "{" + ",".join(f"{json.dumps(k)}:{_stable(obj[k])}" for k in sorted(obj)) + "}"
    return json.dumps(obj)


def after_click(page, before: int, timeout: float = 15_000) -> None:
    """Wait until the answer was taken (a newer version) and the page settled."""
    wait_version(page, before + 1, timeout)
    wait_settled(page, timeout)


# --------------------------------------------------------------------------- decisions
def keep_cards(page, catalog_by_id: dict) -> list[str]:
    """Keep 4 of 8: prefer small, cheap animals without requirements (to play one soon)."""
    page.wait_for_selector("#decision .tray-card[aria-pressed]")
    offer = page.eval_on_selector_all("#decision .tray-card[aria-pressed]", "els => els.map(e => e.dataset.id)")
    need = page.evaluate("window.menagerie.state.legal.find(a => a.type === 'keep').cards.length")

    def score(cid):
        c = catalog_by_id.get(cid, {})
        if c.get("type") != "animal":
            return 50
        req = c.get("requires") or {}
        return c.get("size", 5) * 5 + c.get("cost", 30) + (30 if req else 0) + (20 if c.get("special") else 0)

    chosen = sorted(offer, key=score)[:need]
    for cid in chosen:
        page.click(f'#decision .tray-card[data-id="{cid}"]')
    before = version(page)
    page.click("#decision .answer.confirm")
    wait_version(page, before + 1)
    return chosen


def use_action(page, card: str, x: int = 0) -> None:
    """Click the action card button of the turn decision (X tokens via the stepper)."""
    for _ in range(x):
        page.click('#decision [aria-label="more X tokens"]')
    page.click(f'#decision button.use-card[data-answer*=\'"card":"{card}"\']')


def place_on_map(page, screenshot=None) -> list[list[int]]:
    """Hover a cell of a legal placement on the map and click: the ghost shown there is placed."""
    places = [a for a in legal(page) if a["type"] == "place"]
    assert places, "no legal placement"
    target = places[len(places) // 2]["cells"]
    x, y = target[0]
    cell = page.locator(f'#zoo-map .hits polygon[data-x="{x}"][data-y="{y}"]')
    cell.hover()
    page.wait_for_selector("#zoo-map .ghost .ghost-cell")
    ghost = page.evaluate("window.menagerie.ui.zoo.current")
    if screenshot:
        page.screenshot(path=str(screenshot))
    before = version(page)
    cell.click()
    wait_version(page, before + 1)
    return ghost


# --------------------------------------------------------------------------- a player that clicks any legal answer
def click_any_legal(page, rng: random.Random) -> str:
    """Answer the current decision through the page by clicking something legal; returns what."""
    wait_settled(page)
    if not my_turn(page):
        return "wait"
    before = version(page)
    # keep N of the offer: toggle cards, then confirm (the bar redraws after every click)
    if page.evaluate("window.menagerie.state.legal.some(a => a.type === 'keep')"):
        offer = page.eval_on_selector_all("#decision .tray-card[aria-pressed]", "els => els.map(e => e.dataset.id)")
        need = page.evaluate("(window.menagerie.state.legal.find(a => a.type === 'keep') || {cards: []}).cards.length")
        for cid in rng.sample(offer, min(need, len(offer))):
            page.click(f'#decision .tray-card[data-id="{cid}"][aria-pressed="false"]')
        page.click("#decision .answer.confirm")
        wait_version(page, before + 1)
        return "keep"
    # animals: pick a card, then an enclosure
    animals = page.eval_on_selector_all("#decision .tray-card[data-animal]", "els => els.map(e => e.dataset.animal)")
    if animals and rng.random() < 0.85:
        page.click(f'#decision .tray-card[data-animal="{rng.choice(animals)}"]')
        page.wait_for_selector("#decision .answer.enclosure")
        n = page.locator("#decision .answer.enclosure").count()
        page.locator("#decision .answer.enclosure").nth(rng.randrange(n)).click()
        wait_version(page, before + 1)
        return "animal"
    buttons = page.query_selector_all("#decision .answer:not([disabled])")
    assert buttons, "my turn, but no answer to click"
    types = [b.get_attribute("data-type") for b in buttons]
    answers = [b.get_attribute("data-answer") or "" for b in buttons]

    def pick(pred):
        idx = [i for i, t in enumerate(types) if pred(t, answers[i])]
        return buttons[rng.choice(idx)] if idx else None

    choice = None
    r = rng.random()
    # lean toward a zoo that grows (Build, Animals) and a game that moves on (Cards, Sponsors
    # and its break action bring the break)
    if "break_action" in types and r < 0.6:
        choice = pick(lambda t, a: t == "break_action")
    elif "action" in types:
        if r < 0.45:
            choice = pick(lambda t, a: t == "action" and ('"build"' in a or '"animals"' in a))
        elif r < 0.9:
            choice = pick(lambda t, a: t == "action" and ('"sponsors"' in a or '"cards"' in a))
    elif "building" in types and r < 0.9:
        choice = pick(lambda t, a: t == "building")
    elif "place" in types and r < 0.95:
        choice = pick(lambda t, a: t == "place")
    elif "back" in types or "done" in types:
        if r < 0.8:
            choice = pick(lambda t, a: t not in ("back", "done", "skip"))
    if choice is None:
        choice = rng.choice(buttons)
    what = choice.get_attribute("data-type") or "?"
    choice.click()
    wait_version(page, before + 1)
    return what
