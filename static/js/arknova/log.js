// The game log: one readable sentence per engine event ({kind, data}), in the page's language.
// Every sentence is a template log.<kind> of the message catalogue; where the viewer is the one
// who acts (or the one acted on), the variant log.<kind>.you (.you_obj) wins if the language has
// it (Ukrainian and German verbs agree with "you").
import { h, cap, listing } from "../dom.js";
import { seatChip, seatName } from "../seats.js";
import { gainText, actionName, abilityShort, abilityText } from "./cards.js";
import { iconLabel } from "../icons.js";
import { t, tv, tOr } from "../i18n.js";
import { breakLogLine, breakSummary } from "./breaknote.js";

/** A card name as the log quotes it (log.quote: «…» in Ukrainian, „…“ in German). */
const quote = (name) => t("log.quote", { name });

/** ctx: {byId (cards), buildings (catalog), you (seat or null)} */
export function makeNamer(ctx) {
  const card = (id) => {
    if (id === null || id === undefined) return t("log.a_card");
    const c = ctx.byId && ctx.byId.get(id);
    return quote(c ? c.name : String(id));
  };
  const cards = (ids) => listing((ids || []).map(card));
  const building = (id) => {
    const b = ctx.buildings && ctx.buildings[id];
    if (b) {
      if (b.kind === "enclosure") return t("log.building_enclosure", { size: b.size });
      return tOr(`log.building.${id}`, t("log.building_other", { name: b.name || cap(id) }));
    }
    const sb = ctx.sponsorBuildings && ctx.sponsorBuildings[id];
    if (sb) return t("log.building_sponsor", { name: sb.name });
    return t("log.building_other", { name: String(id).replace(/_/g, " ") });
  };
  const action = (a) => actionName(a);
  const source = (src) => {
    if (src === null || src === undefined || src === "") return "";
    if (ctx.byId && ctx.byId.has(src)) return card(src);
    if (ctx.buildings && ctx.buildings[src]) return ctx.buildings[src].name;
    if (ctx.sponsorBuildings && ctx.sponsorBuildings[src]) return ctx.sponsorBuildings[src].name;
    const m = /^(conservation|reputation) (\d+)$/.exec(String(src));
    if (m) return t(`log.source.${m[1]}`, { n: m[2] });
    const k = String(src).replace(/\W+/g, "_");
    return tOr(`log.source.${k}`, tOr(`university.${k}`, String(src).replace(/_/g, " ")));
  };
  return { card, cards, building, action, source };
}

function who(seat, ctx) {
  if (seat === null || seat === undefined) return t("log.someone");
  return ctx.you === seat ? t("log.you") : seatName(seat);
}

/** The template `key` (log.…) for an event whose subject is seat `subj` (and object `obj`). */
function say(key, ctx, subj, obj, params) {
  const isYou = (q) => q !== null && q !== undefined && ctx.you === q;
  const variant = isYou(subj) ? "you" : (isYou(obj) ? "you_obj" : null);
  return tv(key, variant, params);
}

