"""Why a card or an action cannot be used now, and what a card costs after discounts.

Hints for one seat (see :meth:`engine.core.game.Game.hints`): its own hand, the public display
and its five action cards. Every answer comes from the rules' own functions (the options the
Animals, Sponsors, Build and Association actions offer, the cost after partner-zoo discounts,
the reputation range, the requirement check); this module only asks them piece by piece to name
the reason. A card with no reasons is one the matching action would offer now.

Reasons are ``{"code": ..., **parameters}`` for the client to put into words:

- ``short_money``: ``n`` money missing (``cost`` is the cost after discounts);
- ``needs_icon``: ``n`` icons ``icon`` needed, the zoo has ``have``;
- ``needs_partner``: a partner zoo in ``continent``;
- ``needs_reputation``: reputation ``n``;
- ``needs_upgrade``: the action card ``action`` upgraded (side II);
- ``needs_enclosure``: a free enclosure of ``size`` spaces (``water``/``rock`` spaces next to it,
  or a ``special`` enclosure when the animal may or ``only`` must live there);
- ``no_space``: the sponsor's building fits nowhere in the zoo;
- ``display_needs_upgrade``: display cards need the ``action`` card on side II;
- ``out_of_reach``: folder ``folder`` lies beyond the reputation range ``reach``;
- ``level_above``: sponsor ``level`` above the Sponsors card's strength ``strength`` (with every
  X token spent);
- ``not_now``: a card of this kind is not played by any action (final scoring, tiles);
- ``project_unmet``: no level of the project is reached yet (or its row place is taken);
- ``strength_below``: the Association card's strength ``strength`` is below the task's ``need``;
- ``no_free_worker``: every association worker is placed.

An action is ``idle`` when using it now would do nothing but rotate the card: per number of X
tokens spent (``idle[x]``), a reason code or None.
"""

from __future__ import annotations

from .. import deck
from ..actions.animals import animal_options
from ..actions.association import Association, workers_needed
from ..actions.build import buildable
from ..actions.projects import support_options
from ..actions.sponsors import sponsor_options
from ..decisions import top
from ..tables import T, animals_allowed, reputation_range
from ..turn import side_of, strength_of
from ..zoo import active_workers, animal_cost, homes, icons, meets, placements

#: every reason code and idle code this module gives (the client has words for each)
REASONS = ("short_money", "needs_icon", "needs_partner", "needs_reputation", "needs_upgrade",
           "needs_enclosure", "no_space", "display_needs_upgrade", "out_of_reach", "level_above",
           "not_now", "project_unmet", "strength_below", "no_free_worker")
IDLE = ("no_playable_animal", "no_free_worker", "nothing_buildable", "no_task", "strength_zero")


def hints(state: dict, seat: int) -> dict:
    """Reasons and costs for ``seat``'s hand, the display and its action cards."""
    p = state["players"][seat]
    ctx = _context(state, seat)
    hand = {cid: _card_hint(state, seat, cid, 0, ctx) for cid in sorted(set(p["hand"]))}
    display = {}
    for i, cid in enumerate(state["display"]):
        if cid:
            display[str(i + 1)] = {"card": cid, **_card_hint(state, seat, cid, i + 1, ctx)}
    acts = {card: _action_hint(state, seat, card) for card in p["cards"]}
    return {"hand": hand, "display": display, "actions": acts,
            "reach": reputation_range(p["reputation"])}


def _context(state: dict, seat: int) -> dict:
    """Side and strength of the Animals, Sponsors and Association cards: from the decision being
    answered when it is that action's, else from the card's slot with every X token spent."""
    p = state["players"][seat]
    out = {}
    for card in ("animals", "sponsors", "association"):
        out[card] = {"side": side_of(p, card), "strength": strength_of(p, card, p["x"])}
    frame = top(state)
    if frame is not None and frame.get("seat") == seat and frame["kind"] in out:
        out[frame["kind"]] = {"side": frame["side"], "strength": frame["left"], "frame": frame}
    sp = out["sponsors"]
    if "frame" not in sp and sp["side"] == 2:
        sp["strength"] += T.sponsors.side2_bonus_strength
    out["icons"] = icons(p)  # the zoo's icons, counted once for every card
    return out


def _requirement_reasons(p: dict, req: dict, zoo_icons) -> list[dict]:
    """One reason per unmet requirement, each asked of the rules' own check alone."""
    out = []
    for icon, n in sorted((req.get("icons") or {}).items()):
        if not meets(p, {"icons": {icon: n}}, zoo_icons):
            out.append({"code": "needs_icon", "icon": icon, "n": n, "have": zoo_icons[icon]})
    if req.get("science") and not meets(p, {"science": req["science"]}, zoo_icons):
        out.append({"code": "needs_icon", "icon": "science", "n": req["science"],
                    "have": zoo_icons["science"]})
    if req.get("partner") and not meets(p, {"partner": req["partner"]}, zoo_icons):
        out.append({"code": "needs_partner", "continent": req["partner"]})
    if req.get("reputation") and not meets(p, {"reputation": req["reputation"]}, zoo_icons):
        out.append({"code": "needs_reputation", "n": req["reputation"]})
    if req.get("upgraded") and not meets(p, {"upgraded": req["upgraded"]}, zoo_icons):
        out.append({"code": "needs_upgrade", "action": req["upgraded"]})
    return out


