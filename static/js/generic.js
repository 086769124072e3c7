// A plain table for any game the client has no special drawing for: the public view as a
// readable tree, the legal answers as buttons, the events as sentences.
import { h, clear, $, cap, stableKey } from "./dom.js";
import { seatChip, seatName } from "./seats.js";
import { t } from "./i18n.js";

function tree(value, depth = 0) {
  if (value === null || value === undefined) return h("span", { class: "muted" }, "–");
  if (Array.isArray(value)) {
    if (!value.length) return h("span", { class: "muted" }, t("generic.none"));
    if (value.every((v) => typeof v !== "object" || v === null)) return h("span", value.join(", "));
    return h("ol", { class: "tree" }, value.map((v) => h("li", tree(v, depth + 1))));
  }
  if (typeof value === "object") {
    return h("dl", { class: "tree" }, Object.entries(value).flatMap(([k, v]) => [h("dt", cap(k)), h("dd", tree(v, depth + 1))]));
  }
  return h("span", { class: typeof value === "number" ? "num" : null }, String(value));
}

export function genericLabel(a) {
  const bits = Object.entries(a).filter(([k]) => k !== "type").map(([k, v]) => `${k.replace(/_/g, " ")} ${typeof v === "object" ? JSON.stringify(v) : v}`);
  return `${cap(a.type)}${bits.length ? ": " + bits.join(", ") : ""}`;
}

export class GenericUI {
  constructor(st, hooks) {
    this.st = st;
    this.send = hooks.send;
    this.decorateBar = hooks.decorateBar || null;
    document.body.classList.add("generic-game");
  }

  statusLine() {
    const w = this.st.waitingFor || [];
    return w.length ? [h("span", { class: "stat" }, t("generic.waiting_for"), " ", w.map((q) => [seatChip(q, { small: true }), " "]))] : [];
  }

  render() {
    const v = this.st.view || {};
    clear($("#board")).append(h("h3", t("generic.table")), tree(v.public));
    clear($("#player")).append(h("h3", t("generic.yours")), tree(v.private));
    clear($("#zoo-map"));
    clear($("#zoo-info"));
    clear($("#zoo-tabs"));
    clear($("#scoretrack"));
    this.renderLog();
  }

  renderLog() {
    const items = [];
    for (let i = this.st.log.length - 1; i >= 0; i--) {
      for (const ev of this.st.log[i].events || []) {
        const d = ev.data || {};
        items.push(h("li", { class: "log-line" }, d.seat !== undefined ? seatChip(d.seat, { small: true }) : null, " ",
          `${d.seat !== undefined ? seatName(d.seat) + ": " : ""}${genericLabel({ type: ev.kind, ...Object.fromEntries(Object.entries(d).filter(([k]) => k !== "seat")) })}`));
      }
    }
    clear($("#log")).append(...items);
  }

  renderBar() {
    const st = this.st;
    const legal = st.legalVersion === st.version && !st.pending ? st.legal : [];
    const bar = $("#decision");
    const dec = st.view && st.view.public && st.view.public.decision;
    const ask = legal.length ? (dec && dec.kind ? t("generic.your_move_kind", { kind: cap(dec.kind) }) : t("generic.your_move"))
      : st.result ? t("bar.game_over") : t("generic.waiting_for_names", { names: (st.waitingFor || []).map((q) => seatName(q)).join(", ") || "…" });
    clear(bar).append(h("div", { class: "bar-line" }, h("p", { class: "ask" }, ask), st.pending ? h("span", { class: "sending" }, t("bar.sending")) : null),
      h("div", { class: "bar-controls" }, h("div", { class: "bar-row" }, legal.map((a) => h("button", {
        class: ["btn", "answer", ["done", "back", "skip"].includes(a.type) ? "secondary" : "primary"], type: "button",
        dataset: { answer: stableKey(a), type: a.type }, onclick: () => this.send(a),
      }, genericLabel(a))))));
    bar.classList.toggle("mine", legal.length > 0);
    if (this.decorateBar) this.decorateBar(bar);
  }
}