/** A sentence (string) for an event. */
export function sentence(ev, ctx) {
  const d = ev.data || {};
  const n = ctx.namer || makeNamer(ctx);
  const S = who(d.seat, ctx);
  const T = d.target !== undefined ? who(d.target, ctx) : "";
  const me = (key, params = {}) => say(key, ctx, d.seat, d.target, { S, T, ...params });
  const from = d.folder ? t("log.from_folder", { folder: d.folder }) : "";
  switch (ev.kind) {
    case "action": {
      const extra = [t("log.action_strength", { n: d.strength })];
      if (d.side === 2) extra.push(t("log.action_side2"));
      if (d.x) extra.push(t("log.action_x", { count: d.x }));
      return me("log.action", { action: n.action(d.card), extra: extra.join(", ") });
    }
    case "x_token": return me("log.x_token", { action: n.action(d.card) });
    case "kept": return me("log.kept", { count: d.count });
    case "gain": {
      const src = n.source(d.source);
      return src ? me("log.gain_from", { gains: gainText(d.gains), source: src }) : me("log.gain", { gains: gainText(d.gains) });
    }
    case "drew": return me("log.drew", { count: d.count });
    case "drew_cards": return me("log.drew_cards", { cards: n.cards(d.cards) });
    case "reputation_bonus": return me("log.reputation_bonus", { at: d.at });
    case "upgraded": return me("log.upgraded", { action: n.action(d.card) });
    case "bonus_tile": return me("log.bonus_tile", { tile: n.card(d.tile), space: d.space });
    case "took_display": return me("log.took_display", { card: n.card(d.card), folder: d.folder });
    case "discarded_final": return me("log.discarded_final");
    case "venom_paid": return d.appeal ? me("log.venom_paid_appeal", { money: d.money, appeal: d.appeal }) : me("log.venom_paid", { money: d.money });
    case "end_triggered": {
      if (d.remaining && d.remaining.length) {
        const names = listing(d.remaining.map((q) => who(q, ctx)));
        return me(d.in_break ? "log.end_triggered_break_last" : "log.end_triggered_last", { names });
      }
      return me(d.in_break ? "log.end_triggered_break_final" : "log.end_triggered_final");
    }
    case "break": return me("log.break", { number: d.number });
    case "discarded": return d.reason
      ? me("log.discarded_reason", { card: n.card(d.card), reason: tOr(`log.reason.${String(d.reason).replace(/\W+/g, "_")}`, d.reason) })
      : me("log.discarded", { card: n.card(d.card) });
    case "income": return me("log.income", { money: d.money });
    case "break_over": return breakSummary(d, { ...ctx, namer: n }).title;
    case "stalled": return t("log.stalled", { breaks: d.breaks });
    case "game_over": return t("log.game_over", { scores: (d.scores || []).map((v, i) => `${who(i, ctx)} ${v}`).join(", ") });
    case "ability": {
      const ab = d.value !== null && d.value !== undefined && typeof d.value !== "object"
        ? abilityShort({ keyword: d.keyword, value: d.value }) : abilityShort({ keyword: d.keyword, value: null });
      // the effect in words: the card's own ability of that keyword (its value), else the keyword's
      const c = ctx.byId && ctx.byId.get(d.card);
      const own = c && [...(c.abilities || []), ...(c.effects || []), ...(c.solo || [])].find((x) => x.keyword === d.keyword);
      const text = abilityText(own || { keyword: d.keyword, value: d.value }, "").replace(/[.。]\s*$/, "");
      return me("log.ability", { card: n.card(d.card), ability: text ? `${ab} — ${text}` : ab });
    }
    case "revealed": return me("log.revealed", { cards: n.cards(d.cards) });
    case "kept_card": return me(d.dest === "final" ? "log.kept_card_final" : d.dest === "base" ? "log.kept_card_base" : "log.kept_card");
    case "kept_card_id": return me("log.kept_card_id", { card: n.card(d.card) });
    case "discarded_cards": return me("log.discarded_cards", { cards: n.cards(d.cards) });
    case "dug_display": return me("log.dug_display", { card: n.card(d.card), folder: d.folder });
    case "sold": return me("log.sold", { card: n.card(d.card), money: d.money });
    case "tucked": return me("log.tucked", { card: n.card(d.under), appeal: d.appeal });
    case "moved_card": return me("log.moved_card", { action: n.action(d.card) });
    case "boost": return me("log.boost", { action: n.action(d.action), strength: d.strength });
    case "venom": return me("log.venom", { action: n.action(d.card) });
    case "constriction": return me("log.constriction", { action: n.action(d.card) });
    case "hypnosis": return me("log.hypnosis", { action: n.action(d.card), strength: d.strength });
    case "pilfered": {
      // the one who gives (target) is the subject of the sentence
      const params = { S, T, money: d.money };
      return d.money !== undefined ? say("log.pilfered_money", ctx, d.target, d.seat, params) : say("log.pilfered_card", ctx, d.target, d.seat, params);
    }
    case "pilfered_card": return say("log.pilfered_given", ctx, d.target, d.seat, { S, T, card: n.card(d.card) });
    case "break_advanced": return me("log.break_advanced", { by: d.by, pos: d.pos });
    case "gripped": return me("log.gripped", { action: n.action(d.card) });
    case "mimic": return me("log.mimic", { action: n.action(d.card), strength: d.strength });
    case "solo_covered": return t("log.solo_covered");
    case "solo_end": return t("log.solo_end", { turns: d.turns, breaks: d.breaks });
    case "animal": {
      const extra = [from, d.enclosure === null ? t("log.no_own_enclosure") : ""].join("");
      return me("log.animal", { card: n.card(d.card), extra, cost: d.cost });
    }
    case "relocated": return me("log.relocated", { card: n.card(d.card), building: tOr(`building.${d.to}`, cap(d.to)) });
    case "partner_zoo": return me("log.partner_zoo", { continent: iconLabel(d.continent) });
    case "university": return me("log.university", { university: tOr(`university.${d.university}`, cap(d.university)) });
    case "donation": return me("log.donation", { cost: d.cost });
    case "task": return d.task === "reputation" ? me("log.task_reputation") : me("log.task", { task: tOr(`task.${d.task}`, cap(d.task)) });
    case "built": return d.cost ? me("log.built", { building: n.building(d.building), cost: d.cost }) : me("log.built_free", { building: n.building(d.building) });
    case "sponsor": return me("log.sponsor", { card: n.card(d.card), extra: from });
    case "supported": return me("log.supported", { project: n.card(d.project), level: (d.level ?? 0) + 1, cp: d.cp });
    case "project_played": return t("log.project_played", { project: n.card(d.project) });
    case "project_discarded": return t("log.project_discarded", { project: n.card(d.project) });
    case "released": return me("log.released", { card: n.card(d.card), appeal: d.appeal });
    case "break_action": return me("log.break_action", { money: d.money });
    case "joined": return me("log.joined");
    case "undo": return d.restart ? me("log.restart") : me("log.undo", { version: d.undone });
    case "confirm": return me(d.auto ? "log.confirm_auto" : "log.confirm");
    case "resign": return me("log.resign");
    case "abort": return me("log.abort");
    case "started": return t("log.started");
    default: {
      const parts = Object.entries(d).filter(([k]) => k !== "seat").map(([k, v]) => `${k.replace(/_/g, " ")} ${typeof v === "object" ? JSON.stringify(v) : v}`);
      return `${d.seat !== undefined ? S + ": " : ""}${cap(ev.kind)}${parts.length ? ` (${parts.join(", ")})` : ""}.`;
    }
  }
}

