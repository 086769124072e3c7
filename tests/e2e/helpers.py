"""What a person does on the pages, as small functions over a Playwright page."""

from __future__ import annotations

import json
import random
import re
import time
from urllib.parse import parse_qs, urlsplit

PASSWORD = "zebra-crossing-42"

#: how long a page may take to reach a state: generous for a 2-core machine under full load
#: (the tests wait for states, never for times; a wait that is reached ends at once)
WAIT = 45_000

STATE = "window.menagerie && window.menagerie.state"

#: JS (over ``s = window.menagerie.state``): the game waits for this page's seat only. Against
#: bots a page answers a simultaneous decision only after the bots did: a bot draws from the
#: seed and the version it answers at, so answering first would change its choice, and the game.
ALONE = "(s.waitingFor || []).every(x => x === s.seat)"


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


def sign_in(page, server, user: dict, token: str) -> None:
    """Sign a page in with a token got through the API: the login cookie and its CSRF
    companion, as the server sets them at login (the page keeps only who is signed in)."""
    from app.auth import COOKIE, CSRF_COOKIE, csrf_for

    page.context.add_cookies([
        {"name": COOKIE, "value": token, "url": server.url("/"), "httpOnly": True,
         "sameSite": "Strict"},
        {"name": CSRF_COOKIE, "value": csrf_for(token), "url": server.url("/"),
         "sameSite": "Strict"}])
    page.evaluate("u => localStorage.setItem('menagerie.user', JSON.stringify(u))", user)


def create_game(page, seats: int = 2, bots: tuple[int, ...] = (), level: str | None = "greedy") -> int:
    """A new game from the lobby's form; ``level`` the bots' level (None: the form's default).
    Most tests' fixed seeds were written against greedy's moves (not the default)."""
    page.click("#new-game-btn")
    page.wait_for_selector("#ng-seats")
    page.select_option("#ng-seats", str(seats))
    for seat in bots:
        page.check(f'input[data-bot-seat="{seat}"]')
    if bots and level is not None:
        page.select_option("#ng-bot", level)
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
    page.wait_for_selector("#start-btn:not([disabled])", timeout=WAIT)
    page.click("#start-btn")
    wait_running(page)


def wait_running(page, timeout: float = WAIT) -> None:
    page.wait_for_function(f"() => {STATE} && window.menagerie.state.version >= 0 && !!window.menagerie.state.view",
                           timeout=timeout)


def show_panel(page, panel: str) -> None:
    """Tap a panel tab (phones: the panels lie side by side) and wait until the panel's left
    edge is where the panels' strip starts (the smooth scroll has arrived; at once where the
    panels do not scroll)."""
    page.click(f"#panel-tabs [data-panel='{panel}']")
    page.wait_for_function(
        """(id) => { const box = document.querySelector('#panels'); const p = document.getElementById(id);
             if (!box || !p) return true;
             if (box.scrollWidth <= box.clientWidth + 1) return true;
             return Math.abs(p.getBoundingClientRect().left - box.getBoundingClientRect().left) < 2; }""",
        arg=panel, timeout=WAIT)


def wait_until(what: str, check, timeout: float = 180.0, every: float = 0.05):
    """Poll ``check()`` (an API read, say) until it returns something true, and return that;
    fail with ``what`` when it never does. For states outside a page (a page waits with
    wait_for_function)."""
    deadline = time.monotonic() + timeout
    while True:
        got = check()
        if got:
            return got
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not reached in {timeout:.0f} s")
        time.sleep(every)


# --------------------------------------------------------------------------- table state
def version(page) -> int:
    return page.evaluate("window.menagerie.state.version")


def view(page) -> dict:
    return page.evaluate("window.menagerie.state.view")


def legal(page) -> list[dict]:
    return page.evaluate("window.menagerie.state.legal")


def wait_version(page, v: int, timeout: float = WAIT) -> None:
    page.wait_for_function(f"() => window.menagerie.state.version >= {int(v)}", timeout=timeout)


def settled(page) -> bool:
    """The page has the answers for the newest version (or owes nothing)."""
    return page.evaluate(
        "() => { const s = window.menagerie.state;"
        " return !!s.view && !s.pending && s.legalVersion === s.version; }")


