"""Phase 4 (government formation) and phase 6 (vote of no confidence).

A proposal is a chain of decisions by the proposer: the coalition members one by one (the
proposer is always a member; "members_done" once their seats reach the majority), then who
holds each office (head of government, finance minister, defence minister: any member, one
party may hold several), then the two goal promises (the party that realises a goal in this
round's progress phase and a different party for the next round's). All parties then vote at
the same time, secretly; the proposal passes with more yes than no votes (by parties; a tie
fails). A rejected proposal passes the turn to the next party in seat order; when every party
has proposed in vain, the old government stays as a caretaker (its unused office powers stay
unused, nothing is renewed) or, with no government at all, the next parliamentary election
moves one round earlier.

With 2 parties there is no negotiation: the party with more seats (a tie: the one first in seat
order) holds every office and only names the order of the two goal promises.

Office powers (head: 2 free food in a campaign; finance: manipulation marker; defence: blockade
marker; opposition leader: negative campaign) can each be used once per government; a newly
formed government renews them all.
"""

from __future__ import annotations

from ..core import IllegalAction, event
from .cards import open_window
from .content import load_content
from .decisions import Decision, decision, finish, push
from .parties import discard_card, government_seats, in_order, opposition_leader
from .tables import T

OFFICES = ("head", "finance", "defence")
STEPS = ("members",) + OFFICES + ("goal_now", "goal_next")


def form_government(state: dict, proposal: dict, ev: list) -> None:
    r = state["round"]
    offices = proposal["offices"]
    state["gov"] = {"members": sorted(proposal["members"]), "head": offices["head"],
                    "finance": offices["finance"], "defence": offices["defence"],
                    "ready": {"head": True, "finance": True, "defence": True, "negative": True},
                    "caretaker": False, "formed": r, "proposer": proposal["seat"],
                    "had_majority": True}
    state["promises"][str(r)] = proposal["goals"]["now"]
    state["promises"][str(r + 1)] = proposal["goals"]["next"]
    state["opposition_leader"] = opposition_leader(state)
    ev.append(event("government_formed", members=sorted(proposal["members"]), offices=offices,
                    promises={str(r): proposal["goals"]["now"],
                              str(r + 1): proposal["goals"]["next"]},
                    opposition_leader=state["opposition_leader"]))


def formation_failed(state: dict, ev: list) -> None:
    if state["gov"] is not None:
        state["gov"]["caretaker"] = True
        state["opposition_leader"] = opposition_leader(state)
        ev.append(event("caretaker", members=state["gov"]["members"],
                        opposition_leader=state["opposition_leader"]))
    else:
        state["parl_round"] = state["round"] + T.election_every - 1
        ev.append(event("no_government", next_election=state["parl_round"]))


def duel_proposal(state: dict, seat: int) -> None:
    push(state, "proposal", seat=seat, mode="duel", queue=[], members=[seat],
         offices={o: seat for o in OFFICES}, goals={}, step="goal_now")


@decision
class PhaseGovernment(Decision):
    kind = "phase_government"
    auto = True

    def run(self, state, frame, ev):
        state["phase"] = "government"
        if not state["elected"]:
            return
        if sum(state["parliament"]) == 0:
            ev.append(event("no_seats"))
            formation_failed(state, ev)
            return
        order = in_order(state)
        if state["seats"] == 2:
            duel_proposal(state, order[0])
            return
        push(state, "proposal", seat=order[0], mode="formation", queue=order[1:],
             members=[order[0]], offices={}, goals={}, step="members")


def coalition_seats(state: dict, members: list[int]) -> int:
    return sum(state["parliament"][s] for s in members)


@decision
class Proposal(Decision):
    kind = "proposal"

    def legal(self, state, frame, seat):
        step = frame["step"]
        n = state["seats"]
        if step == "members":
            out = [{"type": "add", "party": p} for p in range(n) if p not in frame["members"]]
            if coalition_seats(state, frame["members"]) >= state["majority"]:
                out.append({"type": "members_done"})
            return out
        if step in OFFICES:
            return [{"type": "office", "office": step, "party": m}
                    for m in sorted(frame["members"])]
        if step == "goal_now":
            return [{"type": "goal", "slot": "now", "party": p} for p in range(n)]
        return [{"type": "goal", "slot": "next", "party": p} for p in range(n)
                if p != frame["goals"]["now"]]

    def apply(self, state, frame, seat, action, ev):
        kind = action["type"]
        if kind == "add":
            frame["members"].append(action["party"])
            return
        if kind == "members_done":
            frame["step"] = "head"
        elif kind == "office":
            frame["offices"][action["office"]] = action["party"]
            frame["step"] = STEPS[STEPS.index(frame["step"]) + 1]
        elif kind == "goal":
            frame["goals"][action["slot"]] = action["party"]
            if action["slot"] == "now":
                frame["step"] = "goal_next"
                return
            finish(state, frame)
            proposal = {k: frame[k] for k in ("seat", "members", "offices", "goals")}
            proposal["members"] = sorted(proposal["members"])
            if frame["mode"] == "duel":
                form_government(state, proposal, ev)
                return
            ev.append(event("proposal", mode=frame["mode"], **proposal))
            push(state, "vote", mode=frame["mode"], proposal=proposal, queue=frame["queue"],
                 votes={})

    def explain(self, state, frame, seat, action):
        if action.get("type") == "members_done":
            return IllegalAction("no_majority", f"The coalition needs {state['majority']} "
                                 "seats.")
        if action.get("type") == "goal" and frame["step"] == "goal_next":
            return IllegalAction("same_party", "The two goal promises go to two different "
                                 "parties.")
        return IllegalAction("wrong_step", f"The proposal now asks for: {frame['step']}.")