/** A log line element. */
export function logLine(ev, ctx, version) {
  const d = ev.data || {};
  if (ev.kind === "break_over") return breakLogLine(ev, { ...ctx, namer: ctx.namer || makeNamer(ctx) }, version);
  return h("li", { class: ["log-line", `ev-${ev.kind}`, ev.private && "private", ev.kind === "break" && "log-break"], dataset: { version: version ?? "" } },
    d.seat !== undefined && d.seat !== null ? seatChip(d.seat, { small: true }) : h("span", { class: "seat-chip small blank" }, "·"),
    h("span", { class: "log-text" }, withCardRefs(sentence(ev, ctx), d, ctx)));
}

/** The cards an event names (by id), as parts of the sentence that show the whole card
 *  (static/js/cardzoom.js): each quoted name becomes a <span data-card-ref>. */
export function withCardRefs(text, d, ctx) {
  const ids = [d.card, d.project, d.tile, d.under, ...(Array.isArray(d.cards) ? d.cards : [])]
    .filter((id) => typeof id === "string" && ctx.byId && ctx.byId.has(id));
  let parts = [text];
  for (const id of new Set(ids)) {
    const q = quote(ctx.byId.get(id).name);
    parts = parts.flatMap((p) => (typeof p !== "string" || !p.includes(q) ? [p]
      : p.split(q).flatMap((bit, i) => (i ? [h("span", { class: "card-ref", dataset: { cardRef: id } }, q), bit] : [bit]))));
  }
  return parts.filter((p) => p !== "");
}
