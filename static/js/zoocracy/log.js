// The Zoocracy log: one readable sentence per engine event ({kind, data}).
import { h, listing, cap } from "../dom.js";
import { seatChip } from "../seats.js";
import { OFFICE, OFFICES, phaseLabel, plural, whoName } from "./common.js";

const SOURCE = {
  bid: "presidential bid", campaign: "campaign", event: "event", seats: "parliament seats", card: "a card",
  goal: "goal", president: "presidency", progress: "progress", promise: "promised goal",
};

/** ctx: {you, cat (indexZoocracy), cardName(id)} */
export function sentence(ev, ctx) {
  const d = ev.data || {};
  const you = ctx.you;
  const W = (q) => whoName(q, you);
  const w = (q) => whoName(q, you, true);
  const S = W(d.seat);
  const enc = (id) => { const e = ctx.cat.encById.get(id); return e ? e.name : cap(id); };
  const card = (id) => ctx.cardName(id);
  const evName = (id) => { const e = ctx.cat.events.get(id); return e ? e.name : String(id); };
  const offices = (o) => OFFICES.filter((x) => o && o[x.id] !== undefined).map((x) => `${x.short.toLowerCase()} ${w(o[x.id])}`).join(", ");
  const promises = (p) => Object.entries(p || {}).map(([r, q]) => `round ${r} ${w(q)}`).join(", ");
  switch (ev.kind) {
    case "round": {
      const el = [d.presidential && "presidential election", d.parliamentary && "parliamentary election"].filter(Boolean);
      return `Round ${d.round} begins${el.length ? ` (${listing(el)})` : ""}.`;
    }
    case "bid_placed": return `${S} placed a secret bid.`;
    case "my_bid": return `${S === "You" ? "Your" : S + "'s"} secret bid: ${plural(d.amount, "food", "food")}.`;
    case "bids_revealed": return `${d.stage === 2 ? "Re-bids" : "Bids"} revealed: ${Object.entries(d.bids || {}).map(([q, b]) => `${w(Number(q))} ${b}`).join(", ")}.`;
    case "bid_tie": return `Tie at ${d.amount} between ${listing((d.parties || []).map(w))}: they bid again.`;
    case "bid_changed": return d.by !== undefined
      ? `${W(d.by)} lowered ${w(d.seat)}'s bid by ${Math.abs(d.change)}.`
      : `${S === "You" ? "Your" : S + "'s"} bid counts ${d.change > 0 ? "+" : "−"}${Math.abs(d.change)}.`;
    case "president": return `${S} ${S === "You" ? "become" : "becomes"} president (bid ${d.bid}).`;
    case "no_president": return `Tied again: no president this time; the next presidential election is in round ${d.next_election}.`;
    case "food": {
      const src = SOURCE[d.source] || d.source || "";
      return d.amount >= 0 ? `${S} took ${plural(d.amount, "food", "food")}${src ? ` (${src})` : ""}.` : `${S} paid ${plural(-d.amount, "food", "food")}${src ? ` (${src})` : ""}.`;
    }
    case "drew": return `${S} drew ${plural(d.count, "action card")}${d.source ? ` (${SOURCE[d.source] || d.source})` : ""}.`;
    case "drew_cards": return `${S} drew ${listing((d.cards || []).map(card))}.`;
    case "deck_reshuffled": return `The discard pile was shuffled into a new deck (${d.size} cards).`;
    case "campaign": return `Campaign: order ${listing((d.order || []).map(w))}; campaign limit ${d.limit}.`;
    case "placed": return `${S} placed ${plural(d.count, "food", "food")} in the ${enc(d.enclosure)}${d.source === "card" ? " (card, from the supply)" : d.free ? ` (${d.free} from the supply)` : ""}.`;
    case "campaign_done": return `${S} ended ${S === "You" ? "your" : "its"} campaign turn.`;
    case "office_held": return `${S} (${OFFICE[d.office] ? OFFICE[d.office].label.toLowerCase() : d.office}) kept the ${d.office === "finance" ? "manipulation" : "blockade"} marker for later.`;
    case "manipulated": return `${S} (finance minister) manipulated the ${enc(d.enclosure)}: it gives seats to first place only.`;
    case "blockaded": return `${S} (defence minister) blockaded the ${enc(d.enclosure)}: no food may be added there.`;
    case "head_bonus": return `${S} (head of government) added ${d.food} food from the supply to this campaign turn.`;
    case "negative_campaign": return `${S} ran a negative campaign in the ${enc(d.enclosure)}: one of ${w(d.party)}'s markers became ${S === "You" ? "yours" : "theirs"}.`;
    case "negative_campaign_blocked": return `${S} blocked negative campaigns for the rest of this campaign.`;
    case "card_played": return `${S} played ${card(d.card)}.`;
    case "moved": return `${S} moved a food marker from the ${enc(d.source)} to the ${enc(d.to)}.`;
    case "removed": return `${S} removed one of ${w(d.party)}'s food markers from the ${enc(d.enclosure)}.`;
    case "limit_raised": return `${S} may place ${d.amount} more food this turn.`;
    case "blockade_lifted": return `${S} lifted the blockade of the ${enc(d.enclosure)}.`;
    case "parliament_elected": return `Parliament elected: ${(d.seats || []).map((n, q) => `${w(q)} ${n}`).join(", ")} seats.`;
    case "majority": return `Majority: ${d.majority} of ${d.total} seats. Seat order: ${listing((d.order || []).map(w))}.`;
    case "no_seats": return "Nobody won a seat.";
    case "seats_moved": return `${W(d.to)} took ${plural(d.seats, "seat")} from ${w(d.source)}${d.defection ? " (defection)" : ""}.`;
    case "proposal": return `${S} proposed${d.mode === "no_confidence" ? " (no confidence)" : ""}: coalition ${listing((d.members || []).map(w))}; ${offices(d.offices)}; goals: this round ${w((d.goals || {}).now)}, next round ${w((d.goals || {}).next)}.`;
    case "voted": return `${S} voted (secretly).`;
    case "my_vote": return `${S === "You" ? "Your" : S + "'s"} vote: ${d.yes ? "yes" : "no"}${d.card ? ` with ${card(d.card)} (counts twice)` : ""}.`;
    case "votes_revealed": return `Votes: ${Object.entries(d.votes || {}).map(([q, v]) => `${w(Number(q))} ${v.yes ? "yes" : "no"}${v.card ? " ×2" : ""}`).join(", ")} — ${d.yes} : ${d.no}, ${d.accepted ? "accepted" : "rejected"}.`;
    case "government_formed": return `New government: ${listing((d.members || []).map(w))}; ${offices(d.offices)}. Goals promised: ${promises(d.promises)}.${d.opposition_leader !== null && d.opposition_leader !== undefined ? ` Opposition leader: ${w(d.opposition_leader)}.` : ""}`;
    case "caretaker": return `No proposal passed: the government of ${listing((d.members || []).map(w))} stays as caretaker.`;
    case "no_government": return `No proposal passed and there is no government: the next parliamentary election is in round ${d.next_election}.`;
    case "event": return `Event: ${evName(d.id)}.${d.flag ? " It carries the end flag: the game ends after this round." : ""}`;
    case "event_cancelled": return `${S} cancelled the event ${evName(d.event)}.`;
    case "next_campaign_limit": return `The next campaign limit changes by ${d.change > 0 ? "+" : "−"}${Math.abs(d.change)}.`;
    case "goal_blocked": return `This round's goal is blocked${d.source ? ` (${d.source})` : ""}.`;
    case "goal_cost": return `Realising this round's goal costs ${d.cost} food.`;
    case "goal": return `${S} advanced to goal step ${d.step}${d.source ? ` (${SOURCE[d.source] || d.source})` : ""}.`;
    case "goal_not_realised": return `${W(d.party)}'s goal is not realised (${d.reason === "declined" ? "not paid" : d.reason}).`;
    case "goal_assigned": return `${S} (head of government) gave this round's goal to ${w(d.party)} (promised to ${w(d.promised)}).`;
    case "no_confidence": return `${S} called a vote of no confidence.`;
    case "no_confidence_declined": return `${S} did not call a vote of no confidence.`;
    case "no_confidence_failed": return "The vote of no confidence failed.";
    case "discarded": return `${S} discarded ${card(d.card)} (hand limit).`;
    case "game_over": {
      if (d.reason === "goal_track") return `Game over: ${w(d.winner)} reached the last goal step.`;
      return `Game over after round ${d.round}${d.reason === "end_flag" ? " (the end flag)" : ""}.`;
    }
    case "window": return `Card window: ${phaseLabel(d.phase)}.`;
    case "joined": return `${S} joined the game.`;
    case "started": return "The game started.";
    default: {
      const parts = Object.entries(d).filter(([k]) => k !== "seat").map(([k, v]) => `${k.replace(/_/g, " ")} ${typeof v === "object" ? JSON.stringify(v) : v}`);
      return `${d.seat !== undefined ? S + ": " : ""}${cap(ev.kind)}${parts.length ? ` (${parts.join(", ")})` : ""}.`;
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
