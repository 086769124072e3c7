// What every game's table shares: the page's parts, the swipeable panels of a phone, the short
// highlight of changed numbers, the log drawer's lines and the final screen. A game's table
// extends TableUI with its render…() methods, its decision bar (this.bar) and finalScreen().
import { h, clear, $, $$ } from "./dom.js";
import { t } from "./i18n.js";

export class TableUI {
  constructor(st, hooks) {
    this.st = st;
    this.send = hooks.send;
    this.toast = hooks.toast;
    /** (how: "confirm" | "restart") => Promise: the end of a held turn (game.js) */
    this.endTurn = hooks.endTurn || null;
    /** (bar element) => void: the page's own part of every drawing of the decision bar */
    this.decorateBar = hooks.decorateBar || null;
    /** () => Promise of every seat's private part of the finished game, by seat (null: none) */
    this.privates = hooks.privates || null;
    this.finalDismissed = false;
    this.lastWidth = 0;
    this.els = {
      score: $("#scoretrack"), zooTabs: $("#zoo-tabs"), zooMap: $("#zoo-map"), zooInfo: $("#zoo-info"),
      board: $("#board"), player: $("#player"), log: $("#log"), final: $("#final-screen"),
      panels: $("#panels"), panelTabs: $("#panel-tabs"),
    };
  }

  /** Panels and the redraw of the score track on resize (after the game's own setup). */
  setupTable() {
    this.setupPanels();
    window.addEventListener("resize", () => {
      const w = this.els.score.clientWidth;
      if (Math.abs(w - this.lastWidth) > 8 && this.st.view) this.renderScore();
    });
  }

  get pub() { return this.st.view.public; }
  get priv() { return this.st.view.private; }

  setupPanels() {
    const tabs = this.els.panelTabs;
    if (!tabs) return;
    for (const b of $$("button", tabs)) {
      b.addEventListener("click", () => {
        const target = document.getElementById(b.dataset.panel);
        // (the phone's Log tab only scrolls to the log: `log-open` is the drawer of a wider
        // screen, and set here it opened the drawer over the header once the page grew wider)
        if (target) this.els.panels.scrollTo({ left: target.offsetLeft - this.els.panels.offsetLeft, behavior: "smooth" });
      });
    }
    this.els.panels.addEventListener("scroll", () => {
      const i = Math.round(this.els.panels.scrollLeft / (this.els.panels.clientWidth || 1));
      $$("button", tabs).forEach((b, j) => b.setAttribute("aria-selected", String(i === j)));
    }, { passive: true });
  }

  // ---------------------------------------------------------------- what a game's table provides
  /** Whether the public view has what this table draws. */
  hasView() { return true; }
  beforeRender() {}
  renderZooTabs() {}

  /** Everything but the decision bar, from the current view. */
  render() {
    const st = this.st;
    if (!st.view || !st.view.public || !this.hasView(st.view.public)) return;
    this.beforeRender();
    this.renderScore();
    this.renderZooTabs();
    this.renderZoo();
    this.renderBoard();
    this.renderPlayer();
    this.renderLog();
    this.renderFinalScreen();
    this.flashChanges();
  }

  renderBar() {
    if (!this.st.view || !this.st.view.public) return;
    this.bar.render();
  }

  onKey(e) { return this.bar.onKey(e); }

  /** A short highlight (≤ 200 ms) on the numbers that changed since the last version. */
  flashChanges() {
    const prev = this.prevVals;
    const next = new Map();
    for (const el of document.querySelectorAll("[data-k]")) {
      next.set(el.dataset.k, el.textContent);
      if (prev && prev.has(el.dataset.k) && prev.get(el.dataset.k) !== el.textContent) el.classList.add("bump");
    }
    this.prevVals = next;
  }

  /** The log drawer, newest first: line(ev, version) for each event that show(ev) keeps, up to
   * about `max` lines; `once`: a version that arrived twice (socket and log page racing) shows once. */
  renderLogLines(line, { show = () => true, max = 400, once = false } = {}) {
    const host = this.els.log;
    if (!host) return;
    const items = [];
    const seen = new Set();
    const back = takenBack(this.st.log);
    for (let i = this.st.log.length - 1; i >= 0; i--) {
      const entry = this.st.log[i];
      if (back.has(entry.version)) continue; // a decision taken back leaves the log
      if (once && typeof entry.version === "number") {
        if (seen.has(entry.version)) continue;
        seen.add(entry.version);
      }
      const evs = entry.events || [];
      for (let j = evs.length - 1; j >= 0; j--) {
        const ev = evs[j];
        if (!ev || !show(ev)) continue;
        items.push(line(ev, entry.version));
      }
      if (items.length > max) break;
    }
    clear(host).append(...(items.length ? items : [h("li", { class: "muted" }, t("log.nothing_yet"))]));
  }

  renderFinalScreen() {
    const over = this.pub.over || this.st.status === "finished";
    const host = this.els.final;
    if (!over || this.finalDismissed) { host.hidden = true; return; }
    clear(host).append(this.finalScreen(() => { this.finalDismissed = true; host.hidden = true; this.renderBar(); }));
    host.hidden = false;
  }

  showFinal() { this.finalDismissed = false; this.renderFinalScreen(); }
}

/** The versions a take-back undid: an "undo" event at version u returning to version `to` takes
 * back every version between them (an earlier take-back among them too). */
export function takenBack(log) {
  const out = new Set();
  for (const entry of log || []) {
    for (const ev of entry.events || []) {
      const to = ev && ev.kind === "undo" && ev.data ? ev.data.to : null;
      if (typeof to === "number" && typeof entry.version === "number") for (let v = to + 1; v < entry.version; v++) out.add(v);
    }
  }
  return out;
}
