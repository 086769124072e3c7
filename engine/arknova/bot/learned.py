"""The learned value of a zoo builder position: features of each zoo, weights fitted to the final
margin of self-play games (``benchmarks/train_value.py`` writes ``data/value.json``).

A position is described per zoo by :func:`zoo_features` (its projected points now, money,
income beyond the appeal track's, sponsor appeal income, assets, free enclosures, the hand's worth, supportable projects, tokens against it, the
hand's size: the clock-free parts of the hand-weighted evaluation, ``evaluate.zoo_parts``) and
by the clock (breaks probably left, turns left), and by :func:`project_soon` (the best project
level the zoo meets, by how soon its association card reaches the strength to support it). The
features of a seat (:func:`features`) are its zoo's minus the best other zoo's, some of them
also times the clock, and whose turn it is.

- :func:`predicted_margin` is ``weights . features``: the expected final margin (the seat's
  final score minus the best other's) in victory points; in a solo game the expected final
  score (weights of their own, fitted to solo games).
- :func:`win_chance` turns it into a chance of winning (solo: of reaching 0), a logistic of the
  margin over the residual spread measured when the weights were fitted (``sigma``).
- :func:`utility` is what the bots maximize: the margin, plus ``20 * (2 P - 1)`` (the +-20 for
  winning or losing that finished games get, :func:`engine.bots.evaluation.final_value`, so a
  won game's value and a winning position's value meet), plus the *tempo* term
  ``tempo * max(0, 2 P - 1) * progress``, where ``progress`` is how far the seat's own victory
  points have come in the last ``progress`` points (value.json, default :data:`PROGRESS`)
  before 0 (0 ends the game): a seat that is probably winning gains by bringing the end closer.
  One-sided: paid for keeping the end away, a trailing seat refused its own points once
  ``tempo`` > 1. Against a rival that never races, this is what makes the bot end the game. A
  finished game gets the same term with the chance 1 when won (:func:`value`), so ending a won
  game is worth at least the position before it.

Pure Python; the weights are read once and validated (:func:`load`).
"""

from __future__ import annotations

import json
import math
from functools import lru_cache
from importlib import resources

from ...bots.evaluation import Evaluator, final_value
from .. import deck
from ..actions.association import TASKS, workers_needed
from ..tables import T, appeal_income, strength_cap, victory_points
from ..turn import strength_of
from .evaluate import EVALUATOR as HAND, clock, pending, zoo_parts
from .handhomes import matched
from .valuefile import (  # noqa: F401 - the file's names, also read from here
    BY_BREAKS,
    BY_PHASE,
    DUEL,
    END,
    PROGRESS_ON,
    SOLO,
    ZOO,
    ValueFileError,
    validate,
)
from .zooparts import HAND_SHARE, hand_value, icons_of, project_levels_memo

WIN_BONUS = 20.0   #: the +-20 of a finished game (engine.bots.evaluation.final_value)
PROGRESS = 60.0    #: default of ``progress`` in value.json: the tempo term's window (points)
MIDDLE = 3         #: :func:`answer_term`'s strength that counts 0 (the middle slot)
NEAR = 40.0        #: the end features count the last this many points before the nearer end
SOON = 0.5         #: :func:`project_soon`'s share left for each step the association card is short


#: :func:`zoo_features` by the identity of the parts they come from (which the entry holds,
#: so the id stays theirs); at most :data:`FEATS_MAX` entries, then cleared.
_FEATS: dict = {}
FEATS_MAX = 20_000


def zoo_features(state: dict, seat: int) -> list[float]:
    """The :data:`ZOO` quantities of the seat's zoo (memoized on its parts)."""
    key = parts = zoo_parts(state, seat)
    p = state["players"][seat]  # the parts are computed from (and keyed on) this zoo
    data = load()  # hand_homes: the part's own (duel / solo), else the file's
    part = data["solo" if state["seats"] == 1 else "duel"]
    homes_rule = part.get("hand_homes", data.get("hand_homes", "shared"))
    hit = _FEATS.get(id(parts))
    if hit is not None and hit[0] is parts and hit[1] == homes_rule:
        return hit[2]
    if len(_FEATS) >= FEATS_MAX:
        _FEATS.clear()
    if homes_rule == "matched":  # one animal per free enclosure (handhomes.py)
        cards, keep = parts[6]
        parts = parts[:6] + ((matched(p, cards), keep),) + parts[7:]
    feats = (_zoo_features(parts) + [float(p["conservation"]), float(len(p["animals"]))]
             + hand_potential(p, parts))
    # the money income beyond what the appeal track pays (kiosks, sponsors): the appeal's own
    # income goes with its points (fitted together, the two were collinear)
    feats[2] -= appeal_income(p["appeal"])
    _FEATS[id(key)] = (key, homes_rule, feats)
    return feats


