"""How good a Zoocracy position is for one seat: the evaluation the searching bots use.

``value(state, seat)`` is the seat's *projected* goal steps minus the best other seat's, in goal
steps. A party's projection is its goal steps now plus what its position is likely worth before
the game ends:

- promised goals still to come (this round's while progress has not passed it, next round's),
  most of a step each;
- food (bids, campaigns, paying for goals), action cards in hand (up to the hand limit), and the
  parliament seats it would win if the enclosures were scored now (seats mean food, the seat
  order and a say in the next coalition), all worth less as the end comes close;
- being in government, each unused office power, the presidency;
- a pending decision everybody answers at once is valued by its expected outcome: a secret bid
  buys a chance of the presidency (``bid / (bid + BID_SCALE)``) and costs the food not returned;
  a coalition proposal under vote (or still being built) counts its promises and membership
  times the chance it passes, estimated from the votes already cast in the sampled world.

Once the game is over the value is the final result (goal steps, ties broken by treasury). The
weights were set by hand and are deliberately simple; the module registers itself as the
``zoocracy`` evaluator of :mod:`engine.bots.evaluation`.
"""

from __future__ import annotations

from ..bots.evaluation import Evaluator
from . import board
from .tables import T

PROMISE = 0.8      #: a promised goal still to come (it may be blocked or cost food)
FOOD = 0.03        #: per food
CARD = 0.08        #: per action card (up to the hand limit)
SEAT = 0.03        #: per parliament seat held now
PROJECTED = 0.04   #: per seat the party would win if the enclosures were scored now
GOVERNMENT = 0.25
POWER = 0.08       #: per unused office power
PRESIDENT = 0.1
WIN = 3.0          #: bonus/malus once the game is decided
BID_SCALE = 5.0    #: a bid of this size wins the presidency about half the time


def _final(state: dict, seat: int) -> float:
    goals, food = state["goals"], state["food"]
    over = state["over"]
    mine = goals[seat] + food[seat] / 1000.0
    best = max((goals[s] + food[s] / 1000.0 for s in range(state["seats"]) if s != seat),
               default=mine)
    won = over["winner"] == seat if over["winner"] is not None else mine >= best
    return goals[seat] - max(goals[s] for s in range(state["seats"]) if s != seat) + (
        WIN if won else -WIN)


def _pending_promises(state: dict, seat: int) -> int:
    r = state["round"]
    past_goal = state["phase"] in ("end_round",) or (
        state["phase"] == "progress" and not any(f["kind"] == "progress_goal"
                                                 for f in state["stack"]))
    n = 0
    for key, party in state["promises"].items():
        k = int(key)
        if party == seat and (k > r or (k == r and not past_goal)) and k <= T.rounds:
            n += 1
    return n


def party_value(state: dict, seat: int, projected: list[int]) -> float:
    left = max(0.0, (T.rounds - state["round"] + 1) / T.rounds)
    gov = state["gov"]
    v = float(state["goals"][seat])
    v += PROMISE * _pending_promises(state, seat)
    v += left * (FOOD * state["food"][seat]
                 + CARD * min(len(state["hands"][seat]), T.hand_limit)
                 + SEAT * state["parliament"][seat] + PROJECTED * projected[seat])
    if gov is not None and seat in gov["members"]:
        v += GOVERNMENT * left
        v += POWER * sum(1 for o in ("head", "finance", "defence")
                         if gov[o] == seat and gov["ready"][o])
    if state["opposition_leader"] == seat and gov is not None and gov["ready"]["negative"]:
        v += POWER
    if state["president"] == seat:
        v += PRESIDENT * left
    return v


def _bid_value(state: dict, frame: dict, seat: int) -> float:
    bid = frame["bids"].get(str(seat))
    if bid is None:
        return 0.0
    left = max(0.0, (T.rounds - state["round"] + 1) / T.rounds)
    chance = bid / (bid + BID_SCALE)
    return chance * (T.president.goal_steps + CARD + PRESIDENT * left) \
        - left * FOOD * (bid - bid // 2)


def _pass_chance(state: dict, frame: dict) -> float:
    """Chance that the proposal passes: 1/2 while being built; under vote, from the votes cast
    so far (in the sampled world) with the others' votes counted as even."""
    if frame["kind"] != "vote":
        return 0.5
    margin = sum((2 if v["card"] else 1) * (1 if v["yes"] else -1)
                 for v in frame["votes"].values())
    unknown = state["seats"] - len(frame["votes"])
    if unknown == 0:
        return 1.0 if margin > 0 else 0.0
    return min(1.0, max(0.0, 0.5 + margin / (2.0 * unknown)))


def _proposal_value(state: dict, frame: dict, seat: int) -> float:
    """What the pending proposal would change for ``seat``, times its chance to pass."""
    prop = frame["proposal"] if frame["kind"] == "vote" else frame
    left = max(0.0, (T.rounds - state["round"] + 1) / T.rounds)
    gov = state["gov"]
    gain = PROMISE * sum(1 for p in prop["goals"].values() if p == seat)
    if seat in prop["members"]:
        gain += GOVERNMENT * left
    if gov is not None and seat in gov["members"]:
        gain -= GOVERNMENT * left
    r = state["round"]
    for k in (r, r + 1):  # promises the new government would replace
        if state["promises"].get(str(k)) == seat:
            gain -= PROMISE
    return _pass_chance(state, frame) * gain


def pending(state: dict, seat: int) -> float:
    frame = state["stack"][-1] if state["stack"] else None
    if frame is None:
        return 0.0
    if frame["kind"] == "bid":
        return _bid_value(state, frame, seat)
    if frame["kind"] == "vote" or (frame["kind"] == "proposal" and frame["mode"] != "duel"):
        return _proposal_value(state, frame, seat)
    return 0.0


def value(state: dict, seat: int) -> float:
    if state["over"]:
        return _final(state, seat)
    projected, _ = board.score(state)
    vals = [party_value(state, s, projected) + pending(state, s) for s in range(state["seats"])]
    return vals[seat] - max(v for s, v in enumerate(vals) if s != seat)


#: a loss worth calling a mistake in the post-game analysis (engine/bots/analysis.py), in goal
#: steps: a quarter step (the zoo builder's unit is 2 VP)
ANALYSIS_UNIT = 0.25

EVALUATOR = Evaluator(value=value,
                     extra={"analysis_unit": ANALYSIS_UNIT})
