"""A tiny test-only game that exercises the engine contract (never offered by the server).

"Hidden high card": every seat holds a hidden hand; each round all seats choose a card at the
same time (a simultaneous, secret decision), the highest card wins the sum of the cards played,
then the winner alone decides to draw a card or take 1 point (a sequential follow-up).
"""

from __future__ import annotations

from engine.core import Game, IllegalAction, Option, Plugin, event, rng as _rng


class ToyGame(Game):
    def __init__(self) -> None:
        super().__init__(name="toy", title="Hidden high card (test game)", min_seats=2,
                         max_seats=4, options=(Option("rounds", 3, "Rounds to play", (2, 3)),))

    def _setup(self, seats, options, seed):
        state = {"rng": _rng.seed_to_int(seed), "seats": seats, "options": options,
                 "round": 1, "phase": "play", "winner": None,
                 "scores": [0] * seats, "chosen": [None] * seats, "hands": [], "last": None}
        deck = list(range(1, 21))
        _rng.shuffle(state, deck)
        state["hands"] = [sorted(deck[i * 3:(i + 1) * 3]) for i in range(seats)]
        state["deck"] = deck[seats * 3:]
        return state

    def _waiting_for(self, state):
        if state["phase"] == "play":
            return [s for s in range(state["seats"]) if state["chosen"][s] is None]
        if state["phase"] == "reward":
            return [state["winner"]]
        return []

    def _legal_actions(self, state, seat):
        if state["phase"] == "play":
            return [{"type": "play", "card": c} for c in state["hands"][seat]]
        acts = [{"type": "score"}]
        if state["deck"]:
            acts.insert(0, {"type": "draw"})
        return acts

    def _explain_illegal(self, state, seat, action, legal):
        if action.get("type") == "play":
            return IllegalAction("not_in_hand", "You do not hold that card.")
        return super()._explain_illegal(state, seat, action, legal)

    def _apply(self, state, seat, action):
        events = []
        if action["type"] == "play":
            state["chosen"][seat] = action["card"]
            state["hands"][seat].remove(action["card"])
            events.append(event("chose", seat=seat))
            if all(c is not None for c in state["chosen"]):
                played = state["chosen"]
                winner = max(range(state["seats"]), key=lambda s: played[s])
                state["scores"][winner] += sum(played)
                state["last"] = list(played)
                state["chosen"] = [None] * state["seats"]
                state["winner"] = winner
                state["phase"] = "reward"
                events.append(event("revealed", cards=list(played), winner=winner))
        elif action["type"] == "draw":
            card = state["deck"].pop()
            state["hands"][seat].append(card)
            state["hands"][seat].sort()
            events.append(event("drew", seat=seat))
            events.append(event("drew_card", only=[seat], seat=seat, card=card))
            self._next_round(state)
        else:
            state["scores"][seat] += 1
            events.append(event("scored", seat=seat))
            self._next_round(state)
        return events

    def _next_round(self, state):
        state["round"] += 1
        state["winner"] = None
        if state["round"] > state["options"]["rounds"]:
            state["phase"] = "over"
        else:
            state["phase"] = "play"

    def information_marks(self, state):
        """The generator, the deck and the secret cards chosen so far (revealed together)."""
        return (state["rng"], len(state["deck"]), [c is None for c in state["chosen"]])

    def _public_view(self, state):
        return {"round": state["round"], "phase": state["phase"], "scores": state["scores"],
                "hand_sizes": [len(h) for h in state["hands"]], "deck_size": len(state["deck"]),
                "answered": [c is not None for c in state["chosen"]], "last": state["last"],
                "winner": state["winner"]}

    def _private_view(self, state, seat):
        return {"hand": list(state["hands"][seat]), "chosen": state["chosen"][seat]}

    def determinize(self, state, seat, rng):
        """Deal other seats' hands and the deck again from the cards hidden from ``seat``;
        other seats' secret choices are drawn from the cards ``seat`` has not seen."""
        from engine.core.state import clone

        s = clone(state)
        holder = {"rng": _rng.next_u64(rng)}
        others = [o for o in range(s["seats"]) if o != seat]
        pool = sorted(s["deck"] + [c for o in others for c in s["hands"][o]])
        _rng.shuffle(holder, pool)
        for o in others:
            n = len(s["hands"][o])
            s["hands"][o], pool = sorted(pool[:n]), pool[n:]
        s["deck"] = pool
        seen = set(s["deck"]) | {c for h in s["hands"] for c in h} | set(s["last"] or ())
        seen.add(s["chosen"][seat])
        unseen = [c for c in range(1, 21) if c not in seen]
        _rng.shuffle(holder, unseen)
        for o in others:
            if s["chosen"][o] is not None:
                s["chosen"][o] = unseen.pop()
        s["rng"] = _rng.next_u64(holder)
        return s

    def _result(self, state):
        if state["phase"] != "over":
            return None
        scores = {s: state["scores"][s] for s in range(state["seats"])}
        ranking = sorted(scores, key=lambda s: (-scores[s], s))
        return {"scores": scores, "ranking": ranking, "details": {}}


TOY = ToyGame()
#: the toy as a plugin: no evaluator or describer of its own (the generic ones), and the
#: public event kinds a player's profile counts as cards played (the app tests write such events)
PLUGIN = Plugin(TOY, card_events=("animal", "sponsor"))


def hidden_values(state, seat):
    """What of ``seat`` must not show in another viewer's view (for the leak checks)."""
    return {"hand": state["hands"][seat], "chosen": state["chosen"][seat]}