def _zoo_features(parts: tuple) -> list[float]:
    (base, money, money_in, appeal_in, assets, spaces, hand, projects, cp_w, malus) = parts
    space = sum(2.0 * size * fit for size, fit in spaces) if spaces else 0.0
    worth = hand_value({}, {}, 0.2, 1.0, None, None, hand)  # ``hand``: its parts, read alone
    proj = 0.0 if projects is None else cp_w * min(projects, 12)
    return [float(base), float(money), float(money_in), float(appeal_in), float(assets),
            space, worth, proj, float(malus), float(len(hand[0]))]  # + conservation, animals


def hand_potential(p: dict, parts: tuple) -> list[float]:
    """``[ready, build]``: what the hand can become with the money at hand, in points (an
    animal's appeal plus its conservation at the zoo's points per conservation): ``ready`` the
    animals playable now (requirements met, a home free, affordable), ``build`` those whose
    requirements are met but which need an enclosure first (affordable with the enclosure's
    price, ``cost_per_space`` times the animal's size; map room is not checked). Each is the
    best-first sum of what the money buys (the two counted apart, each from all the money)."""
    money, (cards, _), cp_w = parts[1], parts[6], parts[8]
    now, later = [], []
    for cid, (cost, _, share) in zip(p["hand"], cards):
        if cost is None or share == HAND_SHARE["none"]:  # not an animal / requirement not met
            continue
        c = deck.card(cid)
        pts = c["appeal"] + cp_w * c["conservation"]
        if share == HAND_SHARE["home"]:
            now.append((pts, cost))
        else:
            later.append((pts, cost + T.build.cost_per_space * c["size"]))
    return [_afford(now, money), _afford(later, money)]


def _afford(items: list, money: float) -> float:
    total = 0.0
    for pts, price in sorted(items, key=lambda it: (-it[0], it[1])):
        if price <= money:
            total += pts
            money -= price
    return total


def _with_clock(z: list[float], breaks_left: float, turns_left: float,
                cap: float | None = None) -> list[float]:
    if cap is not None and z[1] > cap:  # money beyond ``money_cap`` (value.json) counts not
        z = z[:]
        z[1] = cap
    phase = min(1.0, turns_left / 8.0)
    return (z + [z[ZOO.index(n)] * breaks_left for n in BY_BREAKS]
            + [z[ZOO.index(n)] * phase for n in BY_PHASE])


def features(state: dict, seat: int) -> list[float]:
    """The seat's feature vector (:data:`DUEL` in a game of 2 or more, :data:`SOLO` alone)."""
    return _features(state, seat)[0]


def _features(state: dict, seat: int) -> tuple[list[float], float]:
    """:func:`features` and the seat's own projected points now."""
    breaks_left, turns_left = clock(state)
    data = load()  # money_cap: the part's own (duel / solo), else the file's
    cap = data["solo" if state["seats"] == 1 else "duel"].get("money_cap", data.get("money_cap"))
    own = zoo_features(state, seat)
    mine = _with_clock(own, breaks_left, turns_left, cap)
    if state["seats"] == 1:
        return mine + [project_soon(state, seat, turns_left)] + [1.0], own[0]
    others = [s for s in range(state["seats"]) if s != seat]
    rival = others[0]
    best = _with_clock(zoo_features(state, rival), breaks_left, turns_left, cap)
    if len(others) > 1:  # the rival with the best linear score
        weights = load()["duel"]["weights"]
        best_v = sum(w * x for w, x in zip(weights, best))
        for s in others[1:]:
            other = _with_clock(zoo_features(state, s), breaks_left, turns_left, cap)
            v = sum(w * x for w, x in zip(weights, other))
            if v > best_v:
                rival, best, best_v = s, other, v
    turn = 1.0 if state.get("active") == seat else -1.0
    soon = project_soon(state, seat, turns_left) - project_soon(state, rival, turns_left)
    return ([a - b for a, b in zip(mine, best)] + [soon]
            + end_features(own[0], best[0], state["breaks"]) + [turn], own[0])