def wait_settled(page, timeout: float = WAIT) -> None:
    page.wait_for_function(
        "() => { const s = window.menagerie.state;"
        " return !!s.view && !s.pending && s.legalVersion === s.version; }", timeout=timeout)


def my_turn(page) -> bool:
    return page.evaluate(
        "() => { const s = window.menagerie.state;"
        " return !s.pending && s.legalVersion === s.version && s.legal.length > 0; }")


def wait_my_turn(page, timeout: float = WAIT) -> None:
    page.wait_for_function(
        "() => { const s = window.menagerie.state;"
        " return !s.pending && s.legalVersion === s.version && s.legal.length > 0"
        " && document.querySelector('#decision.mine') !== null; }", timeout=timeout)


def wait_to_answer(page, timeout: float = WAIT) -> bool:
    """Wait until this page owes a decision with its answers shown and no other seat owes one
    (see ALONE: a bot's answer draws from the version it answers at, so a page that answers a
    simultaneous decision first would change the bot's choice and the game), or until the game
    is over. True when there is a decision to answer."""
    page.wait_for_function(
        "() => { const s = window.menagerie.state; if (!s.view) return false;"
        " if (s.view.public.over) return true;"
        " return !s.pending && s.legalVersion === s.version && s.legal.length > 0"
        f" && {ALONE} && document.querySelector('#decision.mine') !== null; }}", timeout=timeout)
    return not page.evaluate("window.menagerie.state.view.public.over")


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


def after_click(page, before: int, timeout: float = WAIT) -> None:
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


# --------------------------------------------------------------------------- a player that moves the game on
ACTION_WEIGHTS = {"animals": 5, "build": 3, "association": 3, "sponsors": 2, "cards": 2}

# an animal in hand that the money pays and an empty enclosure fits; a sponsor card in hand
PROMISING = """() => { const s = window.menagerie.state; const me = s.view.public.players[s.seat];
  const hand = (s.view.private && s.view.private.hand) || [];
  const free = (me.buildings || []).filter(b => (b.kind || 'enclosure') === 'enclosure' && !(b.animals || []).length)
    .map(b => b.cells.length);
  const cards = hand.map(id => s.byId.get(id) || {});
  return { animal: cards.some(c => c.type === 'animal' && (c.cost || 0) <= me.money
                                   && free.some(n => n >= (c.size || 1))),
           sponsor: cards.some(c => c.type === 'sponsor'),
           money: me.money >= 6 }; }"""


def _card_score(page, ids: list[str]) -> dict[str, float]:
    """Lower is better: cheap small animals without requirements, then sponsors, then the rest."""
    return page.evaluate(
        """(ids) => { const out = {}; for (const id of ids) {
             const c = window.menagerie.state.byId.get(id) || {};
             const req = c.requires && Object.keys(c.requires).length ? 30 : 0;
             out[id] = c.type === 'animal' ? (c.size || 5) * 5 + (c.cost || 30) + req
                     : c.type === 'sponsor' ? 45 + (c.level || c.strength || 0) * 3 : 80; }
           return out; }""", ids)


def place_by_hover(page, rng: random.Random) -> list[list[int]]:
    """A placement as a user makes it: hover a legal cell of the map, maybe turn (R) or mirror
    (F) the preview, click inside it. Returns the cells placed."""
    cells = page.evaluate(
        "() => [...new Set(window.menagerie.state.legal.filter(a => a.type === 'place')"
        ".flatMap(a => a.cells.map(c => c[0] + ',' + c[1])))]")
    assert cells, "no legal placement"
    x, y = map(int, rng.choice(cells).split(","))
    cell = page.locator(f'#zoo-map .hits polygon[data-x="{x}"][data-y="{y}"]')
    cell.hover()
    page.wait_for_selector("#zoo-map .ghost .ghost-cell")
    for key in rng.choice([[], [], ["r"], ["f"], ["r", "r"]]):
        page.keyboard.press(key)
    ghost = page.evaluate("window.menagerie.ui.zoo.current")
    assert ghost and [x, y] in ghost, "the preview covers the hovered cell"
    before = version(page)
    cell.click()
    wait_version(page, before + 1)
    return ghost


