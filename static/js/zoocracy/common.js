// Zoocracy presentation vocabulary: labels for phases and offices, the catalog index, names.
// Nothing here decides what is legal or true: the view and GET /legal do that.
import { h } from "../dom.js";
import { seatName, seatChip } from "../seats.js";
import { t, tOr, lang } from "../i18n.js";

/** The seven phases of a round, in order (labels only; which one runs comes from the view). */
export const PHASES = [
  { id: "president", no: 1, label: t("zc.phase.president"), short: t("zc.phase.president.short") },
  { id: "campaign", no: 2, label: t("zc.phase.campaign"), short: t("zc.phase.campaign.short") },
  { id: "parliament", no: 3, label: t("zc.phase.parliament"), short: t("zc.phase.parliament.short") },
  { id: "government", no: 4, label: t("zc.phase.government"), short: t("zc.phase.government.short") },
  { id: "event", no: 5, label: t("zc.phase.event"), short: t("zc.phase.event.short") },
  { id: "no_confidence", no: 6, label: t("zc.phase.no_confidence"), short: t("zc.phase.no_confidence.short") },
  { id: "progress", no: 7, label: t("zc.phase.progress"), short: t("zc.phase.progress.short") },
];
export const PHASE = Object.fromEntries(PHASES.map((p) => [p.id, p]));
PHASE.end_round = { id: "end_round", no: 8, label: t("zc.phase.end_round"), short: t("zc.phase.end_round.short") };
PHASE.setup = { id: "setup", no: 0, label: t("zc.phase.setup"), short: t("zc.phase.setup") };

export function phaseLabel(id) {
  return (PHASE[id] && PHASE[id].label) || String(id || "").replace(/_/g, " ");
}

export const OFFICES = [
  { id: "head", label: t("zc.office.head"), short: t("zc.office.head.short"), glyph: "★", power: t("zc.office.head.power") },
  { id: "finance", label: t("zc.office.finance"), short: t("zc.office.finance.short"), glyph: "€", power: t("zc.office.finance.power") },
  { id: "defence", label: t("zc.office.defence"), short: t("zc.office.defence.short"), glyph: "♜", power: t("zc.office.defence.power") },
];
export const OFFICE = Object.fromEntries(OFFICES.map((o) => [o.id, o]));

/** Enclosure ids -> an icon of the sprite (fallback: none). Presentation only. */
export const ENCLOSURE_ICON = {
  lion_house: "predator", elephant_park: "herbivore", monkey_forest: "primate", aquarium: "sea",
  reptile_house: "reptile", aviary: "bird", petting_zoo: "pet",
};

/** The catalog ({enclosures, events, cards, tables}) indexed by id; names and texts in the
 * page's language (zoocracy.card.<id>.name, zoocracy.event.<id>.text, zoocracy.enclosure.<id>). */
export function indexZoocracy(catalog) {
  const cat = catalog || {};
  const cards = new Map();
  for (const c of Array.isArray(cat.cards) ? cat.cards : []) {
    if (c && c.id) cards.set(c.id, { ...c, name: tOr(`zoocracy.card.${c.id}.name`, c.name), text: tOr(`zoocracy.card.${c.id}.text`, c.text) });
  }
  const events = new Map();
  for (const e of Array.isArray(cat.events) ? cat.events : []) {
    if (e && e.id) events.set(e.id, { ...e, name: tOr(`zoocracy.event.${e.id}.name`, e.name), text: tOr(`zoocracy.event.${e.id}.text`, e.text) });
  }
  const enclosures = (Array.isArray(cat.enclosures) ? cat.enclosures : [])
    .map((e) => (e && e.id ? { ...e, name: tOr(`zoocracy.enclosure.${e.id}`, e.name) } : e));
  const encById = new Map(enclosures.map((e) => [e.id, e]));
  return { cards, events, enclosures, encById, tables: cat.tables || {} };
}

/** "You" for the viewer's own seat, else the seat's name. */
export function whoName(seat, you, lower = false) {
  if (seat === null || seat === undefined) return lower ? t("zc.who.nobody_lower") : t("zc.who.nobody");
  if (seat === you) return lower ? t("zc.who.you_lower") : t("zc.who.you");
  return seatName(seat);
}

/** Chip + name, "you" marked (a name too long for its place ends in "…": its tooltip has it whole). */
export function party(seat, you, opts = {}) {
  if (seat === null || seat === undefined) return h("span", { class: "muted" }, t("zc.who.nobody_lower"));
  const name = seat === you ? (opts.compact ? t("zc.who.you") : t("zc.party.you", { name: seatName(seat) })) : seatName(seat);
  return h("span", { class: ["zc-party", opts.class] }, seatChip(seat, { small: true }),
    h("span", { class: "zc-party-name", title: name }, name));
}

/** A label inside a sentence: lower case, but German keeps its capital nouns. */
export function inSentence(label) {
  return lang === "de" ? String(label) : String(label).toLowerCase();
}

/** A keyed-by-seat object ({"0": x}) or a list: the value of one seat. */
export function bySeat(obj, seat) {
  if (!obj) return undefined;
  if (Array.isArray(obj)) return obj[seat];
  return obj[String(seat)] ?? obj[seat];
}
