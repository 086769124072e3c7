"""The Ark Nova-style zoo builder behind the engine contract."""

from __future__ import annotations

from ..core import IllegalAction, Option, rng as _rng
from ..core.cow import deep
from ..core.stack import StackGame

# imported for their registrations: decision handlers, abilities
from . import abilities, breaks, deck, interactions, solo, solo_effects, turn  # noqa: F401
from .actions import animals, association, build, cards, sponsors  # noqa: F401  (the actions)
from .actions.association import full_supply
from .content import load_content
from .decisions import HANDLERS, REGISTRY, push, top
from .scoring import result as _result, vp
from .tables import T, per_players
from .validate import accepts
from .zoo import icons, reading, start_reading, stop_reading
from .zoomap import load_buildings, load_maps

#: One-time map abilities, applied at setup: keyword -> fn(player, value).
MAP_ABILITIES = {
    "start_money": lambda player, value: player.__setitem__("money", player["money"] + value),
}


def _new_player(seat: int, map_id: str, action_cards: list[str]) -> dict:
    s = T.start
    return {
        "map": map_id, "money": s.money, "appeal": s.appeal_by_seat[seat],
        "conservation": s.conservation, "reputation": s.reputation, "x": s.x,
        "workers": s.workers, "placed": 0, "task_uses": {},
        "cards": action_cards, "upgraded": {a: False for a in action_cards},
        "venom": [], "constriction": [],
        "hand": [], "final": [], "buildings": [], "next_id": 1, "animals": [],
        "sponsors": [], "tucked": {}, "partners": [], "universities": [], "supported": [],
        "cubes_used": 0, "rep_bonuses": [], "cp_bonuses": [], "tiles": [], "turns": 0,
        "history": [],
    }


#: The keys of a placed building (``actions/build.py``); only ``animals`` and ``used`` ever
#: change, and ``cells`` is never changed in place (tests/engine/test_cow.py checks both).
BUILDING_KEYS = frozenset(("id", "type", "kind", "cells", "animals", "used"))


def copy_buildings(buildings: list) -> list:
    """A copy of a zoo's buildings for ``apply`` that shares each building's ``cells`` (a
    building not of the known keys is copied whole, but for its cells)."""
    out = []
    for b in buildings:
        if b.keys() == BUILDING_KEYS:
            b = b.copy()
            b["animals"] = b["animals"][:]
        else:
            b = {k: (v if k == "cells" else deep(v)) for k, v in b.items()}
        out.append(b)
    return out


