// The table explains itself: why a card cannot be played now and what it costs (the engine's
// hints from GET /legal, put into words here), what an action card does at its strength and side
// (from the game's tables), and an action that would do nothing asks before it is used.
import { h, $$, cap } from "../dom.js";
import { icon, iconLabel } from "../icons.js";
import { t, tOr, listing } from "../i18n.js";
import { actionName } from "./cards.js";

/** One reason of the engine ({code, ...parameters}) in words. */
export function reasonText(r, ui) {
  const p = { ...r };
  if (r.icon) p.icon = iconLabel(r.icon);
  if (r.continent) p.continent = iconLabel(r.continent);
  if (r.action) p.action = actionName(r.action);
  if (r.building) p.building = ui.buildingName(r.building);
  if (r.code === "needs_enclosure") {
    const parts = [t("why.needs_enclosure", { size: r.size })];
    if (r.water) parts.push(t("why.enclosure_water", { n: r.water }));
    if (r.rock) parts.push(t("why.enclosure_rock", { n: r.rock }));
    let text = parts.join(", ");
    if (r.special) {
      const building = tOr(`building.${r.special}`, cap(r.special));
      text = r.only ? t("why.needs_special", { building }) : t("why.or_special", { text, building });
    }
    return text;
  }
  return tOr(`why.${r.code}`, r.code, p);
}

/** What an action card does at `strength` on `side`, in one sentence (the game's tables). */
export function actionEffect(card, strength, side, tables) {
  const s = Math.max(0, strength);
  const st = tables.strength || {};
  const at = (row) => (row && row.length ? row[Math.min(Math.max(s, 1), row.length) - 1] : null);
  if (s <= 0) return t("act.strength_zero");
  switch (card) {
    case "animals": {
      const n = at((st.animals || {})[String(side)]) ?? 0;
      const text = t(`act.${card}.side${side}`, { n });
      return side === 2 && s >= (st.animals_rep_bonus_side2_at || 99) ? `${text} ${t("act.animals.rep_bonus")}` : text;
    }
    case "cards": {
      const row = at((st.cards || {})[String(side)]) || { draw: 0, discard: 0 };
      const text = t(`act.${card}.side${side}`, { brk: st.cards_break_advance ?? 0, draw: row.draw, discard: row.discard });
      return s >= ((st.cards_snap_from || {})[String(side)] || 99) ? `${text} ${t("act.cards.snap")}` : text;
    }
    case "build":
      return t(`act.${card}.side${side}`, { n: s, cost: (tables.build || {}).cost_per_space ?? 0 });
    case "association": {
      const tasks = (tables.association || {}).tasks || {};
      const list = listing(Object.entries(tasks).map(([task, v]) => `${tOr(`assoc.task.${task}`, cap(task))} ${v}`));
      return t(`act.${card}.side${side}`, { n: s, tasks: list });
    }
    case "sponsors": {
      const sp = tables.sponsors || {};
      const n = s + (side === 2 ? sp.side2_bonus_strength || 0 : 0);
      return t(`act.${card}.side${side}`, { n, brk: s, money: s * ((sp.break_money_factor || {})[String(side)] || 1) });
    }
    default: return "";
  }
}

/** Both sides of an action card at `strength`, as the physical card shows them (a tooltip). */
export function actionBothSides(card, strength, tables) {
  return [1, 2].map((side) => `${side === 2 ? "II" : "I"}: ${actionEffect(card, strength, side, tables)}`).join("\n");
}

function hintsNow(ui) {
  const st = ui.st;
  return st.hints && st.legalVersion === st.version && st.seat !== null && st.seat !== undefined ? st.hints : null;
}

function clearMarks(el) {
  el.classList.remove("unplayable");
  delete el.dataset.why;
  for (const old of $$(".why, .eff-cost", el)) old.remove();
}