def project_soon(state: dict, seat: int, turns_left: float) -> float:
    """The best project level the zoo meets now, in points (its conservation at the zoo's
    points per conservation), times how soon the association card can support it: 1 when its
    slot plus the X tokens reach the project task's strength (5), times :data:`SOON` (a half) for
    each step short;
    0 when the steps short (one turn each: a card played right of it moves it up a slot) and
    the support's own turn do not fit in the turns left, or no worker can do the task."""
    p = state["players"][seat]
    icons_key, zoo_icons = icons_of(p)
    levels = project_levels_memo(state, p, zoo_icons, icons_key)
    if not levels:
        return 0.0
    need = workers_needed(p, "project")
    if need is None or need > p["workers"]:  # placed workers come back at the break
        return 0.0
    short = max(0, TASKS["project"] - strength_of(p, "association") - min(p["x"], T.max_x))
    if short + 1 > turns_left:
        return 0.0
    cp_w = zoo_parts(state, seat)[8]
    return cp_w * max(levels) * SOON ** short


def end_features(own: float, rival: float, breaks_done: int) -> list[float]:
    """:data:`END` from the seat's and its best rival's projected points (0 ends the game): the
    lead times how near the nearer end is (0 far, 1 at it), which of the two is nearer to 0
    (+1 the seat, -1 the rival, in between within 10 points) times the nearness, the lead times
    the breaks so far (a lead late in the game is harder to turn)."""
    d_own, d_riv = max(0.0, -own), max(0.0, -rival)
    near = max(0.0, 1.0 - min(d_own, d_riv) / NEAR)
    first = max(-1.0, min(1.0, (d_riv - d_own) / 10.0))
    lead = own - rival
    return [lead * near, first * near, lead * breaks_done / 10.0]


def predicted_margin(state: dict, seat: int) -> float:
    """Expected final margin of ``seat`` (solo: expected final score), in victory points."""
    model = load()["solo" if state["seats"] == 1 else "duel"]
    return sum(w * x for w, x in zip(model["weights"], features(state, seat)))


def chance(margin: float, sigma: float) -> float:
    """Logistic chance that a margin expected at ``margin`` ends above 0."""
    z = max(-40.0, min(40.0, 1.702 * margin / sigma))
    return 1.0 / (1.0 + math.exp(-z))


def win_chance(state: dict, seat: int) -> float:
    """Chance that ``seat`` wins (solo: reaches 0), from :func:`predicted_margin`."""
    model = load()["solo" if state["seats"] == 1 else "duel"]
    return chance(predicted_margin(state, seat), model["sigma"])


def utility(state: dict, seat: int) -> float:
    """What the bots on the learned value maximize (see the module doc); finished games are
    valued by the caller (the final margin +-20)."""
    data = load()
    model = data["solo" if state["seats"] == 1 else "duel"]
    x, vp = _features(state, seat)
    m = sum(w * v for w, v in zip(model["weights"], x))
    lean = 2.0 * chance(m, model["sigma"]) - 1.0
    u = m + WIN_BONUS * lean
    if state["seats"] > 1:  # once the end is triggered a zoo at 0 or more has come all the way
        # one-sided: only a probably-winning seat is paid for bringing the end closer; paid to
        # keep it away, a trailing seat refused its own points once tempo > 1 (stalled games)
        window = data.get("progress", PROGRESS)
        if data.get("progress_on", "projected") == "markers":
            vp = float(markers(state, seat))
        u += data["tempo"] * max(0.0, lean) * (window + max(-window, min(0.0, vp)))
    return u


def markers(state: dict, seat: int) -> int:
    """The seat's points on the tracks (appeal plus the conservation's worth): 0 or more ends
    the game. Unlike the projected points it leaves out the final-scoring cards, whose points
    come only at the end (counted, a zoo can project 0 or more with its markers still apart)."""
    p = state["players"][seat]
    return victory_points(p["appeal"], p["conservation"])


# --------------------------------------------------------------------------- the weights
@lru_cache(maxsize=1)
def load() -> dict:
    """The shipped weights (``engine/arknova/data/value.json``), validated once."""
    raw = resources.files("engine.arknova").joinpath("data/value.json").read_text("utf-8")
    return validate(json.loads(raw))


