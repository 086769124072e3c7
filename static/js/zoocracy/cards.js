// Zoocracy action cards, drawn from the catalog: a colour band per phase, the phase number, name
// and text. Which card may be played now is never decided here (the bar marks the legal ones).
import { h } from "../dom.js";
import { PHASE } from "./common.js";
import { t } from "../i18n.js";

/** A card element; opts: {now (its phase is running), legal, mini, count}. */
export function renderCard(card, id, opts = {}) {
  if (!card) {
    return h("div", { class: ["zc-card", "phase-unknown", opts.mini && "mini"], dataset: { card: id } },
      h("div", { class: "zc-card-band" }, h("span", { class: "zc-card-phase" }, "?")),
      h("div", { class: "zc-card-name" }, String(id)));
  }
  const ph = PHASE[card.phase] || { no: "?", label: card.phase, short: card.phase };
  return h("div", {
    class: ["zc-card", `phase-${card.phase}`, opts.mini && "mini", opts.now && "now"],
    dataset: { card: card.id, phase: card.phase },
    title: t("zc.card.title", { name: card.name, phase: ph.label, text: card.text }),
  },
  h("div", { class: "zc-card-band" },
    h("span", { class: "zc-card-phaseno", "aria-hidden": "true" }, String(ph.no)),
    h("span", { class: "zc-card-phase" }, ph.short),
    opts.now ? h("span", { class: "zc-card-now" }, t("zc.card.now")) : null,
    opts.count > 1 ? h("span", { class: "zc-card-count" }, `×${opts.count}`) : null),
  h("div", { class: "zc-card-name" }, card.name),
  opts.mini ? null : h("p", { class: "zc-card-text" }, card.text),
  h("span", { class: "zc-card-id" }, card.id));
}

export function cardName(cards, id) {
  const c = cards && cards.get(id);
  return c ? c.name : String(id);
}