def _display_reasons(p: dict, folder: int, action: str, side: int) -> list[dict]:
    if not folder:
        return []
    out = []
    if side != 2:
        out.append({"code": "display_needs_upgrade", "action": action})
    if folder not in deck.reachable_folders(p):
        out.append({"code": "out_of_reach", "folder": folder,
                    "reach": reputation_range(p["reputation"])})
    return out


def _money(p: dict, cost: int) -> list[dict]:
    return [{"code": "short_money", "n": cost - p["money"], "cost": cost}] \
        if cost > p["money"] else []


def _card_hint(state: dict, seat: int, cid: str, folder: int, ctx: dict) -> dict:
    p = state["players"][seat]
    c = deck.card(cid)
    zoo_icons = ctx["icons"]
    kind = c["type"]
    if kind == "animal":
        side = ctx["animals"]["side"]
        cost = animal_cost(p, c) + folder
        reasons = _display_reasons(p, folder, "animals", side) + _money(p, cost)
        reasons += _requirement_reasons(p, c.get("requires") or {}, zoo_icons)
        if not homes(p, c):
            req = c.get("requires") or {}
            sp = c.get("special") or {}
            reasons.append({"code": "needs_enclosure", "size": c["size"],
                            "water": req.get("water") or 0, "rock": req.get("rock") or 0,
                            "special": sp.get("enclosure"), "only": bool(sp.get("only"))})
        return {"kind": kind, "cost": cost, "base_cost": c["cost"] + folder, "reasons": reasons}
    if kind == "sponsor":
        sp = ctx["sponsors"]
        reasons = _display_reasons(p, folder, "sponsors", sp["side"]) + _money(p, folder)
        if c["level"] > sp["strength"]:
            reasons.append({"code": "level_above", "level": c["level"], "strength": sp["strength"]})
        reasons += _requirement_reasons(p, c.get("requires") or {}, zoo_icons)
        b = c.get("building")
        if b and not placements(p, b["id"], p["upgraded"]["build"]):
            reasons.append({"code": "no_space", "building": b["id"]})
        return {"kind": kind, "cost": folder, "base_cost": folder, "level": c["level"],
                "reasons": reasons}
    if kind == "project":
        asc = ctx["association"]
        reasons = _display_reasons(p, folder, "association", asc["side"]) + _money(p, folder)
        need = T.association.tasks["project"]
        if asc["strength"] < need:
            reasons.append({"code": "strength_below", "action": "association", "need": need,
                            "strength": asc["strength"]})
        workers = workers_needed(p, "project")
        if workers is None or workers > active_workers(p):
            reasons.append({"code": "no_free_worker"})
        src = folder if folder else "hand"
        if not reasons and not any(o.get("project") == cid and o.get("from") == src
                                   for o in support_options(state, seat, asc["side"])):
            reasons.append({"code": "project_unmet"})
        return {"kind": kind, "cost": folder, "base_cost": folder, "reasons": reasons}
    return {"kind": kind, "cost": 0, "base_cost": 0, "reasons": [{"code": "not_now"}]}


def _action_hint(state: dict, seat: int, card: str) -> dict:
    p = state["players"][seat]
    side = side_of(p, card)
    by_strength: dict[int, str | None] = {}  # X tokens beyond the cap add no strength
    idle = []
    for x in range(p["x"] + 1):
        strength = strength_of(p, card, x)
        if strength not in by_strength:
            by_strength[strength] = _idle(state, seat, card, side, strength)
        idle.append(by_strength[strength])
    return {"strength": strength_of(p, card), "side": side, "idle": idle}


def _idle(state: dict, seat: int, card: str, side: int, strength: int) -> str | None:
    """Why using ``card`` at ``strength`` would do nothing (None: it would do something)."""
    p = state["players"][seat]
    if card == "animals":
        if animals_allowed(side, strength) <= 0:
            return "strength_zero"
        return None if animal_options(state, seat, side) else "no_playable_animal"
    if card == "build":
        if strength <= 0:
            return "strength_zero"
        frame = {"seat": seat, "side": side, "left": strength, "built": []}
        return None if buildable(state, seat, frame) else "nothing_buildable"
    if card == "association":
        if strength <= 0:
            return "strength_zero"
        frame = {"kind": "association", "seat": seat, "side": side, "left": strength,
                 "done": [], "donated": False}
        if any(a["type"] != "done" for a in Association().legal(state, frame, seat)):
            return None
        return "no_free_worker" if active_workers(p) <= 0 else "no_task"
    if card == "sponsors":
        frame = {"seat": seat, "side": side, "strength": strength, "played": 0,
                 "left": strength + (T.sponsors.side2_bonus_strength if side == 2 else 0)}
        if strength > 0 or sponsor_options(state, seat, frame):
            return None
        return "strength_zero"
    return None  # cards: the break token always moves
