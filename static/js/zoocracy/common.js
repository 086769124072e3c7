// Zoocracy presentation vocabulary: labels for phases and offices, the catalog index, names.
// Nothing here decides what is legal or true: the view and GET /legal do that.
import { h } from "../dom.js";
import { seatName, seatChip } from "../seats.js";

/** The seven phases of a round, in order (labels only; which one runs comes from the view). */
export const PHASES = [
  { id: "president", no: 1, label: "Presidential election", short: "President" },
  { id: "campaign", no: 2, label: "Campaign", short: "Campaign" },
  { id: "parliament", no: 3, label: "Parliamentary election", short: "Parliament" },
  { id: "government", no: 4, label: "Government formation", short: "Government" },
  { id: "event", no: 5, label: "Event", short: "Event" },
  { id: "no_confidence", no: 6, label: "Vote of no confidence", short: "No conf." },
  { id: "progress", no: 7, label: "Progress", short: "Progress" },
];
export const PHASE = Object.fromEntries(PHASES.map((p) => [p.id, p]));
PHASE.end_round = { id: "end_round", no: 8, label: "End of the round", short: "End of round" };
PHASE.setup = { id: "setup", no: 0, label: "Setup", short: "Setup" };

export function phaseLabel(id) {
  return (PHASE[id] && PHASE[id].label) || String(id || "").replace(/_/g, " ");
}

export const OFFICES = [
  { id: "head", label: "Head of government", short: "Head", glyph: "★", power: "2 extra food in a campaign" },
  { id: "finance", label: "Finance minister", short: "Finance", glyph: "€", power: "the manipulation marker" },
  { id: "defence", label: "Defence minister", short: "Defence", glyph: "♜", power: "the blockade marker" },
];
export const OFFICE = Object.fromEntries(OFFICES.map((o) => [o.id, o]));

/** Enclosure ids -> an icon of the sprite (fallback: none). Presentation only. */
export const ENCLOSURE_ICON = {
  lion_house: "predator", elephant_park: "herbivore", monkey_forest: "primate", aquarium: "sea",
  reptile_house: "reptile", aviary: "bird", petting_zoo: "pet",
};

/** The catalog ({enclosures, events, cards, tables}) indexed by id. */
export function indexZoocracy(catalog) {
  const cat = catalog || {};
  const cards = new Map();
  for (const c of Array.isArray(cat.cards) ? cat.cards : []) if (c && c.id) cards.set(c.id, c);
  const events = new Map();
  for (const e of Array.isArray(cat.events) ? cat.events : []) if (e && e.id) events.set(e.id, e);
  const enclosures = Array.isArray(cat.enclosures) ? cat.enclosures : [];
  const encById = new Map(enclosures.map((e) => [e.id, e]));
  return { cards, events, enclosures, encById, tables: cat.tables || {} };
}

/** "You" for the viewer's own seat, else the seat's name. */
export function whoName(seat, you, lower = false) {
  if (seat === null || seat === undefined) return lower ? "nobody" : "Nobody";
  if (seat === you) return lower ? "you" : "You";
  return seatName(seat);
}

/** Chip + name, "you" marked. */
export function party(seat, you, opts = {}) {
  if (seat === null || seat === undefined) return h("span", { class: "muted" }, "nobody");
  return h("span", { class: ["zc-party", opts.class] }, seatChip(seat, { small: true }),
    h("span", { class: "zc-party-name" }, seat === you ? (opts.compact ? "You" : `${seatName(seat)} (you)`) : seatName(seat)));
}

export function plural(n, one, many) {
  return `${n} ${n === 1 ? one : many || one + "s"}`;
}

/** A keyed-by-seat object ({"0": x}) or a list: the value of one seat. */
export function bySeat(obj, seat) {
  if (!obj) return undefined;
  if (Array.isArray(obj)) return obj[seat];
  return obj[String(seat)] ?? obj[seat];
}
