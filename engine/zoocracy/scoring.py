"""The end of the game and the winner.

The game ends at once when a party reaches the last step of the goal track (it wins), after the
round whose event carries the end flag, or after the last round. Otherwise the party with most
goal steps wins; a tie goes to the larger treasury; still tied, the win is shared.
"""

from __future__ import annotations

from .tables import T


def result(state: dict) -> dict | None:
    over = state.get("over")
    if not over:
        return None
    n = state["seats"]
    goals, food = state["goals"], state["food"]
    key = {s: (goals[s], food[s]) for s in range(n)}
    ranking = sorted(range(n), key=lambda s: (-goals[s], -food[s], s))
    if over["winner"] is not None:
        w = over["winner"]
        ranking.remove(w)
        ranking.insert(0, w)
        winners = [w]
        how = (f"seat {w} reached the last step ({T.goal_track}) of the goal track in round "
               f"{over['round']} and won at once")
    else:
        best = key[ranking[0]]
        winners = [s for s in ranking if key[s] == best]
        when = ("the event with the end flag was revealed" if over["reason"] == "end_flag"
                else "the last round was played")
        tied_goals = [s for s in range(n) if goals[s] == best[0]]
        if len(winners) > 1:
            how = (f"{when} in round {over['round']}; seats {winners} share the win with "
                   f"{best[0]} goal steps and {best[1]} food each")
        elif len(tied_goals) > 1:
            how = (f"{when} in round {over['round']}; seats {tied_goals} tied on {best[0]} goal "
                   f"steps and seat {winners[0]} won with the larger treasury ({best[1]} food)")
        else:
            how = (f"{when} in round {over['round']}; seat {winners[0]} won with {best[0]} goal "
                   "steps")
    return {
        "scores": {s: goals[s] for s in range(n)},
        "ranking": ranking,
        "details": {
            "reason": over["reason"], "round": over["round"], "winners": winners,
            "shared": len(winners) > 1, "goal_steps": list(goals), "treasury": list(food),
            "goal_track": T.goal_track, "tiebreak": "treasury", "explanation": how,
        },
    }
