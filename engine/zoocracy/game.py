"""Zoocracy behind the engine contract: setup, decisions, views, result."""

from __future__ import annotations

from ..core import BadSetup, Option, rng as _rng
from ..core.stack import StackGame
from . import board, campaign, events, government, parliament, president, progress, rounds  # noqa: F401
from .content import load_content
from .decisions import HANDLERS, REGISTRY, advance, push, top
from .scoring import result as _result
from .tables import T, per_players


class Zoocracy(StackGame):
    """Animal parties bid for the presidency, campaign in the zoo and form coalitions."""

    decisions = REGISTRY

    def __init__(self) -> None:
        super().__init__(
            name="zoocracy", title="Zoocracy", min_seats=2, max_seats=5,
            options=(
                Option("free_hand", False, "Free hand: the head of government decides who "
                       "realises each promised goal, whatever the coalition proposal said",
                       (False, True), type="bool"),
                Option("open_no_confidence", False, "Open no-confidence: the opposition leader "
                       "may call a vote of no confidence even while the government still has "
                       "a majority", (False, True), type="bool"),
            ),
            state_format=1)

    # ------------------------------------------------------------------ setup
    def normalize_options(self, options):
        out = super().normalize_options(options)
        for name, value in out.items():
            if not isinstance(value, bool):
                raise BadSetup("bad_options", f"Option {name!r} must be true or false.")
        return out

    def _setup(self, seats, options, seed):
        content = load_content()
        state = {
            "rng": _rng.seed_to_int(seed), "seats": seats, "options": options,
            "round": 1, "phase": "setup",
            "food": [per_players(T.start_food, seats)] * seats,
            "hands": [[] for _ in range(seats)], "deck": content.deck_ids(), "discard": [],
            "goals": [0] * seats,
            "events": sorted(content.events), "flag_at": None, "revealed": [], "event": None,
            "end_flag": False,
            "pres_round": 1, "parl_round": 1, "president": None, "pres": None,
            "parliament": [0] * seats, "majority": None, "order": list(range(seats)),
            "scoring": None,
            "board": board.empty_board(), "manipulated": None, "blockaded": None,
            "gov": None, "opposition_leader": None, "promises": {},
            "campaign": None, "limit_mod": 0, "round_goal": {"blocked": False, "cost": 0},
            "elected": False, "last_vote": None,
            "over": None, "stack": [],
        }
        _rng.shuffle(state, state["deck"])
        _rng.shuffle(state, state["events"])
        state["flag_at"] = _rng.choice(state, T.end_flag_positions)
        for s in range(seats):
            for _ in range(T.start_hand):
                state["hands"][s].append(state["deck"].pop())
            state["hands"][s].sort()
        push(state, "round_start")
        advance(state, [])
        return state


    # ------------------------------------------------------------------ views
    def information_marks(self, state):
        """The generator, the face-down piles and the secret answers collected so far (an
        answer to a simultaneous decision, and its reveal, are information barriers)."""
        secret = []
        for frame in state["stack"]:
            handler = HANDLERS[frame["kind"]]
            if handler.simultaneous:
                secret.append(sorted(frame[handler.hidden[0]]))
        return (state["rng"], len(state["deck"]), len(state["events"]), secret)

    def _public_view(self, state):
        frame = top(state)
        gov = state["gov"]
        return {
            "seats": state["seats"], "options": state["options"], "round": state["round"],
            "rounds": T.rounds, "phase": state["phase"],
            "goals": list(state["goals"]), "goal_track": T.goal_track,
            "hand_sizes": [len(h) for h in state["hands"]], "hand_limit": T.hand_limit,
            "deck_size": len(state["deck"]), "discard": list(state["discard"]),
            "events": {"revealed": list(state["revealed"]), "remaining": len(state["events"]),
                       "current": state["event"], "end_flag": state["end_flag"],
                       "flag_positions": list(T.end_flag_positions)},
            "elections": {"president": state["pres_round"], "parliament": state["parl_round"]},
            "president": state["president"], "presidential": state["pres"],
            "parliament": list(state["parliament"]), "majority": state["majority"],
            "order": list(state["order"]), "scoring": state["scoring"],
            "board": state["board"], "manipulated": state["manipulated"],
            "blockaded": state["blockaded"],
            "government": gov, "opposition_leader": state["opposition_leader"],
            "promises": state["promises"], "campaign": state["campaign"],
            "next_campaign_limit_change": state["limit_mod"], "round_goal": state["round_goal"],
            "last_vote": state["last_vote"], "over": state["over"],
            "decision": HANDLERS[frame["kind"]].public(state, frame) if frame else None,
        }

    def _private_view(self, state, seat):
        frame = top(state)
        mine = None
        if frame is not None and seat in HANDLERS[frame["kind"]].seats(state, frame):
            mine = HANDLERS[frame["kind"]].private(state, frame, seat)
        secret = None
        if frame is not None and HANDLERS[frame["kind"]].simultaneous:
            answers = frame[HANDLERS[frame["kind"]].hidden[0]]
            secret = answers.get(str(seat))
        return {"seat": seat, "food": state["food"][seat], "hand": list(state["hands"][seat]),
                "decision": mine, "secret": secret}

    def _result(self, state):
        return _result(state)

    # ------------------------------------------------------------------ bots and catalog
    def determinize(self, state, seat, rng):
        from .determinize import determinize
        return determinize(state, seat, rng)

    def catalog(self):
        out = load_content().as_catalog()
        out["tables"] = T.model_dump()
        return out


#: the one rules object the registry holds (``engine.get_game("zoocracy")``)
GAME = Zoocracy()
