// The Zoocracy log: one readable sentence per engine event ({kind, data}), in the page's language.
// Every sentence is a template zc.log.<kind> of the message catalogue; where the viewer is the one
// who acts (or the one acted on), the variant .you (.you_obj) wins if the language has it.
import { h, listing, cap } from "../dom.js";
import { seatChip } from "../seats.js";
import { t, tv } from "../i18n.js";
import { OFFICES, inSentence, phaseLabel, whoName } from "./common.js";

/** Where food, cards or a goal step came from (zc.source.<source>). */
const SOURCE = {
  bid: t("zc.source.bid"), campaign: t("zc.source.campaign"), event: t("zc.source.event"), seats: t("zc.source.seats"),
  card: t("zc.source.card"), goal: t("zc.source.goal"), president: t("zc.source.president"), progress: t("zc.source.progress"),
  promise: t("zc.source.promise"),
};

/** ctx: {you, cat (indexZoocracy), cardName(id)} */
export function sentence(ev, ctx) {
  const d = ev.data || {};
  const you = ctx.you;
  const isYou = (q) => q !== null && q !== undefined && q === you;
  const W = (q) => whoName(q, you);
  const w = (q) => whoName(q, you, true);
  /** The template `key` whose subject is seat `subj` (and object `obj`). */
  const say = (key, subj, obj, params = {}) => tv(key, isYou(subj) ? "you" : (isYou(obj) ? "you_obj" : null), { S: W(subj), ...params });
  const me = (key, params) => say(key, d.seat, undefined, params);
  const enc = (id) => { const e = ctx.cat.encById.get(id); return e ? e.name : cap(id); };
  const card = (id) => ctx.cardName(id);
  const evName = (id) => { const e = ctx.cat.events.get(id); return e ? e.name : String(id); };
  const source = (src) => SOURCE[src] || src || "";
  const offices = (o) => OFFICES.filter((x) => o && o[x.id] !== undefined).map((x) => t("zc.log.office_holder", { office: inSentence(x.short), name: w(o[x.id]) })).join(", ");
  const promises = (p) => Object.entries(p || {}).map(([r, q]) => t("zc.log.promise", { round: r, name: w(q) })).join(", ");
  const sign = (n) => `${n > 0 ? "+" : "−"}${Math.abs(n)}`;
  const yesNo = (v) => (v.yes ? t("zc.vote.yes_lower") : t("zc.vote.no_lower"));
  switch (ev.kind) {
    case "round": {
      const el = [d.presidential && t("zc.log.round_pres"), d.parliamentary && t("zc.log.round_parl")].filter(Boolean);
      return el.length ? t("zc.log.round_elections", { round: d.round, elections: listing(el) }) : t("zc.log.round", { round: d.round });
    }
    case "bid_placed": return me("zc.log.bid_placed");
    case "my_bid": return me("zc.log.my_bid", { amount: d.amount });
    case "bids_revealed": return t(d.stage === 2 ? "zc.log.rebids_revealed" : "zc.log.bids_revealed", { bids: Object.entries(d.bids || {}).map(([q, b]) => `${w(Number(q))} ${b}`).join(", ") });
    case "bid_tie": return t("zc.log.bid_tie", { amount: d.amount, parties: listing((d.parties || []).map(w)) });
    case "bid_changed": return d.by !== undefined
      ? say("zc.log.bid_lowered", d.by, d.seat, { T: w(d.seat), n: Math.abs(d.change) })
      : me("zc.log.bid_changed", { change: sign(d.change) });
    case "president": return me("zc.log.president", { bid: d.bid });
    case "no_president": return t("zc.log.no_president", { round: d.next_election });
    case "food": {
      const src = source(d.source);
      const key = d.amount >= 0 ? (src ? "zc.log.food_took_from" : "zc.log.food_took") : (src ? "zc.log.food_paid_from" : "zc.log.food_paid");
      return me(key, { amount: Math.abs(d.amount), source: src });
    }
    case "drew": return d.source ? me("zc.log.drew_from", { count: d.count, source: source(d.source) }) : me("zc.log.drew", { count: d.count });
    case "drew_cards": return me("zc.log.drew_cards", { cards: listing((d.cards || []).map(card)) });
    case "deck_reshuffled": return t("zc.log.deck_reshuffled", { count: d.size });
    case "campaign": return t("zc.log.campaign", { order: listing((d.order || []).map(w)), limit: d.limit });
    case "placed": {
      const key = d.source === "card" ? "zc.log.placed_card" : d.free ? "zc.log.placed_free" : "zc.log.placed";
      return me(key, { count: d.count, enclosure: enc(d.enclosure), free: d.free });
    }
    case "campaign_done": return me("zc.log.campaign_done");
    case "office_held": return me(d.office === "finance" ? "zc.log.office_held_finance" : "zc.log.office_held_defence");
    case "manipulated": return me("zc.log.manipulated", { enclosure: enc(d.enclosure) });
    case "blockaded": return me("zc.log.blockaded", { enclosure: enc(d.enclosure) });
    case "head_bonus": return me("zc.log.head_bonus", { food: d.food });
    case "negative_campaign": return say("zc.log.negative_campaign", d.seat, d.party, { T: w(d.party), enclosure: enc(d.enclosure) });
    case "negative_campaign_blocked": return me("zc.log.negative_campaign_blocked");
    case "card_played": return me("zc.log.card_played", { card: card(d.card) });
    case "moved": return me("zc.log.moved", { from: enc(d.source), to: enc(d.to) });
    case "removed": return say("zc.log.removed", d.seat, d.party, { T: w(d.party), enclosure: enc(d.enclosure) });
    case "limit_raised": return me("zc.log.limit_raised", { amount: d.amount });
    case "blockade_lifted": return me("zc.log.blockade_lifted", { enclosure: enc(d.enclosure) });
    case "parliament_elected": return t("zc.log.parliament_elected", { seats: (d.seats || []).map((n, q) => `${w(q)} ${n}`).join(", ") });
    case "majority": return t("zc.log.majority", { majority: d.majority, total: d.total, order: listing((d.order || []).map(w)) });
    case "no_seats": return t("zc.log.no_seats");
    case "seats_moved": return say(d.defection ? "zc.log.seats_moved_defection" : "zc.log.seats_moved", d.to, d.source, { T: w(d.source), count: d.seats });
    case "proposal": return me(d.mode === "no_confidence" ? "zc.log.proposal_nc" : "zc.log.proposal", {
      members: listing((d.members || []).map(w)), offices: offices(d.offices), now: w((d.goals || {}).now), next: w((d.goals || {}).next) });
    case "voted": return me("zc.log.voted");
    case "my_vote": return d.card ? me("zc.log.my_vote_card", { vote: yesNo(d), card: card(d.card) }) : me("zc.log.my_vote", { vote: yesNo(d) });
    case "votes_revealed": return t(d.accepted ? "zc.log.votes_accepted" : "zc.log.votes_rejected", {
      votes: Object.entries(d.votes || {}).map(([q, v]) => `${w(Number(q))} ${yesNo(v)}${v.card ? " ×2" : ""}`).join(", "), yes: d.yes, no: d.no });
    case "government_formed": {
      const text = t("zc.log.government_formed", { members: listing((d.members || []).map(w)), offices: offices(d.offices), promises: promises(d.promises) });
      return d.opposition_leader !== null && d.opposition_leader !== undefined ? `${text} ${t("zc.log.opposition_leader", { name: w(d.opposition_leader) })}` : text;
    }
    case "caretaker": return t("zc.log.caretaker", { members: listing((d.members || []).map(w)) });
    case "no_government": return t("zc.log.no_government", { round: d.next_election });
    case "event": return d.flag ? `${t("zc.log.event", { name: evName(d.id) })} ${t("zc.log.event_flag")}` : t("zc.log.event", { name: evName(d.id) });
    case "event_cancelled": return me("zc.log.event_cancelled", { name: evName(d.event) });
    case "next_campaign_limit": return t("zc.log.next_campaign_limit", { change: sign(d.change) });
    case "goal_blocked": return d.source ? t("zc.log.goal_blocked_by", { source: source(d.source) }) : t("zc.log.goal_blocked");
    case "goal_cost": return t("zc.log.goal_cost", { cost: d.cost });
    case "goal": return d.source ? me("zc.log.goal_from", { step: d.step, source: source(d.source) }) : me("zc.log.goal", { step: d.step });
    case "goal_not_realised": return say("zc.log.goal_not_realised", d.party, undefined, {
      reason: d.reason === "declined" ? t("zc.log.reason_declined") : d.reason === "blocked" ? t("zc.log.reason_blocked") : d.reason });
    case "goal_assigned": return say("zc.log.goal_assigned", d.seat, d.party, { T: w(d.party), P: w(d.promised) });
    case "no_confidence": return me("zc.log.no_confidence");
    case "no_confidence_declined": return me("zc.log.no_confidence_declined");
    case "no_confidence_failed": return t("zc.log.no_confidence_failed");
    case "discarded": return me("zc.log.discarded", { card: card(d.card) });
    case "game_over": {
      if (d.reason === "goal_track") return t("zc.log.game_over_goal", { name: w(d.winner) });
      return t(d.reason === "end_flag" ? "zc.log.game_over_flag" : "zc.log.game_over", { round: d.round });
    }
    case "window": return t("zc.log.window", { phase: phaseLabel(d.phase) });
    case "joined": return me("zc.log.joined");
    case "undo": return d.restart ? me("zc.log.restart") : me("zc.log.undo", { version: d.undone });
    case "confirm": return me(d.auto ? "zc.log.confirm_auto" : "zc.log.confirm");
    case "resign": return me("zc.log.resign");
    case "abort": return me("zc.log.abort");
    case "started": return t("zc.log.started");
    default: {
      // an event this client does not know yet: its kind and fields, as they are
      const parts = Object.entries(d).filter(([k]) => k !== "seat").map(([k, v]) => `${k.replace(/_/g, " ")} ${typeof v === "object" ? JSON.stringify(v) : v}`);
      return `${d.seat !== undefined ? W(d.seat) + ": " : ""}${cap(ev.kind)}${parts.length ? ` (${parts.join(", ")})` : ""}.`;
    }
  }
}

const QUIET = new Set(["bid_placed", "voted", "food", "drew"]);
const MAJOR = new Set(["round", "president", "parliament_elected", "government_formed", "event", "game_over", "votes_revealed", "bids_revealed"]);

export function logLine(ev, ctx, version) {
  const d = ev.data || {};
  const actor = d.seat ?? (ev.kind === "seats_moved" ? d.to : undefined);
  return h("li", {
    class: ["log-line", `ev-${ev.kind}`, ev.only && "private", QUIET.has(ev.kind) && "quiet", MAJOR.has(ev.kind) && "major", ev.kind === "round" && "log-break"],
    dataset: { version: version ?? "", kind: ev.kind },
  },
  actor !== undefined && actor !== null ? seatChip(actor, { small: true }) : h("span", { class: "seat-chip small blank" }, "·"),
  h("span", { class: "log-text" }, sentence(ev, ctx)));
}
