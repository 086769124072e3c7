// The decision bar that every game's table shares: what is asked now, in one sentence, who is
// still to answer, the tools (final result, collapse, log) and the legal answers as controls.
// A game's bar (its `DecisionBar`, static/js/<game>/decision.js, the only classes of that name)
// extends TableBar with its sentence(), controls(), waitingLine() and applyHighlights(); the
// answers are exactly the dicts of GET /legal.
import { h, clear, $, stableKey } from "./dom.js";
import { seatName } from "./seats.js";
import { t } from "./i18n.js";
import { heldForMe, heldSentence, turnEndControls } from "./turnend.js";

// the focus follows new questions only for people who use the keyboard
let keyboardUser = false;
document.addEventListener("keydown", (e) => { if (e.key === "Tab" || e.key === "Enter" || e.key === " ") keyboardUser = true; }, true);
document.addEventListener("pointerdown", () => { keyboardUser = false; }, true);

export class TableBar {
  /** tableHosts: selectors of the table parts whose legal targets answer by click or Enter. */
  constructor(ui, tableHosts = []) {
    this.ui = ui;
    this.st = ui.st;
    this.host = $("#decision");
    this.selVersion = null;
    this.sel = null;
    this.resetSel();
    // delegated clicks on the legal targets of the table
    for (const host of tableHosts.map((sel) => $(sel))) {
      if (!host) continue;
      host.addEventListener("click", (e) => this.onTableClick(e));
      host.addEventListener("keydown", (e) => {
        if ((e.key === "Enter" || e.key === " ") && e.target.classList && e.target.classList.contains("legal")) {
          e.preventDefault();
          this.onTableClick(e);
        }
      });
    }
    const ro = new ResizeObserver(() => {
      document.documentElement.style.setProperty("--bar-h", `${this.host.offsetHeight}px`);
      // the bar grew over what the player is working on (a placement preview): bring it back
      if (this.ui && typeof this.ui.revealFocus === "function") requestAnimationFrame(() => this.ui.revealFocus());
    });
    ro.observe(this.host);
  }

  // ---------------------------------------------------------------- what a game's bar provides
  resetSel() { this.sel = {}; }
  sentence() { return ""; }
  controls() { return []; }
  waitingLine() { return null; }
  applyHighlights() {}
  onTableClick() {}
  /** Called before an answer goes out (a game may clear what its table shows for it). */
  beforeSend() {}
  /** Called before the controls are drawn. */
  beforeControls() {}
  /** Extra words after the sentence (or null). */
  askHint() { return null; }

  get legal() {
    return this.st.legalVersion === this.st.version ? this.st.legal : [];
  }

  send(action) {
    if (this.st.pending) return;
    this.beforeSend(action);
    this.ui.send(action);
  }

  /** The sentence while somebody else decides (or my answer is on its way): null while the
   * viewer has nothing to say about it. `doing` is the others' activity in words. */
  waitingSentence(dec, doing) {
    const st = this.st;
    const all = st.waitingFor || dec.waiting || [];
    if (st.seat !== null && st.seat !== undefined && all.includes(st.seat) && !this.ui.pub.over) {
      return st.pending ? t("bar.answer_on_its_way") : t("bar.getting_options");
    }
    const waiting = all.filter((q) => q !== st.seat);
    if (!waiting.length) return t("bar.waiting_doing", { doing });
    if (waiting.length === 1) return t("bar.waiting_for_doing", { name: seatName(waiting[0]), doing });
    return t(this.waitingManyKey || "bar.waiting_for_n_doing", { count: waiting.length, doing });
  }

  // ---------------------------------------------------------------- render
  render() {
    const st = this.st;
    const ui = this.ui;
    const pub = ui.pub;
    let fresh = false;
    if (this.selVersion !== st.version) {
      this.resetSel();
      this.selVersion = st.version;
      this.host.classList.remove("collapsed");
    }
    if (this.focusedFor !== st.version && this.legal.length) {
      this.focusedFor = st.version;
      fresh = true;
    }
    const legal = this.legal;
    const held = heldForMe(st) && ui.endTurn;
    const mine = legal.length > 0 || !!held;
    const dec = legal.length ? ((ui.priv && ui.priv.decision) || pub.decision) : pub.decision;
    const line = h("div", { class: "bar-line" });
    const ask = held ? t("bar.confirm_ask") : (heldSentence(st) || this.sentence(dec, mine));
    line.appendChild(h("p", { class: "ask", id: "ask", role: "status" }, ask, held ? null : this.askHint(legal, mine)));
    if (st.pending) line.appendChild(h("span", { class: "sending", role: "status" }, h("span", { class: "spinner", "aria-hidden": "true" }), ` ${t("bar.sending")}`));
    const status = this.waitingLine(dec, mine);
    if (status) line.appendChild(status);
    line.appendChild(this.tools(mine));
    if (!held) this.beforeControls(legal, mine);
    const body = h("div", { class: "bar-controls" });
    if (held) body.append(...turnEndControls(st, ui.endTurn));
    else if (mine) body.append(...this.controls(legal, dec));
    clear(this.host).append(line, body);
    this.host.classList.toggle("mine", mine);
    this.host.classList.toggle("pending", !!st.pending);
    this.host.dataset.kind = held ? "confirm" : dec ? dec.kind : "";
    this.applyHighlights();
    // what the page adds to every drawing of the bar (the game page: the Hint button)
    if (ui.decorateBar) ui.decorateBar(this.host);
    // keyboard users: a new question puts the focus on its first answer (never steals it from
    // elsewhere on the page)
    const active = document.activeElement;
    if (fresh && mine && keyboardUser && (!active || active === document.body || this.host.contains(active) || !active.isConnected)) {
      const first = this.host.querySelector(".bar-controls button:not([disabled])");
      if (first) first.focus({ preventScroll: true });
    }
  }

  /** Final result (once the game is over), collapse (while answering), the log drawer. */
  tools(mine) {
    const ui = this.ui;
    const tools = h("span", { class: "bar-tools" });
    if (ui.pub.over) tools.appendChild(h("button", { class: "btn", type: "button", id: "show-final", onclick: () => ui.showFinal() }, t(this.finalKey || "bar.final_scores")));
    if (mine) {
      const collapsed = this.host.classList.contains("collapsed");
      tools.appendChild(h("button", { class: "btn ghost small bar-collapse", type: "button", "aria-expanded": String(!collapsed),
        "aria-label": collapsed ? t("bar.show_answers") : t("bar.hide_answers_aria"),
        onclick: () => { this.host.classList.toggle("collapsed"); this.render(); } }, collapsed ? `▲ ${t("bar.answers")}` : `▼ ${t("bar.hide")}`));
    }
    tools.appendChild(h("button", { class: "btn ghost log-toggle", type: "button", "aria-controls": "panel-log", onclick: () => document.body.classList.toggle("log-open") }, t("table.tab.log")));
    return tools;
  }

  // ---------------------------------------------------------------- controls
  answer(label, action, opts = {}) {
    return h("button", {
      class: ["btn", "answer", opts.primary && "primary", opts.secondary && "secondary", opts.class],
      type: "button", disabled: this.st.pending,
      dataset: { answer: stableKey(action), type: action.type },
      title: opts.title || null, "aria-label": opts.aria || null,
      onclick: () => this.send(action),
    }, label);
  }

  row(label, ...kids) {
    return h("div", { class: "bar-row" }, label ? h("span", { class: "row-label" }, label) : null, ...kids);
  }
}
