"""Labels of Zoocracy's answers for analysis reports and hints (see
:mod:`engine.bots.labels`); keys reuse the client's ``zc.answer.*`` messages where it has
one, else ``analysis.label.*``. Params hold ids (cards, enclosures, parties = seats)."""

from __future__ import annotations

from ..bots.labels import label, register_describer
from .content import load_content


def _card(cid) -> str:
    try:
        return load_content().cards[cid].name
    except KeyError:
        return str(cid)


def _enc(eid) -> str:
    try:
        return load_content().enclosure(eid).name
    except KeyError:
        return str(eid).replace("_", " ")


OFFICES = {"head": "Head of government", "finance": "Finance minister",
           "defence": "Defence minister"}

#: answers without fields: (key, English)
SIMPLE = {
    "hold": ("zc.bar.keep_marker", "Keep the marker for later"),
    "call": ("zc.bar.call_nc", "Call a vote of no confidence"),
    "decline": ("analysis.label.zc_decline", "Decline"),
    "pay": ("analysis.label.zc_pay", "Pay for the goal and advance"),
    "head_bonus": ("analysis.label.zc_head_bonus", "Head of government: add food"),
    "members_done": ("analysis.label.zc_members_done", "Coalition complete"),
}


def describe(state, seat, a) -> dict | None:
    t = a.get("type")
    if t == "bid":
        return label("zc.answer.bid", f"Bid {a['amount']}", amount=a["amount"])
    if t == "card":
        return label("zc.answer.play", f"Play {_card(a['card'])}", card=a["card"])
    if t == "discard":
        return label("answer.discard", f"Discard {_card(a['card'])}", card=a["card"])
    if t == "place":
        return label("zc.bar.place_in", f"Place {a['count']} food in the {_enc(a['enclosure'])}",
                     count=a["count"], enclosure=a["enclosure"])
    if t == "marker":
        return label("analysis.label.zc_marker", f"Marker in the {_enc(a['enclosure'])}",
                     enclosure=a["enclosure"])
    if t == "vote":
        return label("analysis.label.zc_vote", "Vote yes" if a["yes"] else "Vote no",
                     yes=a["yes"], card=a.get("card"))
    if t == "pass":
        return label("analysis.label.zc_pass", "Pass")
    if t in ("done", "skip"):
        return label(f"answer.{t}", t.capitalize())
    if t in SIMPLE:
        key, text = SIMPLE[t]
        return label(key, text)
    if t == "target" and "from" in a:
        return label("analysis.label.zc_move", f"{_enc(a['from'])} → {_enc(a['to'])}",
                     **{"from": a["from"], "to": a["to"]})
    if t == "target" and "party" not in a and "enclosure" in a:
        return label("analysis.label.zc_target_enclosure", f"Target the {_enc(a['enclosure'])}",
                     enclosure=a["enclosure"])
    if t in ("add", "target", "office", "goal", "negative", "assign") and "party" in a \
            and set(a) <= {"type", "party", "office", "slot", "enclosure"}:
        office = OFFICES.get(a.get("office"), str(a.get("office", "")).replace("_", " "))
        what = {"add": "Add a member of", "target": "Target", "office": f"{office}:",
                "goal": "Goal for", "negative": "Negative marker for",
                "assign": "Goal to"}[t].strip()
        where = f" in the {_enc(a['enclosure'])}" if a.get("enclosure") else ""
        text = f"{what[0].upper()}{what[1:]} party {a['party'] + 1}{where}"
        return label(f"analysis.label.zc_{t}", text,
                     party=a["party"], office=a.get("office"), slot=a.get("slot"),
                     enclosure=a.get("enclosure"))
    return None


register_describer("zoocracy", describe)
