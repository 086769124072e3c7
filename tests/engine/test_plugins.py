"""A game is one plugin: the manifest ``engine/games.json`` lists the installed games, each
package's ``PLUGIN`` gives its rules, evaluators, describer and card events (issue #34 item 5)."""

from __future__ import annotations

import json
import re
import sys
import types

import pytest

import engine
from engine.bots import labels
from engine.bots.evaluation import Evaluator, evaluator_for
from engine.core import Game, Plugin, registry


def test_the_manifest_lists_the_installed_games_and_their_plugins():
    assert registry.installed() == [("arknova", "engine.arknova"), ("zoocracy", "engine.zoocracy")]
    assert engine.game_names() == ["arknova", "zoocracy"]
    for name, package in registry.installed():
        plugin = engine.plugin_of(name)
        assert plugin is sys.modules[package].PLUGIN
        assert plugin.game is engine.get_game(name) and plugin.name == name
    assert engine.plugin_of("chess") is None


def test_evaluators_and_describers_come_from_the_plugin():
    from engine.arknova.bot import learned, margin
    from engine.arknova.bot.evaluate import EVALUATOR as ARK
    from engine.arknova.presentation import labels as ark_labels
    from engine.zoocracy import labels as zoo_labels
    from engine.zoocracy.evaluate import EVALUATOR as ZOO

    ark, zoo = engine.get_game("arknova"), engine.get_game("zoocracy")
    assert evaluator_for(ark) is ARK
    assert evaluator_for(ark, "learned") is learned.EVALUATOR
    assert evaluator_for(ark, "margin") is margin.EVALUATOR
    assert evaluator_for(zoo) is ZOO
    assert evaluator_for(zoo, "learned") is ZOO  # no such variant: the game's own
    x = {"type": "x_token", "card": "build"}
    assert labels.describe(ark, None, 0, x) == ark_labels.describe(None, 0, x)
    assert labels.describe(ark, None, 0, x)["text"] == "X token (Build to slot 1)"
    assert labels.describe(zoo, None, 0, {"type": "pass"}) == zoo_labels.describe(None, 0, {"type": "pass"})
    assert labels.describe(zoo, None, 0, {"type": "pass"})["key"] == "analysis.label.zc_pass"
    assert engine.plugin_of("arknova").card_events == ("animal", "sponsor")
    assert engine.plugin_of("zoocracy").card_events == ()


def Toy() -> Game:  # noqa: N802 (a game, as the rules packages make theirs)
    return Game(name="plugtoy", title="Toy", min_seats=1, max_seats=1)


def test_a_plugin_registers_its_evaluator_and_describer_by_name():
    ev = Evaluator(value=lambda state, seat: 7.0)
    plugin = Plugin(Toy(), evaluators={"": lambda: ev}, describer=lambda: lambda s, seat, a: labels.label(
        "analysis.label.generic", "toy move"))
    try:
        game = engine.register(plugin)
        assert engine.get_game("plugtoy") is game is plugin.game
        assert evaluator_for(game) is ev
        assert labels.describe(game, None, 0, {"type": "go"})["text"] == "toy move"
        # a bare game replacing it keeps the plugin's parts
        engine.register(Toy(), replace=True)
        assert engine.plugin_of("plugtoy").describer is plugin.describer
    finally:
        engine.unregister("plugtoy")
    assert engine.plugin_of("plugtoy") is None


@pytest.mark.parametrize("raw, message", [
    ({"games": {}}, "'games' must be a list"),
    ({"games": [{"name": "a"}]}, "games[0] must be"),
    ({"games": [{"name": "a", "package": "p", "extra": 1}]}, "games[0] must be"),
    ({"games": [{"name": "a", "package": "p"}, {"name": "a", "package": "q"}]}, "listed twice"),
])
def test_a_malformed_manifest_is_refused(tmp_path, raw, message):
    path = tmp_path / "games.json"
    path.write_text(json.dumps(raw))
    with pytest.raises(ValueError, match=re.escape(message)):
        registry.installed(path)


def test_a_package_without_the_named_plugin_is_refused(monkeypatch):
    monkeypatch.setitem(sys.modules, "plugtoy_pkg", types.ModuleType("plugtoy_pkg"))
    with pytest.raises(ValueError, match="has no PLUGIN"):
        registry.load_plugin("plugtoy", "plugtoy_pkg")
    sys.modules["plugtoy_pkg"].PLUGIN = Plugin(Toy())  # type: ignore[attr-defined]
    assert registry.load_plugin("plugtoy", "plugtoy_pkg").name == "plugtoy"
    with pytest.raises(ValueError, match="not 'other'"):
        registry.load_plugin("other", "plugtoy_pkg")
