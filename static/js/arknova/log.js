// The game log: one readable sentence per engine event ({kind, data}).
import { h, cap, listing, plural } from "../dom.js";
import { seatChip, seatName } from "../seats.js";
import { gainText } from "./cards.js";
import { iconLabel } from "../icons.js";

/** ctx: {byId (cards), buildings (catalog), you (seat or null)} */
export function makeNamer(ctx) {
  const card = (id) => {
    if (id === null || id === undefined) return "a card";
    const c = ctx.byId && ctx.byId.get(id);
    return c ? c.name : String(id);
  };
  const cards = (ids) => listing((ids || []).map(card));
  const building = (id) => {
    const b = ctx.buildings && ctx.buildings[id];
    if (b) {
      if (b.kind === "enclosure") return `a size-${b.size} enclosure`;
      const n = b.name || cap(id);
      return /^[aeiou]/i.test(n) ? `an ${n.toLowerCase()}` : `a ${n.toLowerCase()}`;
    }
    const sb = ctx.sponsorBuildings && ctx.sponsorBuildings[id];
    if (sb) return `the ${sb.name}`;
    return `a ${String(id).replace(/_/g, " ")}`;
  };
  const action = (a) => cap(a);
  const source = (src) => {
    if (src === null || src === undefined || src === "") return "";
    if (ctx.byId && ctx.byId.has(src)) return card(src);
    if (ctx.buildings && ctx.buildings[src]) return ctx.buildings[src].name;
    if (src === "map") return "map bonus";
    return String(src).replace(/_/g, " ");
  };
  return { card, cards, building, action, source };
}

function who(seat, ctx) {
  if (seat === null || seat === undefined) return "Someone";
  return ctx.you === seat ? "You" : seatName(seat);
}

