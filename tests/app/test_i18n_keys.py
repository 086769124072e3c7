"""Refusals named by catalogue key (issue #34): ``Refusal(code, say(key, **text))``.

Every key a raise site names exists in en/uk/de with the same placeholders; the English message
is en.json's template filled (the sentence the site sent before); the edge fills the same key of
uk/de from the refusal's parameters, whatever the English text.
"""

from __future__ import annotations

import ast
import copy
import pickle
import re
from collections import Counter
from pathlib import Path
from types import SimpleNamespace

import pytest

from app import credentials, i18n, quotas
from app.refusal import Refusal, Sentence, not_found, say

APP = Path(__file__).resolve().parents[2] / "app"
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def _say_calls() -> list[tuple[str, int, str, set[str]]]:
    """(file, line, key, parameter names) of every ``say("key", ...)`` in app/."""
    found = []
    for path in sorted(APP.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id == "say" and node.args
                    and isinstance(node.args[0], ast.Constant)):
                names = {k.arg for k in node.keywords if k.arg is not None}
                found.append((str(path.relative_to(APP)), node.lineno, node.args[0].value, names))
    return found


def test_the_raise_sites_name_keys() -> None:
    # the conversion of issue #34: most raise sites name their sentence by key
    assert len(_say_calls()) >= 160


@pytest.mark.parametrize("lang", ["en", "uk", "de"])
def test_every_key_of_a_raise_site_exists_with_the_same_placeholders(lang: str) -> None:
    english, target = i18n.catalogue("en"), i18n.catalogue(lang)
    for where, line, key, names in _say_calls():
        assert key in target, f"{where}:{line}: {key} missing in {lang}.json"
        wanted = set(PLACEHOLDER.findall(english[key]))
        assert set(PLACEHOLDER.findall(target[key])) == wanted, (where, line, key, lang)
        # the site gives exactly the template's parameters (none left unfilled, none unused)
        assert names == wanted, (where, line, key, names)


def test_the_english_message_is_the_template_filled_and_the_body_is_unchanged() -> None:
    exc = Refusal("seat_taken", say("seat_taken", seat=3))
    assert exc.message == "Seat 3 is taken."
    assert (exc.key, exc.text) == ("seat_taken", {"seat": 3})
    # the sentence's parameters are not the body's
    assert exc.body() == {"error": {"code": "seat_taken", "message": "Seat 3 is taken."}}
    assert type(exc.body()["error"]["message"]) is str
    exc = Refusal("bad_seats", say("bad_seats.seek", game="Ark Nova", min=2, max=4), min=2, max=4)
    assert exc.body() == {"error": {"code": "bad_seats", "min": 2, "max": 4,
                                    "message": "A quick match of Ark Nova takes 2 to 4 players."}}
    with pytest.raises(KeyError):
        say("no_such_key.anywhere")


def test_a_few_raise_sites_send_the_old_sentence() -> None:
    # the sentences these sites sent before they named a key (git show main~:app/...)
    with pytest.raises(Refusal) as caught:
        credentials.check_password("short")
    assert caught.value.message == "A password is 8 to 256 characters long."
    assert caught.value.key == "bad_password"
    with pytest.raises(Refusal) as caught:
        quotas.check_new_game(SimpleNamespace(max_active_games_per_user=3),  # type: ignore[arg-type]
                              3, Counter(), Counter(), None)
    assert caught.value.message == "You have 3 unfinished games already; finish one first."
    assert caught.value.body()["error"]["limit"] == 3
    assert not_found("game").message == "No such game."
    assert not_found("game").key == "not_found.game"
    assert not_found("API route").key == "not_found.api_route"
    assert not_found("page").message == "No such page."
    assert (not_found("page").key, not_found("page").text) == ("not_found.what", {"what": "page"})


@pytest.mark.parametrize("lang", ["uk", "de"])
def test_a_keyed_refusal_is_translated_by_key_and_parameters(lang: str) -> None:
    exc = Refusal("seat_taken", say("seat_taken", seat=3))
    expected = i18n.fill(i18n.catalogue(lang)["seat_taken"], {"seat": 3})
    assert "3" in expected and expected != exc.message
    assert i18n.translate(exc.code, exc.message, lang) == expected
    # the WebSocket path: the message alone carries its key
    assert i18n.localize_error(exc.code, exc.message, lang)["message"] == expected
    # the HTTP edge: by the refusal's key and parameters, not by the English text, so a
    # reworded English sentence keeps its translation
    request = SimpleNamespace(headers={"accept-language": lang})
    body = {"error": {"code": "seat_taken", "message": "Seat number three is occupied."}}
    assert i18n.localize(body, request, exc.key, exc.text)["error"]["message"] == expected
    # without a key the old matching finds nothing for the reworded sentence
    assert i18n.localize(body, request)["error"]["message"] == i18n.catalogue(lang)["seat_taken"]
    assert i18n.translate(exc.code, exc.message, "en") == "Seat 3 is taken."


@pytest.mark.parametrize("lang", ["uk", "de"])
def test_choices_take_the_languages_or(lang: str) -> None:
    sentence = say("bad_options.choices", name="'map'", choices="'a', 'b' or 'c'")
    assert sentence == "Option 'map' must be one of 'a', 'b' or 'c'."
    said = i18n.translate("bad_options", sentence, lang)
    word = i18n.catalogue(lang)["word.or"]
    assert f"'a', 'b' {word} 'c'" in said


def test_a_sentence_survives_a_copy_and_a_pickle() -> None:
    sentence = say("seat_taken", seat=1)
    for again in (copy.deepcopy(sentence), pickle.loads(pickle.dumps(sentence))):
        assert isinstance(again, Sentence)
        assert (again, again.key, again.text) == ("Seat 1 is taken.", "seat_taken", {"seat": 1})
