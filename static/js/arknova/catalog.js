// The Ark Nova catalog (GET /api/catalog/arknova) indexed for the page: every card by id, names and
// texts in the page's language. The cards are drawn by ./cards.js.
import { lang, tOr } from "../i18n.js";

/**
 * Index every card of a catalog by id; cards keep their group in `group`. Names and texts are
 * put into the page's language (`catalog.i18n[lang]`: card names and final-scoring texts by card
 * id; building and map names from the message catalogue); `name_en` keeps the English name.
 */
export function indexCatalog(catalog) {
  const byId = new Map();
  const groups = (catalog && catalog.cards) || {};
  const tr = (catalog && catalog.i18n && catalog.i18n[lang]) || {};
  const names = tr.cards || {};
  const texts = tr.texts || {};
  for (const b of Object.values((catalog && catalog.buildings) || {})) {
    if (b && b.id && b.name_en === undefined) { b.name_en = b.name; b.name = tOr(`building.${b.id}`, b.name); }
  }
  for (const m of Object.values((catalog && catalog.maps) || {})) {
    if (m && m.id && m.name_en === undefined) {
      m.name_en = m.name;
      m.name = tOr(`map.${m.id}.name`, m.name);
      m.description = tOr(`map.${m.id}.description`, m.description);
    }
  }
  for (const [group, list] of Object.entries(groups)) {
    if (!Array.isArray(list)) continue;
    for (const c of list) {
      if (!c || !c.id) continue;
      const card = { ...c, group, type: c.type || group.replace(/s$/, ""), name_en: c.name };
      if (names[c.id]) card.name = names[c.id];
      if (c.text && texts[c.id]) card.text = texts[c.id];
      if (c.building && c.building.id) card.building = { ...c.building, name: tOr(`building.${c.building.id}`, c.building.name) };
      byId.set(c.id, card);
    }
  }
  return byId;
}
