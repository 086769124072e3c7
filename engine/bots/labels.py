"""Short labels for answers, for analysis reports and hints.

A label is ``{"key": i18n key, "params": {...}, "text": English sentence}``: the client puts
the key into words in the reader's language (params hold ids: card ids, action-card ids,
continents, enclosures, which the client names from its catalogue), the CLI prints ``text``.

:func:`describe` asks, in order: the game's own ``describe_action(state, seat, action)`` if it
has one; a describer registered for the game (:func:`register_describer`), else the one its plugin
names (:class:`engine.core.plugin.Plugin` ``describer``, loaded on first use);
the generic label (``analysis.label.generic``: the answer's type and fields, as the generic
client table shows them). ``line`` (optional) is what the answer leads to: the seat's own
follow-up answers, summarised after the main label ("Build (enclosure 3 at 4,5)").

``state`` may be None (the position is unknown); describers must then fall back to what the
action alone says. A describer must only read what the deciding seat may see.
"""

from __future__ import annotations

from collections.abc import Callable

from ..core.registry import plugin_of

Describer = Callable[[object, int, dict], "dict | None"]
_DESCRIBERS: dict[str, Describer] = {}

#: The engine's own message keys of analysis labels and hint reasons (every other key a label
#: uses is one of the client's own ``answer.*``, ``bar.*`` or ``zc.answer.*`` messages;
#: tests/engine/test_analysis.py checks both). The client puts some of them into words in
#: every language (``static/js/analysis.js``) and shows the label's English text for the rest.
KEYS = frozenset(
    [f"analysis.label.{k}" for k in (
        "generic", "action", "x_token", "keep", "keep_card", "building", "place", "animal",
        "sponsor", "support", "task", "hand_card", "relocate", "tile", "zc_marker", "zc_vote", "zc_pass",
        "zc_add", "zc_target", "zc_office", "zc_goal", "zc_negative", "zc_assign", "zc_move",
        "zc_target_enclosure", "zc_target_in", "zc_vote_card", "zc_decline", "zc_pay",
        "zc_head_bonus", "zc_members_done")]
    + [f"analysis.reason.{k}" for k in ("forced", "clear", "better")])

#: Answer types that say nothing on their own in a line of follow-ups.
QUIET = frozenset({"done", "back", "skip", "members_done"})


def register_describer(name: str, fn: Describer) -> Describer:
    """``fn(state, seat, action)`` -> a label dict, or None to use the generic label."""
    _DESCRIBERS[name] = fn
    return fn


def label(key: str, text: str, **params) -> dict:
    return {"key": key, "params": params, "text": text}


def generic(action: dict) -> dict:
    """``"Type: field value, ..."``, as the generic client table writes an answer."""
    kind = str(action.get("type", "?"))
    bits = []
    for k, v in action.items():
        if k == "type":
            continue
        bits.append(f"{k.replace('_', ' ')} {v if not isinstance(v, (dict, list)) else _short(v)}")
    text = kind.replace("_", " ").capitalize() + (": " + ", ".join(bits) if bits else "")
    return label("analysis.label.generic", text, type=kind,
                 fields={k: v for k, v in action.items() if k != "type"})


def _short(v) -> str:
    import json

    s = json.dumps(v, separators=(",", ":"))
    return s if len(s) <= 40 else s[:37] + "..."


def _describer(game) -> Describer | None:
    own = getattr(game, "describe_action", None)
    if callable(own):
        return own
    fn = _DESCRIBERS.get(game.name)
    if fn is None:
        plugin = plugin_of(game.name)
        if plugin is not None and plugin.describer is not None:
            fn = _DESCRIBERS[game.name] = plugin.describer()
    return fn


def describe(game, state, seat: int, action: dict, line: list | None = None) -> dict:
    """The label of ``action`` (see the module doc); with ``line``, the follow-ups that say
    something are added as ``params["then"]`` (their labels) and in brackets to the text."""
    fn = _describer(game)
    out = None
    if fn is not None:
        try:
            out = fn(state, seat, action)
        except (KeyError, IndexError, TypeError, ValueError):  # an odd answer: say it plainly
            out = None
    out = out or generic(action)
    if line:
        then = []
        for a in line:
            if a.get("type") in QUIET:
                continue
            sub = None
            if fn is not None:
                try:
                    sub = fn(state, seat, a)
                except (KeyError, IndexError, TypeError, ValueError):
                    sub = None
            then.append(sub or generic(a))
        if then:
            then = then[:3]
            out = {**out, "params": {**out["params"], "then": then},
                   "text": f"{out['text']} ({'; '.join(t['text'] for t in then)})"}
    return out


__all__ = ["KEYS", "QUIET", "describe", "generic", "label", "register_describer"]
