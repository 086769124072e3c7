"""The Association action (spec §4.4): reputation, partner zoos, universities, projects,
donations — and the workers each task needs."""

from __future__ import annotations

from ...core import event
from ..decisions import Decision, decision, finish, push
from ..gains import add_conservation, add_reputation, gain
from ..tables import T
from ..zoo import CONTINENTS, active_workers
from . import action
from .projects import support_options, support_project

TASKS = T.association.tasks


@action("association")
def start(state, seat, strength, side, ev):
    if strength > 0:
        push(state, "association", seat=seat, side=side, left=strength, done=[], donated=False)


def workers_needed(player: dict, task: str) -> int | None:
    """1 for a task's first use since the break, 2 for the second, None for a third."""
    uses = player["task_uses"].get(task, 0)
    return (1, 2, None)[min(uses, 2)]


def full_supply() -> dict:
    """The association board as the break leaves it: partner zoos by continent, universities."""
    sup = T.association.supply
    return {"partners": {c: sup.partners_per_continent for c in CONTINENTS},
            "universities": {u: sup.universities_each for u in T.association.universities}}


def refill_supply(state: dict) -> None:
    state["supply"] = full_supply()


def partner_options(state: dict, player: dict, side: int) -> list[str]:
    """Continents whose partner zoo the zoo may take now: left on the board and not its own."""
    limit = T.association.max_partners if side == 2 else T.association.partners_side1
    if len(player["partners"]) >= limit:
        return []
    left = state["supply"]["partners"]
    return [c for c in CONTINENTS if c not in player["partners"] and left.get(c, 0) > 0]


def university_options(state: dict, player: dict) -> list[str]:
    left = state["supply"]["universities"]
    return [u for u in T.association.universities
            if u not in player["universities"] and left.get(u, 0) > 0]


def donation_cost(state: dict) -> int:
    d = T.association.donations
    n = state["donations"]
    return d[n] if n < len(d) else T.association.donation_after


def take_partner(state, seat, continent, ev):
    p = state["players"][seat]
    p["partners"].append(continent)
    state["supply"]["partners"][continent] -= 1
    ev.append(event("partner_zoo", seat=seat, continent=continent))
    bonuses = T.association.partner_slot_bonuses
    gain(state, seat, bonuses[len(p["partners"]) - 1] if len(p["partners"]) <= len(bonuses)
         else None, ev, source="partner slot")


def take_university(state, seat, kind, ev):
    p = state["players"][seat]
    p["universities"].append(kind)
    state["supply"]["universities"][kind] -= 1
    ev.append(event("university", seat=seat, university=kind))
    gain(state, seat, T.association.universities[kind].gain, ev, source=kind)
    bonuses = T.association.university_slot_bonuses
    gain(state, seat, bonuses[len(p["universities"]) - 1]
         if len(p["universities"]) <= len(bonuses) else None, ev, source="university slot")


@decision
class Association(Decision):
    kind = "association"

    def skip(self, state, frame):
        return frame["side"] == 1 and bool(frame["done"])

    def legal(self, state, frame, seat):
        p = state["players"][seat]
        out = []
        side = frame["side"]
        for task, value in TASKS.items():
            if value > frame["left"] or task in frame["done"]:
                continue
            need = workers_needed(p, task)
            if need is None or need > active_workers(p):
                continue
            if task == "reputation":
                out.append({"type": "task", "task": "reputation"})
            elif task == "partner":
                out += [{"type": "task", "task": "partner", "continent": c}
                        for c in partner_options(state, p, side)]
            elif task == "university":
                out += [{"type": "task", "task": "university", "university": u}
                        for u in university_options(state, p)]
            else:
                out += support_options(state, seat, side)
        if side == 2 and frame["done"] and not frame["donated"] and \
                p["money"] >= donation_cost(state):
            out.append({"type": "donate"})
        out.append({"type": "done"})
        return out

    def apply(self, state, frame, seat, action, ev):
        p = state["players"][seat]
        kind = action["type"]
        if kind == "done":
            finish(state, frame)
            return
        if kind == "donate":
            cost = donation_cost(state)
            p["money"] -= cost
            state["donations"] += 1
            frame["donated"] = True
            ev.append(event("donation", seat=seat, cost=cost))
            add_conservation(state, seat, 1, ev)
            return
        task = "project" if kind == "support" else action["task"]
        p["placed"] += workers_needed(p, task)
        p["task_uses"][task] = p["task_uses"].get(task, 0) + 1
        frame["done"].append(task)
        frame["left"] -= TASKS[task]
        if task == "reputation":
            ev.append(event("task", seat=seat, task="reputation"))
            add_reputation(state, seat, T.association.reputation_task_gain, ev)
        elif task == "partner":
            take_partner(state, seat, action["continent"], ev)
        elif task == "university":
            take_university(state, seat, action["university"], ev)
        else:
            support_project(state, seat, action, ev)
