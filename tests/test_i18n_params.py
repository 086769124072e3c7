"""Every t()/tv()/tOr() call of the client gives each placeholder its sentence has (fast, no
browser): a call ``t("zc.final.why_end_flag", { round })`` must name ``round``, else the page
shows "in round {round}".

The check reads static/js: a call whose key is a string literal, or literals chosen by ``?:`` or
``||`` (``t(dec.anywhere ? "ask.snap_anywhere" : "ask.snap", {...})``), and whose parameters are
an object literal without a spread (or none at all). Other calls (keys built at run time, the
parameters of an event) are the browser tests' part: the pages record the placeholders a call
left unfilled (``window.menagerie.unfilled()``, static/js/i18n.js; tests/e2e/test_placeholders.py).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STATIC = ROOT / "static"
PLACEHOLDER = re.compile(r"\{(\w+)\}")
CALL = re.compile(r"(?<![\w.$])(t|tv|tOr)\(")
#: where the parameters are: t(key, params), tv(key, variant, params), tOr(key, fallback, params)
PARAMS_AT = {"t": 1, "tv": 2, "tOr": 2}
VARIANTS = (".you", ".you_obj")
KEY_LITERAL = re.compile(r"""(["'])([\w.\-]+)\1""")


def placeholders(value) -> set[str]:
    texts = value.values() if isinstance(value, dict) else [value]
    return {name for text in texts for name in PLACEHOLDER.findall(text)}


def arguments(src: str, start: int) -> list[str]:
    """The top-level arguments of the call whose "(" ends just before ``start``."""
    args, cur, depth, quote, i = [], [], 0, None, start
    while i < len(src):
        c = src[i]
        if quote:
            cur.append(c)
            if c == "\\":
                cur.append(src[i + 1])
                i += 1
            elif c == quote:
                quote = None
        elif c in "\"'`":
            quote = c
            cur.append(c)
        elif c in "([{":
            depth += 1
            cur.append(c)
        elif c in ")]}":
            if depth == 0:
                args.append("".join(cur))
                return args
            depth -= 1
            cur.append(c)
        elif c == "," and depth == 0:
            args.append("".join(cur))
            cur = []
        else:
            cur.append(c)
        i += 1
    return args


def object_names(expr: str | None) -> set[str] | None:
    """The names an object literal gives (``{ a: 1, b }``); None where they cannot be read."""
    if expr is None:
        return set()
    expr = expr.strip()
    if not (expr.startswith("{") and expr.endswith("}")):
        return None
    names = set()
    for part in arguments(expr[1:-1] + ")", 0):
        part = part.strip()
        if not part:
            continue
        m = re.match(r"""["']?([A-Za-z_$][\w$]*)["']?\s*(?::|$)""", part)
        if part.startswith("...") or not m:
            return None
        names.add(m.group(1))
    return names


def unfilled_calls(static: Path) -> list[str]:
    """``file:line: key lacks {names}`` for each call that leaves a placeholder unfilled."""
    english = json.loads((static / "i18n" / "en.json").read_text(encoding="utf-8"))
    out = []
    for path in sorted((static / "js").rglob("*.js")):
        src = path.read_text(encoding="utf-8")
        for call in CALL.finditer(src):
            fn = call.group(1)
            args = arguments(src, call.end())
            if not args or "`" in args[0]:
                continue  # a key built at run time
            at = PARAMS_AT[fn]
            given = object_names(args[at] if len(args) > at else None)
            if given is None:
                continue
            keys = [k for _, k in KEY_LITERAL.findall(args[0]) if k in english]
            if fn == "tv":
                keys += [k + v for k in keys for v in VARIANTS if k + v in english]
            for key in keys:
                lacking = placeholders(english[key]) - given
                if lacking:
                    line = src.count("\n", 0, call.start()) + 1
                    out.append(f"{path.relative_to(static).as_posix()}:{line}: {key} lacks "
                               + ", ".join(f"{{{n}}}" for n in sorted(lacking)))
    return out


def test_every_call_fills_its_placeholders():
    assert unfilled_calls(STATIC) == []


def test_the_check_reads_the_calls():
    # the client has hundreds of calls with literal keys; the checker sees them
    calls = sum(len(CALL.findall(p.read_text(encoding="utf-8"))) for p in (STATIC / "js").rglob("*.js"))
    assert calls > 1000


def test_an_unfilled_placeholder_is_found(tmp_path):
    (tmp_path / "i18n").mkdir()
    (tmp_path / "js").mkdir()
    (tmp_path / "i18n" / "en.json").write_text(json.dumps({
        "a": "in round {round}", "b": "{name} and {n}", "c": {"one": "{count} x", "other": "{count} xs"},
        "d": "{name} did", "d.you": "{name} did, {you}", "e": "plain"}))
    (tmp_path / "js" / "x.js").write_text(
        't("a", { round });\n'                                  # fine
        't("a");\n'                                             # lacks round
        't(cond ? "a" : "e", { turn: 1 });\n'                   # "a" lacks round
        'tOr("b", "fallback", { name: f(x, y), m: 2 });\n'      # lacks n
        't("c", {});\n'                                         # lacks count
        'tv("d", "you", { name });\n'                           # the variant lacks you
        't(`a.${x}`);\n'                                        # run time: the browser's part
        't("b", { ...p });\n'                                   # a spread: the browser's part
        'at("a");\n')                                           # not t()
    assert unfilled_calls(tmp_path) == [
        "js/x.js:2: a lacks {round}",
        "js/x.js:3: a lacks {round}",
        "js/x.js:4: b lacks {n}",
        "js/x.js:5: c lacks {count}",
        "js/x.js:6: d.you lacks {you}",
    ]
