// Seat colours (Okabe–Ito, colour-blind safe), always shown with the seat number.
import { h, s } from "./dom.js";
import { t, tOr } from "./i18n.js";

export const SEAT_COLOURS = [
  { fill: "#E69F00", ink: "#1b1400", name: "orange" },
  { fill: "#0072B2", ink: "#ffffff", name: "blue" },
  { fill: "#009E73", ink: "#001a12", name: "green" },
  { fill: "#CC79A7", ink: "#1f0a16", name: "purple" },
  { fill: "#56B4E9", ink: "#001523", name: "sky" },
  { fill: "#D55E00", ink: "#ffffff", name: "vermillion" },
];

export function seatColour(seat) {
  return SEAT_COLOURS[((seat % SEAT_COLOURS.length) + SEAT_COLOURS.length) % SEAT_COLOURS.length];
}

/** Seat names: filled from the game's seats list ({seat, username|user, bot}). */
const names = new Map();

function nameOf(entry) {
  if (!entry || typeof entry !== "object") return null;
  const u = entry.user;
  const uname = entry.username || entry.name || (u && typeof u === "object" ? u.username || u.name : (typeof u === "string" ? u : null));
  if (uname) return uname;
  if (entry.bot) return botLabel(entry.bot);
  return null;
}

/** "Greedy bot" for a bot kind (or just "bot"). */
export function botLabel(kind) {
  return typeof kind === "string" && kind ? t("seat.bot_kind", { kind: tOr(`bot.${kind}`, kind) }) : t("seat.bot");
}

export function setSeats(seats) {
  names.clear();
  if (!Array.isArray(seats)) return;
  seats.forEach((entry, i) => {
    const seat = entry && typeof entry === "object" && Number.isInteger(entry.seat) ? entry.seat : i;
    const n = nameOf(entry);
    if (n) names.set(seat, { name: n, bot: !!(entry && entry.bot) });
  });
  // bots of one kind get distinct names ("Greedy bot 2", "Greedy bot 3"): the log and the
  // table tell them apart
  const count = new Map();
  for (const e of names.values()) if (e.bot) count.set(e.name, (count.get(e.name) || 0) + 1);
  for (const [seat, e] of names) {
    if (e.bot && count.get(e.name) > 1) names.set(seat, { ...e, name: t("seat.bot_numbered", { name: e.name, n: seat + 1 }) });
  }
}

export function seatName(seat) {
  const e = names.get(seat);
  return e ? e.name : t("seat.name", { n: seat + 1 });
}

export function isBot(seat) {
  const e = names.get(seat);
  return !!(e && e.bot);
}

/** "Seat 2" with the colour chip, for text. */
export function seatLabel(seat) {
  const e = names.get(seat);
  return e ? t("seat.label", { name: e.name, n: seat + 1 }) : t("seat.name", { n: seat + 1 });
}

/** A coloured disc with the seat number. */
export function seatChip(seat, opts = {}) {
  const c = seatColour(seat);
  return h("span", {
    class: ["seat-chip", opts.small && "small"],
    style: { background: c.fill, color: c.ink },
    title: seatLabel(seat),
    "aria-label": t("seat.aria", { n: seat + 1 }),
  }, String(seat + 1));
}

/** Chip + name (a long name ends in "…" where space is short: its tooltip has it whole). */
export function seatTag(seat, opts = {}) {
  return h("span", { class: "seat-tag" }, seatChip(seat, opts), " ",
    h("span", { class: "seat-name", title: seatName(seat) }, seatName(seat)));
}

/** An SVG marker disc with the number, centred at (x, y). */
export function seatDisc(seat, x, y, r = 9, extra = {}) {
  const c = seatColour(seat);
  return s("g", { class: "seat-disc", transform: `translate(${x} ${y})`, ...extra },
    s("circle", { r, fill: c.fill, stroke: "#1d1d1b", "stroke-width": 1.2 }),
    s("text", { "text-anchor": "middle", dy: "0.35em", fill: c.ink, "font-size": r * 1.15, "font-weight": 700 }, String(seat + 1)));
}
