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


def describe(state, seat, a) -> dict | None:
    t = a.get("type")
    if t == "bid":
        return label("zc.answer.bid", f"Bid {a['amount']}", amount=a["amount"])
    if t == "card":
        return label("zc.answer.play", f"Play {_card(a['card'])}", card=a["card"])
    if t == "discard":
        return label("answer.discard", f"Discard {_card(a['card'])}", card=a["card"])
    if t == "place":
        return label("analysis.label.zc_place", f"+{a['count']} food in the {_enc(a['enclosure'])}",
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
    if t in ("add", "target", "office", "goal", "negative") and "party" in a \
            and set(a) <= {"type", "party", "office", "slot", "enclosure"}:
        what = {"add": "Add a member of", "target": "Target", "office": f"{a.get('office', '')} to",
                "goal": "Goal for", "negative": "Negative marker for"}[t].strip()
        where = f" in the {_enc(a['enclosure'])}" if a.get("enclosure") else ""
        return label(f"analysis.label.zc_{t}", f"{what.capitalize()} party {a['party'] + 1}{where}",
                     party=a["party"], office=a.get("office"), slot=a.get("slot"),
                     enclosure=a.get("enclosure"))
    return None


register_describer("zoocracy", describe)