def click_progress(page, rng: random.Random) -> str:
    """Answer the current decision through the page, preferring answers that move the game on
    (play animals and sponsors, build, support projects, take association tasks); returns what
    kind of answer it clicked ("wait" when nothing is owed)."""
    wait_settled(page)
    # one read of the page's state (its legal answers can be refetched between two reads)
    before, types, need = page.evaluate(
        "() => { const s = window.menagerie.state; const mine = !s.pending && s.legalVersion === s.version;"
        " const keep = mine ? s.legal.find(a => a.type === 'keep') : null;"
        " return [s.version, mine ? [...new Set(s.legal.map(a => a.type))] : [],"
        " keep ? keep.cards.length : 0]; }")
    if not types:
        return "wait"
    if "keep" in types:
        offer = page.eval_on_selector_all("#decision .tray-card[aria-pressed]", "els => els.map(e => e.dataset.id)")
        score = _card_score(page, offer)
        for cid in sorted(offer, key=lambda c: score[c])[:need]:
            page.click(f'#decision .tray-card[data-id="{cid}"][aria-pressed="false"]')
        page.click("#decision .answer.confirm")
        wait_version(page, before + 1)
        return "keep"
    if "place" in types:
        place_by_hover(page, rng)
        return "place"
    animals = page.eval_on_selector_all("#decision .tray-card[data-animal]", "els => els.map(e => e.dataset.animal)")
    if animals:
        page.click(f'#decision .tray-card[data-animal="{rng.choice(animals)}"]')
        page.wait_for_selector("#decision .answer.enclosure")
        n = page.locator("#decision .answer.enclosure").count()
        page.locator("#decision .answer.enclosure").nth(rng.randrange(n)).click()
        wait_version(page, before + 1)
        return "animal"
    found = page.eval_on_selector_all(
        "#decision .answer", "els => els.map((e, i) => [i, e.dataset.type || '', e.dataset.answer || '', e.disabled])")
    found = [f for f in found if not f[3]]
    assert found, "my turn, but no answer to click"
    kinds = [f[1] for f in found]
    answers = [f[2] for f in found]

    def among(pred):
        return [i for i, k in enumerate(kinds) if pred(k, answers[i])]

    choice = None
    if "action" in kinds:
        # what a player sees at a glance: an animal in hand they can pay and house?
        hopes = page.evaluate(PROMISING)
        acts = among(lambda k, a: k == "action" and '"x":' not in a)
        weights = []
        for i in acts:
            card = json.loads(answers[i]).get("card")
            w = ACTION_WEIGHTS.get(card, 1)
            if card == "animals":
                w = 8 if hopes["animal"] else 0.3
            elif card == "sponsors":
                w = 3 if hopes["sponsor"] else 1
            elif card == "build" and not hopes["money"]:
                w = 0.5
            weights.append(w)
        if acts:
            choice = rng.choices(acts, weights=weights)[0]
    else:
        for want in ("support", "sponsor", "task", "building", "partner", "university", "upgrade",
                     "tile", "bonus", "snap", "draw", "pick"):
            idx = among(lambda k, a, w=want: k == w)
            if idx:
                if want == "building":  # the biggest enclosure it offers, now and then another
                    def size(i):
                        bid = json.loads(answers[i])["building"]
                        return int(bid.rsplit("_", 1)[1]) if re.fullmatch(r"enclosure_\d+", bid) else 0
                    big = sorted(idx, key=size)
                    choice = big[-1] if rng.random() < 0.7 else rng.choice(big)
                else:
                    choice = rng.choice(idx)
                break
        if choice is None:
            rest = among(lambda k, a: k not in ("back", "done", "skip", "break_action"))
            if rest and rng.random() < 0.85:
                choice = rng.choice(rest)
    if choice is None:
        # nothing else to do here: the sponsors' break action still pays and moves the break on
        finishing = (among(lambda k, a: k == "break_action")
                     or among(lambda k, a: k in ("done", "skip")) or list(range(len(found))))
        choice = rng.choice(finishing)
    what = kinds[choice] or "?"
    page.locator("#decision .answer").nth(found[choice][0]).click()
    wait_version(page, before + 1)
    return what


