"""Labels of the zoo builder's answers for analysis reports and hints
(see :mod:`engine.bots.labels`). Keys reuse the client's ``answer.*`` / ``bar.*`` messages
where it has one for the answer, else ``analysis.label.*``; params hold ids (cards, action
cards, buildings, continents), which the client names from its catalogue."""

from __future__ import annotations

from ...bots.labels import label
from ..content import load_content

ACTIONS = {"animals": "Animals", "build": "Build", "cards": "Cards",
           "association": "Association", "sponsors": "Sponsors"}


def card_name(cid) -> str:
    try:
        return load_content().card(cid).name
    except KeyError:
        return str(cid)


def _building_name(bid: str) -> str:
    if bid.startswith("enclosure_"):
        return f"enclosure ({bid.rsplit('_', 1)[1]})"
    special = load_content().buildings.get(bid)
    return special.name if special is not None and getattr(special, "name", None) else \
        bid.replace("_", " ")


def _folder_card(state, folder):
    try:
        return state["display"][int(folder) - 1] if state else None
    except (IndexError, TypeError, ValueError):
        return None


def _home(state, seat, bid) -> str:
    """`` in enclosure (3) at 0,5`` for the seat's building ``bid`` (empty when unknown)."""
    if state is None or bid is None:
        return ""
    try:
        b = next(b for b in state["players"][seat]["buildings"] if b["id"] == bid)
    except (StopIteration, KeyError, IndexError, TypeError):
        return ""
    where = f" at {b['cells'][0][0]},{b['cells'][0][1]}" if b.get("cells") else ""
    return f" in {_building_name(b['type'])}{where}"


def describe(state, seat, a) -> dict | None:
    t = a.get("type")
    if t == "action":
        name, x = ACTIONS.get(a["card"], a["card"]), a.get("x", 0)
        text = f"{name} action" + (f" with {x} X token{'s' if x > 1 else ''}" if x else "")
        return label("analysis.label.action", text, action=a["card"], x=x)
    if t == "x_token":
        return label("analysis.label.x_token",
                     f"X token ({ACTIONS.get(a['card'], a['card'])} to slot 1)", action=a["card"])
    if t == "keep":
        return label("analysis.label.keep", "Keep " + ", ".join(card_name(c) for c in a["cards"]),
                     cards=list(a["cards"]))
    if t == "keep_card":
        return label("analysis.label.keep_card", f"Keep {card_name(a['card'])}", card=a["card"])
    if t == "building":
        return label("analysis.label.building", f"Build {_building_name(a['building'])}",
                     building=a["building"])
    if t == "place":
        cells = [list(c[:2]) for c in a["cells"]]
        return label("analysis.label.place", f"at {cells[0][0]},{cells[0][1]}", cells=cells)
    if t == "animal":
        src = f" from folder {a['folder']}" if a.get("folder") else ""
        home = _home(state, seat, a.get("enclosure"))
        return label("analysis.label.animal", f"Play {card_name(a['card'])}{src}{home}",
                     card=a["card"], enclosure=a.get("enclosure"), folder=a.get("folder"))
    if t == "sponsor":
        return label("analysis.label.sponsor", f"Play sponsor {card_name(a['card'])}",
                     card=a["card"], folder=a.get("folder"))
    if t == "support":
        return label("analysis.label.support",
                     f"Support {card_name(a['project'])} (level {a['level'] + 1})",
                     project=a["project"], level=a["level"], release=a.get("release"))
    # a partner zoo or a university: an Association task, or the answer of a bonus
    kind = a["task"] if t == "task" else t
    if kind == "partner":
        return label("bar.partner_zoo", f"Partner zoo: {a['continent'].capitalize()}",
                     continent=a["continent"])
    if kind == "university":
        return label("bar.university", f"University: {a['university'].capitalize()}",
                     university=a["university"])
    if t == "task":
        return label("analysis.label.task", f"Association: {kind.replace('_', ' ')}", task=kind)
    if t in ("sell", "pouch"):  # a hand card for a sell or pouch ability
        verb = "Sell" if t == "sell" else "Tuck"
        return label("analysis.label.hand_card", f"{verb} {card_name(a['card'])}", verb=t,
                     card=a["card"])
    if t in ("discard", "discard_final"):
        return label("answer.discard", f"Discard {card_name(a['card'])}", card=a["card"])
    if t == "relocate":
        return label("analysis.label.relocate", f"Move {card_name(a['card'])}", card=a["card"])
    if t in ("done", "skip"):
        return label(f"answer.{t}", t.capitalize())
    if t == "back":
        return label("answer.back_short", "Back")
    if t in ("draw", "snap", "dig", "pick"):
        folder = a.get("folder") if t != "pick" else (a["from"] if a["from"] != "deck" else None)
        if t == "dig" and not folder:
            return label("answer.dig_hand", f"Replace {card_name(a['card'])} from hand",
                         card=a["card"])
        if not folder:
            return label("answer.draw_deck" if t == "draw" else "answer.pick_deck",
                         "Draw from the deck" if t == "draw" else "Top card of the deck")
        cid = _folder_card(state, folder)
        verb = {"draw": "Draw", "snap": "Snap", "dig": "Replace", "pick": "Take"}[t]
        key = {"draw": "answer.draw_folder", "snap": "answer.snap_folder",
               "dig": "answer.dig_folder", "pick": "answer.pick_folder"}[t]
        return label(key, f"{verb} folder {folder}" + (f": {card_name(cid)}" if cid else ""),
                     folder=folder, card=cid)
    if t == "upgrade":
        return label("answer.upgrade", f"Upgrade {ACTIONS.get(a['card'], a['card'])}",
                     action=a["card"])
    if t in ("move_card", "hypnotize"):
        verb = "Move to slot 1:" if t == "move_card" else "Use"
        return label(f"answer.{t}", f"{verb} {ACTIONS.get(a['card'], a['card'])}",
                     action=a["card"])
    if t == "break_action":
        return label("answer.break_action_any", "Break action: money, advance the break")
    if t == "donate":
        return label("bar.donate", "Donate for 1 conservation")
    if t == "bonus":
        choice = a.get("choice")
        if choice in ("upgrade", "worker"):
            return label(f"answer.bonus_{choice}",
                         "Upgrade an action" if choice == "upgrade" else "Extra worker")
        return None
    if t == "give":
        return label("answer.give_money" if a.get("what") == "money" else "answer.give_card",
                     "Give money" if a.get("what") == "money" else "Give a random hand card")
    if t == "tile":
        return label("analysis.label.tile", f"Bonus tile {a['tile']}", tile=a["tile"])
    if t == "tile_money":
        return label("answer.tile_money_any", "Take the money instead")
    return None

