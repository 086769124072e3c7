"""How good a zoo builder position is for one seat: the evaluation the searching bots use.

``value(state, seat)`` is the seat's *projected* victory points minus the best other seat's
(in a solo game the projected victory points themselves; its clock is the solo tile's).
A zoo's projection is its victory points now (appeal, conservation, and the conservation its
final-scoring cards and sponsor awards would give now) plus what its resources are likely worth
before the game ends:

- money and the income per break (appeal income, kiosks, sponsor incomes) times the breaks that
  are probably left (from the leader's distance to 0 VP at ``PACE`` points per break), at a
  fifth of a point per money (below the third of a point animals turn money into, so spending
  it pays), falling to nearly nothing as the end comes close;
- a building being placed counts as placed (so choosing which building to build is scored
  before its placement is);
- reputation (display range, bonuses), X tokens, association workers, upgraded action cards,
  partner zoos and universities, conservation projects the zoo could support now;
- free enclosures, more when an animal in hand fits one; the hand: each card's worth (an
  animal's appeal and conservation less its cost) weighted by how playable it is now, cards over
  the hand limit counting little;
- minus venom and constriction tokens.

The weights were set by hand and checked in bot-vs-bot games (``menagerie simulate``); they are
deliberately simple and data-driven (no card is named here). The module registers itself as the
``arknova`` evaluator of :mod:`engine.bots.evaluation`.

Where things are: the weights and the parts of a zoo's value (final points, layout, icons, the
hand, projects, income) are in ``zooparts.py``, the memos and the search session in
``evalmemo.py``, the bots' shortlists of answers in ``shortlist.py``.

Speed (greedy values about thirty positions per decision): a zoo's value is memoized on the
exact data it reads (its JSON encoding), and inside a search session also on the identity of
the dicts it reads; its parts that change less often than the whole zoo have memos of their
own. Every memo is keyed by everything its function reads, so values are the same as without
them (``tests/engine/test_bots.py`` checks this). :func:`clone_state` is a faster whole copy of
a state for callers that need one.
"""

from __future__ import annotations

from ...bots.evaluation import Evaluator, fast_clone, final_value
from .. import solo
from ..decisions import HANDLERS
from ..game import copy_buildings
from ..tables import T, conservation_value
from ..zoo import building_spec
from .evalmemo import MEMO, ZOOS, ZOOS_MAX, encode, remember, seen, session
from .shortlist import shortlist
from .zooparts import (
    CONSTRICTION,
    ICON,
    MONEY,
    PACE,
    PARTNER,
    PROJECT_SHARE,
    REP,
    TURNS_PER_BREAK,
    UNIVERSITY,
    UPGRADE,
    VENOM,
    WORKER,
    X_TOKEN,
    final_memo,
    hand_parts,
    hand_sizes,
    hand_value,
    icons_of,
    income,
    layout_of,
    projects_total_memo,
    space_value,
)


# --------------------------------------------------------------------------- the clock
def clock(state: dict) -> tuple[float, float]:
    """``(breaks_left, turns_left)``: how much of the game probably remains for each seat."""
    seats = state["seats"]
    if state["over"]:
        return 0.0, 0.0
    if solo.is_solo(state):  # a fixed number of turns (the solo tile)
        return solo.breaks_left(state), float(solo.turns_left(state))
    if state["end"] is not None:
        return 0.0, 1.0
    frac = state["break_pos"] / max(1, state["break_len"])
    cap = T.stall_breaks - state["breaks"] - frac
    lead = max(conservation_value(p["conservation"]) + p["appeal"] + T.scoring.base
               for p in state["players"])
    by_pace = max(0.0, -lead) / PACE
    breaks_left = max(0.0, min(cap, by_pace))
    return breaks_left, breaks_left * TURNS_PER_BREAK.get(seats, 3.0) + 1.0


def zoo_value(state: dict, seat: int, breaks_left: float, turns_left: float) -> float:
    """One zoo's projected points. What does not depend on the clock is memoized (opponents'
    zoos rarely change during a search, and the clock moves with every point scored)."""
    entry = _entry(state, seat)
    if entry[1] == breaks_left and entry[2] == turns_left:
        return entry[3]  # the same clock as last time
    v = entry[3] = _assemble(entry[0], breaks_left, turns_left)
    entry[1], entry[2] = breaks_left, turns_left
    return v


def _entry(state: dict, seat: int) -> list:
    """The :data:`~.evalmemo.ZOOS` entry of the seat's zoo (computed when new). Inside a
    :func:`~.evalmemo.session` it is found first by the identity of what it is computed from."""
    p = state["players"][seat]
    memo = seen()
    if memo is not None:
        held = (p, state["base_projects"], state["project_row"], state["cubes"],
                state["blocked"])
        ids = (id(p), id(held[1]), id(held[2]), id(held[3]), id(held[4]), state["cp10"],
               state["seats"])
        found = memo.get(ids)
        if found is not None:
            return found[1]
    projects = state["base_projects"] + state["project_row"]
    key = encode((p, projects, [state["cubes"].get(x) for x in projects], state["cp10"],
                  state["seats"], state["blocked"]))
    entry = ZOOS.get(key)
    if entry is None:
        if len(ZOOS) >= ZOOS_MAX:
            ZOOS.clear()
        entry = ZOOS[key] = [_zoo_parts(state, seat), None, None, 0.0]
    if memo is not None:
        memo[ids] = (held, entry)  # ``held`` keeps the dicts alive: their ids stay theirs
    return entry


def zoo_parts(state: dict, seat: int) -> tuple:
    """The seat's zoo's clock-free parts (:func:`_zoo_parts`), memoized like :func:`zoo_value`
    (the learned value, ``learned.py``, reads its features from them)."""
    return _entry(state, seat)[0]