# --------------------------------------------------------------------------- the placement preview
def ghost_cells(page) -> list[list[int]]:
    """The cells the preview on the map covers, as drawn."""
    return sorted(page.eval_on_selector_all(
        "#zoo-map .ghost .ghost-cell", "els => els.map(e => [Number(e.dataset.x), Number(e.dataset.y)])"))


def map_note(page) -> str:
    return page.evaluate("() => { const n = document.querySelector('#zoo-map .zoo-note');"
                         " return n && !n.hidden ? n.dataset.note : ''; }")


def mirrored(cells, pivot) -> list[list[int]]:
    """Cells mirrored left-right across the column of ``pivot`` (doubled-height coordinates)."""
    return sorted([2 * pivot[0] - x, y] for x, y in cells)


def try_mirror(page, limit: int = 14) -> str | None:
    """On a placement decision: point at legal cells until the preview has a legal mirror image
    that differs from it, press F and check the preview shows exactly that mirror image (F again
    mirrors it back). Returns "mirrored", "refused" (only preview orientations whose mirror image
    is not legal there were found; F then leaves the preview and says so) or None."""
    places = {tuple(map(tuple, sorted(a["cells"]))) for a in legal(page) if a["type"] == "place"}
    cells = sorted({tuple(c) for p in places for c in p})
    refused = None
    for x, y in cells[:limit]:
        page.locator(f'#zoo-map .hits polygon[data-x="{x}"][data-y="{y}"]').hover()
        shown = ghost_cells(page)
        if not shown:
            continue
        mirror = mirrored(shown, (x, y))
        if mirror == shown:
            continue
        if tuple(map(tuple, mirror)) in places:
            page.keyboard.press("f")
            after = ghost_cells(page)
            assert after == mirror, f"F shows {after}, the mirror image of {shown} across column {x} is {mirror}"
            page.keyboard.press("f")
            assert ghost_cells(page) == shown, "F twice is the original"
            # R turns it around the same space: another orientation, legal, still covering it
            page.keyboard.press("r")
            turned = ghost_cells(page)
            if not map_note(page):
                assert _normal(turned) != _normal(shown), "R turned the preview"
                assert [x, y] in turned and tuple(map(tuple, turned)) in places
            else:
                assert turned == shown and map_note(page) in ("zoo.no_turn_here", "zoo.turn_same")
            return "mirrored"
        if refused is None:
            # is any preview of the mirrored shape through this cell legal?
            norm = _normal(mirror)
            if not any(_normal(p) == norm and (x, y) in p for p in places):
                page.keyboard.press("f")
                assert ghost_cells(page) == shown, "no legal mirror image: the preview stays"
                assert map_note(page) in ("zoo.no_mirror_here", "zoo.no_mirror"), map_note(page)
                assert page.is_visible("#zoo-map .zoo-note")
                refused = "refused"
    return refused


def _normal(cells) -> tuple:
    cells = [tuple(c) for c in cells]
    dx = -min(c[0] for c in cells)
    dy = -min(c[1] for c in cells)
    if (dx + dy) % 2:
        dy += 1
    return tuple(sorted((a + dx, b + dy) for a, b in cells))


MAP_TEXT_SIZES = """() => [...document.querySelectorAll('#zoo-map svg text, #zoo-map svg tspan')]
    .filter(e => e.textContent.trim() && e.getClientRects().length)
    .map(e => ({text: e.textContent.trim(), cls: (e.closest('[class]') || e).getAttribute('class'),
                px: parseFloat(getComputedStyle(e).fontSize) * e.getScreenCTM().a,
                height: e.getBoundingClientRect().height}))"""


def map_text_sizes(page) -> list[dict]:
    """Every text on the zoo map: its rendered font size in CSS px (computed size × the SVG's
    scale) and the height of its box."""
    return page.evaluate(MAP_TEXT_SIZES)