# --------------------------------------------------------------------------- the evaluator
def value(state: dict, seat: int) -> float:
    """The bots' value of a position on the learned weights: :func:`utility` (a finished game:
    its final margin +-20), plus what pending building placements are worth."""
    if state["over"]:
        from ..game import GAME

        final = final_value(GAME, state, seat) or 0.0
        if state["seats"] == 1:
            return final
        # the tempo term of a finished game: the whole way came, won (+) or lost (-); without it
        # ending a won game looked worse than the turn before it and the bots never ended games
        won = 1.0 if final > 0 else 0.0  # one-sided like the utility's term
        data = load()
        return final + data["tempo"] * won * data.get("progress", PROGRESS)
    return utility(state, seat) + pending(state, seat)


#: What an action can change in its seat's zoo; an answer whose chain leaves all of them as
#: they were used its action card for nothing (:func:`idle`).
ZOO_KEYS = ("money", "appeal", "conservation", "reputation", "x", "hand", "animals", "buildings",
            "sponsors", "partners", "universities", "supported", "workers", "placed",
            "upgraded", "tucked")


def idle(before: dict, after: dict, spent_x: int = 0) -> bool:
    """True when the zoo ``after`` (a player's dict) is ``before`` in all of :data:`ZOO_KEYS`
    but the ``spent_x`` X tokens the action card was used with: only the action cards' slots
    moved (an Animals action that played no animal, with or without tokens spent on it)."""
    return (before.get("x", 0) - spent_x == after.get("x", 0)
            and all(before.get(k) == after.get(k) for k in ZOO_KEYS if k != "x"))


def answer_term(state: dict, seat: int, action, end: dict | None = None) -> float:
    """The term of an answer itself (``Evaluator.answer``): at a turn's start, using an action
    card at strength ``s`` (its slot plus the X tokens spent, less a constriction) adds
    ``strength_used * (s - MIDDLE)`` (value.json, per part; absent: 0; ``strength_by_card``, per
    part, gives an action card a weight of its own; ``s`` at most the card's
    :func:`~..tables.strength_cap`: an X token spent on Animals or Cards above 5 does nothing,
    and was paid for as if it did); other answers 0. An answer whose chain
    ends in ``end`` with the zoo unchanged (:func:`idle`) keeps the part's ``idle_strength``
    share of it (absent: all; 0: none): the card was not used, only moved to slot 1, which the
    X-token action does too and pays a token for (the term made an empty Animals action at
    strength 5 look better than that).

    A position's value cannot see what a turn spent: an action card used at strength 1 and the
    same card left where it was lead to the same slots, so the one-ply look played the Build card
    at strength 1 turn after turn (a pavilion for a point of appeal) and the Animals card for one
    animal at 3 (docs/bots.md, "The strength an action card is used at"). Features of the slots
    in the value made it hoard the cards instead ("The plan level's choices as a teacher")."""
    if not isinstance(action, dict) or action.get("type") != "action":
        return 0.0
    part = load()["solo" if state["seats"] == 1 else "duel"]
    card = action["card"]
    w = part.get("strength_by_card", {}).get(card, part.get("strength_used", 0.0))
    if not w or state["stack"][-1]["kind"] != "turn":
        return 0.0
    p = state["players"][seat]
    share = part.get("idle_strength", 1.0)
    if share != 1.0 and end is not None and idle(p, end["players"][seat], action.get("x", 0)):
        w *= share
    fade = part.get("strength_fade")  # turns left below which the term shrinks (absent: never)
    if fade:
        w *= min(1.0, clock(state)[1] / fade)
    s = strength_of(p, card, action.get("x", 0))
    cap = strength_cap(card)  # an X token spent above it does nothing: no term for it either
    return w * ((s if cap is None else min(s, cap)) - MIDDLE)


def chain_depth(state: dict, seat: int, depth: int) -> int:
    """``Evaluator.chain_depth``: in a seat's last turn (one turn left by the clock) the one-ply
    look follows its chain ``last_turn_depth`` answers far (value.json, per part; absent: the
    bot's own depth), to the game's end, where the value is the final score."""
    far = load()["solo" if state["seats"] == 1 else "duel"].get("last_turn_depth")
    if far and not state["over"] and clock(state)[1] <= 1.0:
        return max(depth, int(far))
    return depth


def turns_played(state: dict) -> int:
    """``Evaluator.turn``: the turns played so far (a solo game's 0 to 26)."""
    return int(state["turn"])


EVALUATOR = Evaluator(
    value=value, own_followup=HAND.own_followup, shortlist=HAND.shortlist, clone=HAND.clone,
    session=HAND.session, extra=dict(HAND.extra), answer=answer_term, chain_depth=chain_depth,
    turn=turns_played)