def _zoo_parts(state: dict, seat: int) -> tuple:
    """Everything of a zoo's value that does not depend on the clock (see :func:`_assemble`)."""
    p = state["players"][seat]
    cp = p["conservation"]
    icons_key, zoo_icons = icons_of(p)
    layout = layout_of(p)
    fin = final_memo(state, p, zoo_icons, icons_key, layout["key"])
    cp_total = cp + fin
    base = p["appeal"] + conservation_value(cp_total) + T.scoring.base
    cp_w = 2.0 if cp_total < 10 else 3.0
    money_in, appeal_in = income(p, layout)
    rep_cap = T.reputation.max if p["upgraded"]["cards"] else T.reputation.cap_without_cards_upgrade
    assets = (REP * min(p["reputation"], rep_cap, 12)
              + X_TOKEN * p["x"]
              + WORKER * (p["workers"] - 1)
              + UPGRADE * sum(1 for up in p["upgraded"].values() if up)
              + PARTNER * len(p["partners"])
              + UNIVERSITY * len(p["universities"])
              + ICON * sum(zoo_icons.values()))
    hkey = ("H", icons_key, layout["key"], encode((p["hand"], p["reputation"], p["upgraded"])))
    found = MEMO.get(hkey)
    if found is None:  # hand_parts and the spaces read these only
        sizes = hand_sizes(p)
        found = remember(hkey, (hand_parts(p, zoo_icons, layout), tuple(
            (size, 1.1 if any(s <= size for s in sizes) else 0.7) for size in layout["free"])))
    hand, spaces = found
    projects = projects_total_memo(state, p, zoo_icons, icons_key)
    malus = VENOM * len(p["venom"]) + CONSTRICTION * len(p["constriction"])
    return (base, p["money"], money_in, appeal_in, assets, spaces, hand, projects, cp_w, malus)


def _assemble(parts: tuple, breaks_left: float, turns_left: float) -> float:
    """A zoo's value from its :func:`_zoo_parts` and the clock."""
    base, money, money_in, appeal_in, assets, spaces, hand, projects, cp_w, malus = parts
    phase = min(1.0, turns_left / 8.0)
    money_w = 0.03 + MONEY * min(1.0, turns_left / 5.0)
    v = base
    v += money_w * (money + money_in * breaks_left) + appeal_in * breaks_left
    if phase <= 0:
        return v
    v += phase * assets
    # free enclosures: each worth its price, more if an animal in hand fits (space_value)
    enclosures = sum(money_w * 2 * size * fit for size, fit in spaces) if spaces else 0.0
    v += enclosures * min(1.0, turns_left / 4.0)
    v += hand_value(None, None, money_w, phase, None, None, hand)
    v += 0.0 if projects is None else PROJECT_SHARE * cp_w * phase * min(projects, 12)
    v -= malus
    return v


def pending(state: dict, seat: int) -> float:
    """:func:`_pending` on the current clock (the learned value adds it too)."""
    return _pending(state, seat, clock(state)[1])


def _pending(state: dict, seat: int, turns_left: float) -> float:
    """What the seat's pending building placements will probably be worth (so that choosing
    a building is scored before its placement is)."""
    total = 0.0
    money_w = None
    for frame in state["stack"]:
        if frame["kind"] != "place" or frame["seat"] != seat:
            continue
        if money_w is None:
            money_w = 0.03 + MONEY * min(1.0, turns_left / 5.0)
        spec = building_spec(frame["building"])
        total -= money_w * frame["cost"]
        if spec.kind in ("enclosure", "special"):
            total += space_value(spec.size, hand_sizes(state["players"][seat]),
                                  money_w) * min(1.0, turns_left / 4.0)
        total += spec.appeal
        if spec.kind == "kiosk":
            total += 0.5
    return total


# --------------------------------------------------------------------------- the evaluator
def value(state: dict, seat: int) -> float:
    """The seat's projected victory points minus the best other seat's (see module doc)."""
    if state["over"]:
        from ..game import GAME

        return final_value(GAME, state, seat) or 0.0
    breaks_left, turns_left = clock(state)
    mine = zoo_value(state, seat, breaks_left, turns_left) + _pending(state, seat, turns_left)
    others = [zoo_value(state, s, breaks_left, turns_left)
              for s in range(state["seats"]) if s != seat]
    return mine - max(others, default=0.0)  # solo: the projected score itself (the goal: >= 0)


def own_followup(state: dict, seat: int) -> bool:
    """True while ``seat`` is inside its own chained move (not at the start of a new turn)."""
    stack = state["stack"]
    if not stack:
        return False
    frame = stack[-1]
    if frame["kind"] == "turn":
        return False
    return list(HANDLERS[frame["kind"]].seats(state, frame)) == [seat]


# --------------------------------------------------------------------------- copying states
def clone_state(state: dict) -> dict:
    """A copy of a state for callers that need a whole one, faster than a JSON round trip of
    the whole state: the buildings (half of a state) are copied as ``apply`` copies them
    (:func:`~.game.copy_buildings`: sharing their ``cells``, which the engine never changes in
    place); everything else goes through ``orjson``. Equal to ``clone(state)``, and nothing
    the engine mutates is shared."""
    players = state["players"]
    out = fast_clone({**state, "players": [{**p, "buildings": None} for p in players]})
    for p, q in zip(players, out["players"]):
        q["buildings"] = copy_buildings(p["buildings"])
    return out


EVALUATOR = Evaluator(value=value, own_followup=own_followup,
                      shortlist=shortlist, clone=clone_state,
                      session=session)
