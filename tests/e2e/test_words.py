"""Words of the table that misled (issue #30, item 6 of its list), through the client's own
modules in Chromium, in English and Ukrainian, with the game's real tables and cards.

- Animals in slot 1 (strength 1, side I) plays no animal: it says so, not "strength 0"; one
  animal is "1 animal", two are "2 animals".
- A university answer says what it gives (science, gains, hand limit) from the tables.
- A project's support answer names the project.
- A card ability's log line says what the ability does.
- Ukrainian: a card something is tucked under takes "під карту «…»", never the nominative
  right after "під".
"""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.usefixtures("no_console_errors")

WORDS = """async () => {
  const { actionEffect } = await import('/js/arknova/explain.js');
  const { universityLabel } = await import('/js/arknova/words.js');
  const { sentence } = await import('/js/arknova/log.js');
  const { indexCatalog } = await import('/js/arknova/catalog.js');
  const { t } = await import('/js/i18n.js');
  const cat = await (await fetch('/api/catalog/arknova')).json();
  const byId = indexCatalog(cat);
  const tables = cat.tables;
  const withAbility = [...byId.values()].find(c => c.type === 'animal' && (c.abilities || []).some(a => a.keyword === 'sprint'));
  const ab = withAbility.abilities.find(a => a.keyword === 'sprint');
  return {
    slot1: actionEffect('animals', 1, 1, tables),
    one: actionEffect('animals', 2, 1, tables),
    two: actionEffect('animals', 5, 1, tables),
    research: universityLabel('research', tables),
    laboratory: universityLabel('laboratory', tables),
    ability: sentence({ kind: 'ability', data: { seat: 1, card: withAbility.id, keyword: 'sprint', value: ab.value } }, { byId, you: 0 }),
    name: withAbility.name,
    tucked: t('zoo.tucked_under', { count: 1, card: 'Рудий кенгуру' }),
    level: t('bar.level_of', { n: 2, project: 'X' }),
  };
}"""


@pytest.fixture(scope="module")
def page(server, browser, watch):
    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    p = watch.watch(ctx.new_page(), "words")
    p.set_default_timeout(30_000)
    yield p
    ctx.close()


def words(page, server, lang: str) -> dict:
    page.goto(server.url("/"))
    page.evaluate("(l) => localStorage.setItem('menagerie.lang', l)", lang)
    page.goto(server.url("/"))
    page.wait_for_load_state("load")
    return page.evaluate(WORDS)


def test_english(page, server):
    w = words(page, server, "en")
    # the tables: side I plays 0 animals at strength 1, 1 at strength 2, 2 at strength 5
    assert w["slot1"] == "At strength 1 this plays no animal (it only moves the card to slot 1)."
    assert w["one"] == "Play up to 1 animal from your hand."
    assert w["two"] == "Play up to 2 animals from your hand."
    assert w["research"] == "University: Research — 1 science, 2 reputation, hand limit 3"
    assert w["laboratory"] == "University: Laboratory — 2 science, hand limit 3"
    assert w["level"] == "Level 2 of X"
    # the ability's line: the card, the keyword and what it does
    assert w["ability"].startswith(f"{w['name']} (")
    assert "Sprint" in w["ability"] and " — " in w["ability"]
    assert len(w["ability"].split(" — ", 1)[1]) > 10


def test_ukrainian(page, server):
    w = words(page, server, "uk")
    assert "1" in w["slot1"] and "не грає тварин" in w["slot1"]
    assert w["one"] == "Зіграйте до 1 тварини з руки."
    assert w["two"] == "Зіграйте до 2 тварин з руки."
    assert w["research"].startswith("Університет: ") and "ліміт руки 3" in w["research"]
    assert w["tucked"] == "1 під карту «Рудий кенгуру»"
    assert "під Рудий" not in w["tucked"]