def double_cards() -> list[str]:
    return sorted(c.id for c in load_content().cards.values()
                  if c.effect.keyword == "double_vote")


@decision
class Vote(Decision):
    """Every party votes yes or no on the proposal, secretly and at the same time."""

    kind = "vote"
    hidden = ("votes",)
    simultaneous = True

    def seats(self, state, frame):
        return [s for s in range(state["seats"]) if str(s) not in frame["votes"]]

    def legal(self, state, frame, seat):
        out = [{"type": "vote", "yes": True}, {"type": "vote", "yes": False}]
        hand = set(state["hands"][seat])
        for c in double_cards():
            if c in hand:
                out += [{"type": "vote", "yes": True, "card": c},
                        {"type": "vote", "yes": False, "card": c}]
        return out

    def public(self, state, frame):
        out = super().public(state, frame)
        out["answered"] = sorted(int(s) for s in frame["votes"])
        return out

    def private(self, state, frame, seat):
        out = self.public(state, frame)
        out["mine"] = frame["votes"].get(str(seat))
        return out

    def apply(self, state, frame, seat, action, ev):
        frame["votes"][str(seat)] = {"yes": action["yes"], "card": action.get("card")}
        ev.append(event("voted", seat=seat))
        ev.append(event("my_vote", only=[seat], seat=seat, yes=action["yes"],
                        card=action.get("card")))
        if self.seats(state, frame):
            return
        finish(state, frame)
        votes = dict(sorted(frame["votes"].items(), key=lambda kv: int(kv[0])))
        yes = no = 0
        for s, v in votes.items():
            weight = 1 if T.vote_weight == "parties" else state["parliament"][int(s)]
            if v["card"] is not None:
                discard_card(state, int(s), v["card"])
                ev.append(event("card_played", seat=int(s), card=v["card"]))
                weight *= 2
            if v["yes"]:
                yes += weight
            else:
                no += weight
        accepted = yes > no
        state["last_vote"] = {"round": state["round"], "mode": frame["mode"],
                              "proposal": frame["proposal"], "votes": votes, "yes": yes,
                              "no": no, "accepted": accepted}
        ev.append(event("votes_revealed", votes=votes, yes=yes, no=no, accepted=accepted))
        if accepted:
            form_government(state, frame["proposal"], ev)
        elif frame["mode"] == "no_confidence":
            ev.append(event("no_confidence_failed"))
        elif frame["queue"]:
            nxt = frame["queue"][0]
            push(state, "proposal", seat=nxt, mode="formation", queue=frame["queue"][1:],
                 members=[nxt], offices={}, goals={}, step="members")
        else:
            formation_failed(state, ev)

    def explain(self, state, frame, seat, action):
        if action.get("type") == "vote" and action.get("card") is not None:
            return IllegalAction("card_not_playable", "You do not hold a card that doubles "
                                 "your vote.")
        return None


# ------------------------------------------------------------------ vote of no confidence
def no_confidence_possible(state: dict) -> bool:
    gov, ol = state["gov"], state["opposition_leader"]
    if gov is None or ol is None:
        return False
    # "only when action cards have left the government without a majority": it had one after
    # the last election (or its formation) and has lost it since
    lost = gov["had_majority"] and government_seats(state) < state["majority"]
    if not (lost or state["options"]["open_no_confidence"]):
        return False
    if state["seats"] == 2:  # no negotiation: the offices pass to a party with more seats
        return state["parliament"][ol] > government_seats(state)
    return True


@decision
class PhaseNoConfidence(Decision):
    kind = "phase_no_confidence"
    auto = True

    def run(self, state, frame, ev):
        state["phase"] = "no_confidence"
        push(state, "nc_check")
        open_window(state, "no_confidence")


@decision
class NoConfidenceCheck(Decision):
    kind = "nc_check"
    auto = True

    def run(self, state, frame, ev):
        if no_confidence_possible(state):
            push(state, "nc_offer", seat=state["opposition_leader"])


@decision
class NoConfidenceOffer(Decision):
    kind = "nc_offer"

    def legal(self, state, frame, seat):
        return [{"type": "call"}, {"type": "decline"}]

    def apply(self, state, frame, seat, action, ev):
        finish(state, frame)
        if action["type"] == "decline":
            ev.append(event("no_confidence_declined", seat=seat))
            return
        ev.append(event("no_confidence", seat=seat))
        if state["seats"] == 2:
            duel_proposal(state, seat)
        else:
            push(state, "proposal", seat=seat, mode="no_confidence", queue=[], members=[seat],
                 offices={}, goals={}, step="members")