class ArkNova(StackGame):
    """Build a zoo: enclosures, animals, sponsors and conservation projects."""

    def __init__(self) -> None:
        maps = sorted(load_maps())
        super().__init__(
            name="arknova", title="Menagerie Zoo (Ark Nova-style)", min_seats=1, max_seats=4,
            options=(Option("map", maps[0], "The zoo map every player builds on "
                            "('mixed' gives each seat a different map)", tuple(maps) + ("mixed",)),
                     Option("solo_appeal", T.solo.appeal,
                            "Solo game (1 player): the appeal the zoo starts with; less is "
                            "harder", tuple(T.solo.appeal_choices), seats=(1,))),
            state_format=1)

    #: the players' dicts are copied key by key when an action reads them, and a zoo's
    #: buildings as a whole, sharing their cells (engine.core.cow)
    lazy_lists = {"players": {"buildings": copy_buildings}}

    # ------------------------------------------------------------------ setup
    def _setup(self, seats, options, seed):
        content = load_content()
        state = {"rng": _rng.seed_to_int(seed), "seats": seats, "options": options, "solo": None,
                 "turn": 0, "active": 0, "breaks": 0, "break_pos": 0,
                 "break_len": per_players(T.break_track, seats),
                 "cp10": False, "end": None, "over": False, "current": None,
                 "stack": [], "cubes": {}, "project_row": []}
        state["deck"] = content.deck_ids()
        _rng.shuffle(state, state["deck"])
        state["discard"] = []
        base = sorted(content.base_projects)
        _rng.shuffle(state, base)
        k = per_players(T.base_projects, seats)
        state["base_projects"], state["base_pile"] = sorted(base[:k]), sorted(base[k:])
        # 2 players: one level of each base project is blocked (left of the left project, ...)
        blocked = T.blocked_base_levels[str(seats)]
        state["blocked"] = {pid: [blocked[i]] for i, pid in enumerate(state["base_projects"])
                            if blocked}
        # ``donations`` counts covered donation spaces: 2 players start with some covered
        state["donations"] = per_players(T.association.donations_covered, seats)
        state["supply"] = full_supply()
        finals = sorted(content.final_scoring)
        _rng.shuffle(state, finals)
        tiles = sorted(content.bonus_tiles)
        _rng.shuffle(state, tiles)
        per = per_players(T.conservation.tiles_per_space, seats)
        state["bonus_tiles"] = {str(sp): sorted(tiles[i * per:(i + 1) * per])
                                for i, sp in enumerate(T.conservation.tiles_at)}
        maps = sorted(load_maps())
        if options["map"] == "mixed":
            _rng.shuffle(state, maps)
            seat_maps = [maps[i % len(maps)] for i in range(seats)]
        else:
            seat_maps = [options["map"]] * seats
        players = []
        for s in range(seats):
            others = ["build", "cards", "association", "sponsors"]
            _rng.shuffle(state, others)
            p = _new_player(s, seat_maps[s], ["animals"] + others)
            p["final"] = [finals.pop() for _ in range(T.start.final_cards)]
            ability = load_maps()[seat_maps[s]].ability
            if ability:
                MAP_ABILITIES[ability["keyword"]](p, ability.get("value"))
            players.append(p)
        state["players"] = players
        state["final_deck"] = finals
        solo.setup(state, options)  # a 1-seat game: the solo tile and the starting appeal
        state["display"] = [None] * T.display_size
        deck.refill_display(state)
        offers = {str(s): deck.draw(state, T.start.draw) for s in range(seats)}
        push(state, "turn", seat=0)
        push(state, "keep", offer=offers)
        return state

    # ------------------------------------------------------------------ decisions
    #: the decision stack (engine.core.stack): who is asked, the answers, applying one
    decisions = REGISTRY

    def _accepts(self, state, seat, action):
        return accepts(state, top(state), seat, action)

    def _explain_illegal(self, state, seat, action, legal):
        frame = top(state)
        kinds = sorted({a["type"] for a in legal})
        if action.get("type") not in kinds:
            return IllegalAction("wrong_decision",
                                 f"Now the game asks for '{frame['kind']}': answer with one of "
                                 f"{', '.join(kinds)}.")
        same = [a for a in legal if a["type"] == action["type"]]
        if action["type"] == "place":
            return IllegalAction("illegal_placement",
                                 "That building cannot go there (free land, edge or adjacency, "
                                 "kiosk distance, upgrade-only spaces).")
        if action["type"] in ("animal", "sponsor", "support"):
            return IllegalAction("requirements_not_met",
                                 "That card cannot be played now: its cost, its requirements "
                                 "or the action's strength do not allow it.")
        if action["type"] == "action":
            return IllegalAction("not_enough_x", "You do not have that many X tokens.")
        del same
        return IllegalAction("illegal_action", "That answer is not allowed in this position.")

    # ------------------------------------------------------------------ persistence
    def load(self, data):
        """A stored state; states stored before a field existed get the field's neutral value.

        Added since the first stored games: ``supply`` (the association board's partner zoos
        and universities: full, as the old rules offered everything) and ``blocked`` (the
        2-player blocked project levels: none, as the old game was set up without them);
        ``solo`` (None: solo games came later) and the option ``solo_appeal`` (its default,
        as a new setup of the same game fills it in, so a replay matches the stored state).
        """
        state = super().load(data)
        state.setdefault("supply", full_supply())
        state.setdefault("blocked", {})
        state.setdefault("solo", None)
        state["options"].setdefault("solo_appeal", T.solo.appeal)
        return state

    # ------------------------------------------------------------------ views
    def information_marks(self, state):
        """The generator and the sizes of the face-down piles: a draw from any changes them."""
        return (state["rng"], len(state["deck"]), len(state["final_deck"]),
                len(state["base_pile"]))

    def _public_view(self, state):
        players = []
        for _s, p in enumerate(state["players"]):
            pub = {k: v for k, v in p.items() if k not in ("hand", "final")}
            pub["hand_size"] = len(p["hand"])
            pub["final_count"] = len(p["final"])
            pub["icons"] = dict(sorted(icons(p).items()))
            pub["vp"] = vp(p)
            pub["slots"] = [{"card": c, "strength": i + 1, "side": 2 if p["upgraded"][c] else 1,
                             "venom": c in p["venom"], "constriction": c in p["constriction"]}
                            for i, c in enumerate(p["cards"])]
            players.append(pub)
        frame = top(state)
        return {
            "seats": state["seats"], "options": state["options"], "turn": state["turn"],
            "active": state["active"], "players": players,
            "break": {"pos": state["break_pos"], "len": state["break_len"],
                      "count": state["breaks"], "max": T.stall_breaks},
            "display": list(state["display"]), "deck_size": len(state["deck"]),
            "discard": list(state["discard"]), "final_deck_size": len(state["final_deck"]),
            "base_projects": list(state["base_projects"]),
            "project_row": list(state["project_row"]), "cubes": state["cubes"],
            "bonus_tiles": state["bonus_tiles"], "donations": state["donations"],
            "supply": state["supply"], "blocked": state["blocked"],
            "cp10": state["cp10"], "end": state["end"], "over": state["over"],
            "solo": solo.public(state),
            "decision": HANDLERS[frame["kind"]].public(state, frame) if frame else None,
            "final": state.get("final_details"),
        }

    def _private_view(self, state, seat):
        p = state["players"][seat]
        frame = top(state)
        mine = None
        if frame is not None and seat in HANDLERS[frame["kind"]].seats(state, frame):
            mine = HANDLERS[frame["kind"]].private(state, frame, seat)  # secrecy: the decision's
        return {"seat": seat, "hand": list(p["hand"]), "final": list(p["final"]),
                "decision": mine}

    def _result(self, state):
        return _result(state)

    def prepare(self):
        """Every building's footprints on every map (about 50 ms; otherwise the first
        placement question about a map pays for all of that map's buildings)."""
        from . import placement
        from .zoo import building_spec, sponsor_buildings

        kinds = list(load_buildings()) + list(sponsor_buildings())
        for zmap in load_maps().values():
            for kind in kinds:
                placement.footprints(zmap, building_spec(kind))

    def _hints(self, state, seat):
        from .presentation.hints import hints
        with reading():
            return hints(state, seat)

    def _legal_actions(self, state, seat):
        opened = start_reading()
        try:
            return super()._legal_actions(state, seat)
        finally:
            stop_reading(opened)

    def determinize(self, state, seat, rng):
        from .determinize import determinize
        return determinize(state, seat, rng, self.lazy_lists)

    def catalog(self):
        content = load_content()
        return {"cards": content.as_catalog(),
                "maps": {m: _map_json(z) for m, z in load_maps().items()},
                "buildings": {b: _building_json(v) for b, v in load_buildings().items()},
                "tables": T.model_dump()}


def _map_json(z) -> dict:
    cells = sorted(z.cells)
    return {"id": z.id, "name": z.name, "description": z.description,
            "cells": [list(c) for c in cells], "water": [list(c) for c in sorted(z.water)],
            "rock": [list(c) for c in sorted(z.rock)],
            "upgrade_only": [list(c) for c in sorted(z.upgrade_only)],
            "bonuses": [{"cell": list(c), "gain": g} for c, g in sorted(z.bonuses.items())],
            "ability": z.ability}


def _building_json(b) -> dict:
    return {"id": b.id, "name": b.name, "kind": b.kind, "size": b.size,
            "shape": [list(c) for c in b.shape], "appeal": b.appeal,
            "needs_upgrade": b.needs_upgrade, "unique": b.unique, "capacity": b.capacity}


#: the one rules object the registry holds (``engine.get_game("arknova")``)
GAME = ArkNova()
