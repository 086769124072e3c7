// The break summary: what a break did (income per zoo, the display's discards and refill, the
// tokens reset), from the engine's public break_over event. The same lines show in the log and in
// a dismissible note that every seated player and spectator sees when a break ends live.
import { h, clear } from "../dom.js";
import { seatChip, seatName } from "../seats.js";
import { t } from "../i18n.js";

/** The summary of a break_over event: a title and one line per fact (strings and chips). */
export function breakSummary(d, ctx) {
  const name = (id) => { const c = ctx.byId && ctx.byId.get(id); return t("log.quote", { name: c ? c.name : String(id) }); };
  const n = ctx.namer || { cards: (ids) => ids.map(name).join(", ") };
  const who = (seat) => (ctx.you === seat ? t("log.you") : seatName(seat));
  const lines = [];
  for (const [seat, money] of d.income || []) {
    lines.push([seatChip(seat, { small: true }), ` ${t("breaknote.income", { name: who(seat), money })}`]);
  }
  const limit = new Map();
  for (const [seat, card] of d.hand_limit || []) { if (!limit.has(seat)) limit.set(seat, []); limit.get(seat).push(card); }
  for (const [seat, cards] of limit) {
    lines.push([seatChip(seat, { small: true }), ` ${t("breaknote.hand_limit", { name: who(seat), cards: n.cards(cards) })}`]);
  }
  const dropped = d.dropped || [];
  const shown = (d.display || []).filter(Boolean);
  const fresh = dropped.length ? shown.slice(-dropped.length) : [];
  lines.push(dropped.length
    ? t("breaknote.display", { dropped: n.cards(dropped), fresh: n.cards(fresh) })
    : t("breaknote.display_none"));
  lines.push(t("breaknote.reset"));
  return { title: t("breaknote.title", { number: d.number }), lines };
}

/** A log entry for the break_over event: the summary as a small block. */
export function breakLogLine(ev, ctx, version) {
  const { title, lines } = breakSummary(ev.data || {}, ctx);
  return h("li", { class: ["log-line", "ev-break_over", "log-break", "log-summary"], dataset: { version: version ?? "" } },
    h("span", { class: "seat-chip small blank" }, "·"),
    h("span", { class: "log-text" }, h("b", title), h("ul", { class: "break-lines" }, lines.map((l) => h("li", l)))));
}

/** Shows the summary of a break that ends while the page is open (not of breaks that were
 * already over when the page loaded, nor once the game is over); the player closes it. */
export class BreakNote {
  constructor() {
    this.seen = null;   // the newest version with a break_over the page knows of
    this.host = null;
  }

  update(log, ctx, over = false) {
    if (document.body.classList.contains("replay-page")) return;
    // only versions that came live (game.js marks them), never the history loaded with the page
    let latest = null;
    for (const entry of log) {
      if (!entry.live) continue;
      const ev = (entry.events || []).find((e) => e && e.kind === "break_over");
      if (ev && (!latest || entry.version > latest.version)) latest = { version: entry.version, ev };
    }
    if (this.seen === null) this.seen = -1;
    if (!latest || latest.version <= this.seen) return;
    if (over) { this.seen = latest.version; return; }  // the final screen tells the rest
    this.seen = latest.version;
    this.show(latest.ev, ctx);
  }

  hide() {
    if (this.host) this.host.hidden = true;
  }

  show(ev, ctx) {
    const { title, lines } = breakSummary(ev.data || {}, ctx);
    if (!this.host) {
      this.host = h("section", { class: "break-note", id: "break-note", role: "dialog", "aria-modal": "false", "aria-labelledby": "break-note-title" });
      document.body.appendChild(this.host);
    }
    const close = () => { this.host.hidden = true; };
    clear(this.host).append(
      h("h2", { id: "break-note-title" }, title),
      h("ul", { class: "break-lines" }, lines.map((l) => h("li", l))),
      h("button", { class: "btn primary", type: "button", id: "break-note-close", onclick: close }, t("breaknote.ok")));
    this.host.hidden = false;
    this.host.querySelector("button").focus({ preventScroll: true });
  }
}
