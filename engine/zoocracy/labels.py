"""Labels of Zoocracy's answers for analysis reports and hints (see
:mod:`engine.bots.labels`); keys reuse the client's ``zc.answer.*`` messages where it has
one, else ``analysis.label.*``. Params hold ids (cards, enclosures, parties = seats, offices),
which the client names in the reader's language; each key always comes with the same params
(the client's catalogues say every label in English, Ukrainian and German)."""

from __future__ import annotations

from ..bots.labels import label
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

#: answers naming one party (and no enclosure): type -> (key, English with {party})
PARTY = {
    "add": ("analysis.label.zc_add", "Add {party} to the coalition"),
    "target": ("analysis.label.zc_target", "Target {party}"),
    "goal": ("analysis.label.zc_goal", "Goal for {party}"),
    "assign": ("analysis.label.zc_assign", "Goal to {party}"),
}


def _party(p) -> str:
    return f"party {int(p) + 1}"


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
        said = "Vote yes" if a["yes"] else "Vote no"
        if a.get("card"):  # the card doubles the vote
            return label("analysis.label.zc_vote_card", f"{said} ×2 ({_card(a['card'])})",
                         yes=a["yes"], card=a["card"])
        return label("analysis.label.zc_vote", said, yes=a["yes"])
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
    if t == "target" and set(a) == {"type", "party", "enclosure"}:
        return label("analysis.label.zc_target_in",
                     f"Target the marker of {_party(a['party'])} in the {_enc(a['enclosure'])}",
                     party=a["party"], enclosure=a["enclosure"])
    if t == "negative" and set(a) == {"type", "party", "enclosure"}:
        return label("analysis.label.zc_negative",
                     f"Swap a marker of {_party(a['party'])} in the {_enc(a['enclosure'])}",
                     party=a["party"], enclosure=a["enclosure"])
    if t == "office" and set(a) == {"type", "party", "office"} and a["office"] in OFFICES:
        return label("analysis.label.zc_office",
                     f"{OFFICES[a['office']]}: {_party(a['party'])}",
                     office=a["office"], party=a["party"])
    if t in PARTY and set(a) <= {"type", "party", "slot"} and "party" in a:
        key, text = PARTY[t]
        return label(key, text.format(party=_party(a["party"])), party=a["party"])
    return None

