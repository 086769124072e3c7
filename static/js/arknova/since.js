// Since your turn (issue #30): what the other seats did since this seat's last decision, from
// the log the page already has (GET /log and the socket's versions: public events, and this
// seat's own private ones, nothing more). The moves are listed in a panel the player dismisses
// and marked on the boards (new buildings, animals, sponsors, the zoo tabs and score rows of the
// seats that moved). The panel is computed again after a reload; the version up to which the
// player dismissed it is kept per game and seat in localStorage.
import { h, clear } from "../dom.js";
import { t } from "../i18n.js";
import { logLine } from "./log.js";
import { takenBack } from "../table.js";

/** Events that are a decision of the seat named in them (its turn begins or goes on). */
const DECISIONS = new Set(["action", "x_token", "kept", "break_action"]);
/** Events that are no one's move (a confirm passes a turn whose moves are listed already). */
const QUIET = new Set(["started", "joined", "confirm"]);
/** The newest moves in the panel (it never scrolls); the rest are in the log. */
const MAX_LINES = 6;

const storeKey = (game, seat) => `menagerie.since.${game}.${seat}`;

function readDismissed(game, seat) {
  try { const v = Number(localStorage.getItem(storeKey(game, seat))); return Number.isFinite(v) ? v : -1; } catch { return -1; }
}

/**
 * The moves of the other seats since `seat`'s last decision: [{version, ev}] in log order.
 * log: [{version, events}] sorted by version.
 */
export function movesSince(log, seat) {
  let last = -1;
  const back = takenBack(log);
  log = log.filter((entry) => !back.has(entry.version));
  for (const entry of log) {
    if ((entry.events || []).some((ev) => ev && ev.data && ev.data.seat === seat && DECISIONS.has(ev.kind))) last = entry.version ?? last;
  }
  const out = [];
  for (const entry of log) {
    if (typeof entry.version !== "number" || entry.version <= last) continue;
    for (const ev of entry.events || []) {
      if (!ev || QUIET.has(ev.kind) || ev.private) continue;
      const d = ev.data || {};
      if (d.seat === seat) continue;
      if (ev.kind === "gain" && d.gains && !Object.keys(d.gains).length) continue;
      out.push({ version: entry.version, ev });
    }
  }
  return { last, moves: out };
}

export class SinceTurn {
  constructor(st, ui) {
    this.st = st;
    this.ui = ui;
    this.moves = [];
    this.el = h("aside", { id: "since-panel", class: "since-panel", hidden: true, "aria-live": "polite", "aria-label": t("since.title") });
    // in the page's flow just above the panels' tabs: a phone shows it there, in the flow,
    // where it covers nothing (fixed above the decision bar it lay over the tabs); a wider
    // screen keeps it fixed at the top right (menagerie.css)
    const tabs = document.getElementById("panel-tabs");
    if (tabs) tabs.before(this.el);
    else document.body.appendChild(this.el);
    this.pending = false;
    const again = () => {
      if (this.pending) return;
      this.pending = true;
      requestAnimationFrame(() => { this.pending = false; this.update(); });
    };
    this.observer = new MutationObserver(again);
    for (const id of ["panels", "scoretrack"]) {
      const el = document.getElementById(id);
      if (el) this.observer.observe(el, { childList: true, subtree: true });
    }
  }

  seat() { return this.st.seat; }

  update() {
    const st = this.st;
    const seat = this.seat();
    if (seat === null || seat === undefined || !st.view || !st.log || !this.ui.pub || !Array.isArray(this.ui.pub.players)) {
      this.el.hidden = true;
      return;
    }
    const dismissed = readDismissed(st.id, seat);
    const { moves } = movesSince(st.log, seat);
    this.moves = moves.filter((m) => m.version > dismissed);
    this.mark();
    this.renderPanel();
  }

  renderPanel() {
    const el = this.el;
    if (!this.moves.length || this.st.status === "finished") { el.hidden = true; return; }
    const ui = this.ui;
    const ctx = { ...ui.namerCtx, namer: ui.namer, you: this.seat() };
    const shown = this.moves.slice(-MAX_LINES);
    const newest = this.moves[this.moves.length - 1].version;
    if (el.dataset.newest === String(newest) && !el.hidden) return;
    el.dataset.newest = String(newest);
    clear(el).append(
      h("header", { class: "since-head" },
        h("b", t("since.title")), " ",
        h("span", { class: "muted small" }, t("since.count", { count: this.moves.length })),
        h("button", { class: "btn ghost small since-close", type: "button", "aria-label": t("since.dismiss"), title: t("since.dismiss"), onclick: () => this.dismiss() }, "×")),
      h("ol", { class: "since-lines log" }, shown.map((m) => logLine(m.ev, ctx, m.version))),
      this.moves.length > shown.length ? h("p", { class: "muted small since-more" }, t("since.earlier", { count: this.moves.length - shown.length })) : "");
    el.hidden = false;
  }

  /** Hide the panel and the marks until the next move of another seat. */
  dismiss() {
    const newest = this.moves.length ? this.moves[this.moves.length - 1].version : this.st.version;
    try { localStorage.setItem(storeKey(this.st.id, this.seat()), String(newest)); } catch { /* private mode: for this page only */ }
    this.moves = [];
    this.mark();
    this.el.hidden = true;
  }

  /** Mark on the boards what the listed moves changed. */
  mark() {
    for (const el of document.querySelectorAll(".since-mark")) el.classList.remove("since-mark");
    if (!this.moves.length) return;
    const ui = this.ui;
    const seats = new Set();
    const cards = new Set();
    const cells = [];
    for (const { ev } of this.moves) {
      const d = ev.data || {};
      if (typeof d.seat === "number") seats.add(d.seat);
      if ((ev.kind === "animal" || ev.kind === "sponsor") && d.card) cards.add(d.card);
      if (ev.kind === "built" && d.seat === ui.viewSeat) cells.push(...(d.cells || []));
    }
    const add = (el) => el && el.classList.add("since-mark");
    for (const [x, y] of cells) add(document.querySelector(`#zoo-map .hits polygon[data-x="${x}"][data-y="${y}"]`));
    for (const id of cards) {
      for (const el of document.querySelectorAll(`#zoo-map .animal-chip[data-card="${id}"], #zoo-info .card[data-id="${id}"]`)) add(el);
    }
    const tabs = document.querySelectorAll("#zoo-tabs .zoo-tab");
    const rows = document.querySelectorAll("#scoretrack .score-row");
    for (const q of seats) { add(tabs[q]); add(rows[q]); }
  }
}