/** Dim a card the engine says cannot be played now, with its reasons; show its cost now. */
function markCard(el, hint, ui, legalNow, compact = false) {
  clearMarks(el);
  if (!hint) return;
  const c = ui.card(el.dataset.id);
  if (c && ((hint.kind === "animal" && hint.cost !== c.cost) || (hint.kind !== "animal" && hint.cost > 0))) {
    const band = el.querySelector(".card-band");
    const title = hint.cost < hint.base_cost ? t("why.cost_discounted", { n: hint.cost, base: hint.base_cost }) : t("why.cost_here", { n: hint.cost });
    if (band) band.appendChild(h("span", { class: "eff-cost", title, "aria-label": title }, "→", icon("money", { size: 16, value: hint.cost })));
  }
  const reasons = hint.reasons || [];
  if (!reasons.length || legalNow) return;
  el.classList.add("unplayable");
  el.dataset.why = reasons.map((r) => r.code).join(" ");
  // on the display one reason in sight (the display stays one row), every reason in the tooltip
  const texts = reasons.map((r) => reasonText(r, ui));
  const shown = compact ? texts.slice(0, 1) : texts;
  el.appendChild(h("ul", { class: "why", role: "note", title: texts.join("\n") },
    shown.map((x) => h("li", x)), texts.length > shown.length ? h("li", { class: "more" }, t("why.more", { n: texts.length - shown.length })) : null));
}

/** Apply the hints of the newest version to the hand, the display and the action buttons. */
export function applyHints(ui) {
  const hints = hintsNow(ui);
  const legalIds = new Set();
  const legalFolders = new Set();
  for (const a of ui.st.legal || []) {
    if (typeof a.folder === "number") legalFolders.add(a.folder);
    else if (a.type === "support") {
      if (a.from === "hand") legalIds.add(a.project);
      else if (typeof a.from === "number") legalFolders.add(a.from);
    } else if (typeof a.card === "string") legalIds.add(a.card);
  }
  for (const el of $$("#hand .card")) markCard(el, hints && (hints.hand || {})[el.dataset.id], ui, legalIds.has(el.dataset.id));
  for (const el of $$("#board .folder")) {
    const card = el.querySelector(".card[data-id]");
    if (!card) continue;
    const hint = hints && (hints.display || {})[el.dataset.folder];
    markCard(card, hint && hint.card === card.dataset.id ? hint : null, ui, legalFolders.has(Number(el.dataset.folder)), true);
  }
  markIdleActions(ui, hints);
}

/** An action that would do nothing says so on its button (and on its slot) before it is chosen. */
function markIdleActions(ui, hints) {
  const acts = (hints && hints.actions) || {};
  const buttons = [...$$("#decision button.use-card"), ...$$("#player .slot")];
  for (const b of buttons) {
    for (const old of $$(".idle-note", b)) old.remove();
    b.classList.remove("idle");
    delete b.dataset.idle;
    let card = b.dataset.card;
    let x = 0;
    if (!card && b.dataset.answer) {
      try { const a = JSON.parse(b.dataset.answer); card = a.card; x = a.x || 0; } catch { continue; }
    }
    if (b.classList.contains("slot")) x = (ui.bar && ui.bar.sel && ui.bar.sel.x) || 0;
    const idle = acts[card] && (acts[card].idle || [])[x];
    if (!idle || b.disabled) continue;
    const note = t(`idle.${idle}`);
    b.classList.add("idle");
    b.dataset.idle = idle;
    b.appendChild(h("span", { class: "idle-note" }, note));
    b.title = `${note} — ${t("idle.rotates")}`;
  }
  askToConfirm(ui);
}

/** Choosing an idle action asks to confirm: its own step offers only "done", and the bar says
 * that it did nothing, that finishing moves the card to slot 1, and offers to take it back. */
function askToConfirm(ui) {
  const st = ui.st;
  const bar = document.getElementById("decision");
  for (const old of $$(".idle-confirm", bar)) old.remove();
  const dec = st.view && st.view.private && st.view.private.decision;
  const legal = st.legalVersion === st.version ? st.legal || [] : [];
  if (!dec || !["animals", "build", "association"].includes(dec.kind)) return;
  if (legal.length !== 1 || legal[0].type !== "done") return;
  const entry = st.log.find((e) => e.version === st.version);
  const chosen = entry && (entry.events || []).some((ev) => ev.kind === "action" && ev.data && ev.data.card === dec.kind && ev.data.seat === st.seat);
  if (!chosen) return;
  const undo = document.getElementById("undo-btn");
  const controls = bar.querySelector(".bar-controls");
  if (!controls) return;
  controls.prepend(h("div", { class: "bar-row idle-confirm", role: "alert" },
    h("span", { class: "row-label" }, t("idle.asks", { action: actionName(dec.kind) })),
    undo ? h("button", { class: "btn secondary idle-undo", type: "button", onclick: () => undo.click() }, t("idle.take_back")) : null));
}
