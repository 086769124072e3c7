// The table's "Hint" button (issue #19): only in a game whose players agreed to hints, only while
// the player owes a decision. GET /api/games/{id}/hint proposes the bot's best answer (from the
// player's own view) with a short reason; the page shows it under the decision bar and draws it
// on the table the way the table previews an answer (suggest.js). The player still answers.
import { api } from "./api.js";
import { h } from "./dom.js";
import { t, tOr } from "./i18n.js";
import { showSuggestion, clearSuggestion } from "./suggest.js";
import { labelText } from "./analysis.js";

/** The hint's reason in words: the labels it names (the compared answer, the proposal) in the
 * reader's language, named by the table `ui`; gains in the game's unit (Zoocracy scores in goal
 * steps, the zoo builder in VP). */
export function reasonText(reason, ui = null, label = null, game = null) {
  if (!reason || !reason.key) return "";
  const p = { ...(reason.params || {}) };
  if (p.alternative && typeof p.alternative === "object") p.alternative = labelText(p.alternative, ui);
  if (p.label === undefined && label) p.label = labelText(label, ui);
  if (reason.key === "analysis.reason.better") {
    // a follow-up inside the player's own move is judged by a quick look, not by playouts
    if (!(Number(p.gain) >= 0.1)) return t("analysis.reason.close", p);
    const steps = game === "zoocracy";
    if (!Number(p.playouts)) return t(steps ? "analysis.reason.better_quick_steps" : "analysis.reason.better_quick", p);
    p.count = Number(p.playouts);  // "in 1 sampled game", "in 8 sampled games"
    if (steps) return t("analysis.reason.better_steps", p);
  }
  return tOr(reason.key, "", p);
}

export class HintButton {
  constructor(st, { ui, rerender, toast }) {
    this.st = st;
    this.ui = ui;            // () => the table
    this.rerender = rerender;
    this.toast = toast;
    this.hint = null;        // {version, data}
    this.busy = false;
  }

  /** Part of each drawing of the decision bar (`bar`; the table calls it at the end of every
   * drawing, also the redraws inside a decision): the button, and the hint of this version. */
  attach(bar) {
    const st = this.st;
    const g = st.summary || {};
    if (this.hint && this.hint.version !== st.version) {
      this.hint = null;
      clearSuggestion(this.ui());
    }
    if (!g.hints || st.seat === null || st.seat === undefined || st.status !== "running") return;
    const mine = st.legal.length > 0 && st.legalVersion === st.version && !st.pending;
    if (!mine) return;
    const line = bar.querySelector(".bar-line") || bar;
    line.append(h("button", {
      class: "btn small hint-btn", id: "hint-btn", type: "button", disabled: this.busy,
      title: t("hints.button_help"), onclick: () => this.ask(),
    }, this.busy ? t("hints.working") : t("hints.button")));
    if (this.hint) {
      const d = this.hint.data;
      bar.append(h("p", { class: "hint-box", id: "hint-box", role: "status" },
        h("span", { class: "hint-label" }, t("hints.proposal", { label: labelText(d.label, this.ui()) || t("hints.shown") })), " ",
        h("span", { class: "hint-reason" }, reasonText(d.reason, this.ui(), d.label, g.game)),
        typeof d.win === "number" && Number.isFinite(d.win)
          ? h("span", { class: "hint-win muted" }, " ", t("hints.win", { win: Math.round(Number(d.win) * 100) })) : null));
      if (!this.hint.shown) {
        document.body.dataset.hintMarks = String(showSuggestion(this.ui(), d.action, true));
        this.hint.shown = true;
      } else {
        // a redraw at the same version: the marks the redraw took away, the map as it is
        showSuggestion(this.ui(), d.action, false, { placement: false });
      }
    }
  }

  async ask() {
    if (this.busy) return;
    this.busy = true;
    this.rerender();
    const version = this.st.version;
    try {
      const data = await api.get(`/api/games/${encodeURIComponent(this.st.id)}/hint`);
      if (data.version === this.st.version) this.hint = { version, data };
    } catch (err) {
      this.toast(err.message);
    } finally {
      this.busy = false;
      this.rerender();
    }
  }
}
