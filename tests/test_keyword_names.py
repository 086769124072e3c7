"""Card keywords have names of their own in Ukrainian and German (issue #14, item 11: "Clever"
and "Sprint" stayed English in German)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.arknova.content import load_content

I18N = Path(__file__).resolve().parents[1] / "static" / "i18n"
SAME_WORD = {"kiosk"}  # "Kiosk" is the German word too


def keywords() -> set[str]:
    cat = load_content().as_catalog()
    out = set()
    for group in cat.values():
        if isinstance(group, list):
            for c in group:
                for a in (c.get("abilities") or []) + (c.get("effects") or []):
                    out.add(a["keyword"])
    return out


@pytest.mark.parametrize("lang", ["uk", "de"])
def test_every_keyword_is_named_in_the_language(lang):
    en = json.loads((I18N / "en.json").read_text(encoding="utf-8"))
    other = json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))
    kws = keywords()
    assert {"clever", "sprint"} <= kws
    english = sorted(k for k in kws - SAME_WORD
                     if other.get(f"ability.{k}.name", en.get(f"ability.{k}.name")) == en.get(f"ability.{k}.name"))
    assert not english, f"{lang}: keyword names still English: {english}"