/** A sentence (string) for an event; "{S}" is the acting seat. */
export function sentence(ev, ctx) {
  const d = ev.data || {};
  const n = ctx.namer || makeNamer(ctx);
  const S = who(d.seat, ctx);
  const T = d.target !== undefined ? who(d.target, ctx) : "";
  switch (ev.kind) {
    case "action": {
      const extra = [];
      extra.push(`strength ${d.strength}`);
      if (d.side === 2) extra.push("side II");
      if (d.x) extra.push(`${d.x} X spent`);
      return `${S} used the ${n.action(d.card)} action (${extra.join(", ")}).`;
    }
    case "x_token": return `${S} moved ${n.action(d.card)} to slot 1 and took an X token.`;
    case "kept": return `${S} kept ${plural(d.count, "starting card")}.`;
    case "gain": {
      const src = n.source(d.source);
      return `${S} gained ${gainText(d.gains)}${src ? ` (${src})` : ""}.`;
    }
    case "drew": return `${S} drew ${plural(d.count, "card")}.`;
    case "drew_cards": return `${S} drew ${n.cards(d.cards)}.`;
    case "reputation_bonus": return `${S} reached reputation ${d.at} and took its bonus.`;
    case "upgraded": return `${S} upgraded the ${n.action(d.card)} action to side II.`;
    case "bonus_tile": return `${S} took the bonus tile ${n.card(d.tile)} at conservation ${d.space}.`;
    case "took_display": return `${S} took ${n.card(d.card)} from display folder ${d.folder}.`;
    case "discarded_final": return `${S} discarded a final-scoring card.`;
    case "venom_paid": return `${S} paid ${d.money} money for venom${d.appeal ? ` and lost ${d.appeal} appeal` : ""}.`;
    case "end_triggered": return `${S} triggered the end of the game${d.in_break ? " during the break" : ""}: ${d.remaining && d.remaining.length ? `last turns for ${listing(d.remaining.map((q) => who(q, ctx)))}` : "final scoring follows"}.`;
    case "break": return `Break ${d.number} begins (triggered by ${S}).`;
    case "discarded": return `${S} discarded ${n.card(d.card)}${d.reason ? ` (${d.reason})` : ""}.`;
    case "income": return `${S} collected ${d.money} money income.`;
    case "stalled": return `The game ends after break ${d.breaks}.`;
    case "game_over": return `Game over. Final scores: ${(d.scores || []).map((v, i) => `${who(i, ctx)} ${v}`).join(", ")}.`;
    case "ability": return `${n.card(d.card)} (${S}): ${cap(d.keyword)}${d.value !== null && d.value !== undefined && typeof d.value !== "object" ? ` ${typeof d.value === "string" ? iconLabel(d.value) : d.value}` : ""}.`;
    case "revealed": return `${S} revealed ${n.cards(d.cards)}.`;
    case "kept_card": return `${S} kept a card${d.dest === "final" ? " as a final-scoring card" : d.dest === "base" ? " (a base project)" : ""}.`;
    case "kept_card_id": return `${S} kept ${n.card(d.card)}.`;
    case "discarded_cards": return `${S} discarded ${n.cards(d.cards)}.`;
    case "dug_display": return `${S} replaced ${n.card(d.card)} in display folder ${d.folder}.`;
    case "sold": return `${S} sold ${n.card(d.card)} for ${d.money} money.`;
    case "tucked": return `${S} tucked a card under ${n.card(d.under)} for ${d.appeal} appeal.`;
    case "moved_card": return `${S} moved ${n.action(d.card)} to slot 1.`;
    case "boost": return `${S} carries out ${n.action(d.action)} at strength ${d.strength}.`;
    case "venom": return `${S} put a venom token on ${T === "You" ? "your" : T + "'s"} ${n.action(d.card)} card.`;
    case "constriction": return `${S} put a constriction token on ${T === "You" ? "your" : T + "'s"} ${n.action(d.card)} card.`;
    case "hypnosis": return `${S} hypnotised ${T} and uses their ${n.action(d.card)} card at strength ${d.strength}.`;
    case "pilfered": return d.money !== undefined
      ? `${T} gave ${S} ${d.money} money (pilfering).`
      : `${T} gave ${S} a random hand card (pilfering).`;
    case "pilfered_card": return `${T} gave ${S} ${n.card(d.card)}.`;
    case "break_advanced": return `${S} advanced the break token by ${d.by} (now ${d.pos}).`;
    case "animal": return `${S} played ${n.card(d.card)}${d.folder ? ` from folder ${d.folder}` : ""}${d.enclosure === null ? " (no own enclosure)" : ""}, paid ${d.cost}.`;
    case "relocated": return `${S} moved ${n.card(d.card)} into the ${cap(d.to).toLowerCase()}.`;
    case "partner_zoo": return `${S} took a partner zoo in ${iconLabel(d.continent)}.`;
    case "university": return `${S} took a university (${cap(d.university).toLowerCase()}).`;
    case "donation": return `${S} donated ${d.cost} money for 1 conservation point.`;
    case "task": return d.task === "reputation" ? `${S} worked on reputation.` : `${S} did the ${d.task} task.`;
    case "built": return `${S} built ${n.building(d.building)}${d.cost ? `, paid ${d.cost}` : " for free"}.`;
    case "sponsor": return `${S} played the sponsor ${n.card(d.card)}${d.folder ? ` from folder ${d.folder}` : ""}.`;
    case "supported": return `${S} supported ${n.card(d.project)} (level ${(d.level ?? 0) + 1}) for ${d.cp} conservation.`;
    case "project_played": return `${n.card(d.project)} went into the project row.`;
    case "project_discarded": return `${n.card(d.project)} left the project row.`;
    case "released": return `${S} released ${n.card(d.card)} into the wild, losing ${d.appeal} appeal.`;
    case "break_action": return `${S} took the break action for ${d.money} money.`;
    case "joined": return `${S} joined the game.`;
    case "started": return "The game started.";
    default: {
      const parts = Object.entries(d).filter(([k]) => k !== "seat").map(([k, v]) => `${k.replace(/_/g, " ")} ${typeof v === "object" ? JSON.stringify(v) : v}`);
      return `${d.seat !== undefined ? S + ": " : ""}${cap(ev.kind)}${parts.length ? ` (${parts.join(", ")})` : ""}.`;
    }
  }
}

/** A log line element. */
export function logLine(ev, ctx, version) {
  const d = ev.data || {};
  return h("li", { class: ["log-line", `ev-${ev.kind}`, ev.private && "private", ev.kind === "break" && "log-break"], dataset: { version: version ?? "" } },
    d.seat !== undefined && d.seat !== null ? seatChip(d.seat, { small: true }) : h("span", { class: "seat-chip small blank" }, "·"),
    h("span", { class: "log-text" }, sentence(ev, ctx)));
}
