// The Zoocracy decision bar: what is asked now, in one sentence, and the legal answers as controls.
// The answers are exactly the dicts of GET /legal; grouping and labels are presentation only.
// Secret decisions (bids, votes) show who has answered, never what.
import { h, $$, cap } from "../dom.js";
import { seatChip, seatName, seatLabel, seatTag } from "../seats.js";
import { t } from "../i18n.js";
import { TableBar } from "../tablebar.js";
import { OFFICE, inSentence, phaseLabel, whoName } from "./common.js";
import { stepLabel } from "./board.js";
import { KIND_ROWS } from "./answers.js";

const SIMULTANEOUS = new Set(["bid", "vote", "discard"]); const FINISHERS = new Set(["done", "pass", "hold", "decline", "members_done"]);

/** What another party is doing, for "Waiting for X: …". */
function doing(dec, ui) {
  switch (dec.kind) {
    case "bid": return dec.stage === 2 ? t("zc.doing.rebid") : t("zc.doing.bid");
    case "campaign_turn": return t("zc.doing.campaign_turn");
    case "office": return dec.office === "finance" ? t("zc.doing.office_finance") : t("zc.doing.office_defence");
    case "proposal": return t("zc.doing.proposal", { step: stepLabel(dec.step) });
    case "vote": return t("zc.doing.vote");
    case "window": return t("zc.doing.window", { phase: inSentence(phaseLabel(dec.phase)) });
    case "card_target": return t("zc.doing.card_target", { card: ui.cardName(dec.card) });
    case "nc_offer": return t("zc.doing.nc_offer");
    case "assign_goal": return t("zc.doing.assign_goal");
    case "pay_goal": return t("zc.doing.pay_goal");
    case "discard": return t("zc.doing.discard");
    default: return cap(dec.kind || t("doing.deciding")).toLowerCase();
  }
}

/** Which enclosure / card a legal action refers to (for highlights on the table). */
function enclosureOf(a) {
  return a.enclosure ?? a.from ?? null;
}
function cardOf(a) {
  return a.type === "card" || a.type === "discard" ? a.card : null;
}

export class DecisionBar extends TableBar {
  constructor(ui) {
    super(ui, ["#zoo-map", "#player"]);
    this.waitingManyKey = "zc.bar.waiting_for_n_doing";
    this.finalKey = "zc.bar.final_result";
  }

  resetSel() {
    this.sel = { bid: null, focus: null, focusLabel: null };
  }

  // ---------------------------------------------------------------- the sentence
  sentence(dec, mine) {
    const ui = this.ui;
    const st = this.st;
    const pub = ui.pub;
    const me = st.seat;
    if (pub.over) return t("bar.game_over");
    if (!dec) return t("bar.waiting");
    if (!mine) {
      const secret = ui.priv ? ui.priv.secret : null;
      if (secret !== null && secret !== undefined && SIMULTANEOUS.has(dec.kind)) {
        if (dec.kind === "bid") return t("zc.ask.bid_in", { amount: secret });
        if (dec.kind === "vote") {
          const vote = secret.yes ? t("zc.vote.yes_lower") : t("zc.vote.no_lower");
          return secret.card ? t("zc.ask.vote_in_card", { vote, card: ui.cardName(secret.card) }) : t("zc.ask.vote_in", { vote });
        }
      }
      return this.waitingSentence(dec, doing(dec, ui));
    }
    const priv = ui.priv || {};
    switch (dec.kind) {
      case "bid": return dec.stage === 2
        ? t("zc.ask.rebid", { min: (dec.min || {})[String(me)] ?? 0, food: priv.food })
        : t("zc.ask.bid", { food: priv.food });
      case "campaign_turn": return [h("span", { class: "wide-only" }, t("zc.ask.campaign_turn")),
        h("span", { class: "narrow-only" }, t("zc.ask.campaign_turn_short"))];
      case "office": return dec.office === "finance" ? t("zc.ask.office_finance") : t("zc.ask.office_defence");
      case "proposal": {
        const key = dec.mode === "no_confidence" ? "zc.ask.proposal_nc" : dec.mode === "duel" ? "zc.ask.proposal_duel" : "zc.ask.proposal";
        let what;
        switch (dec.step) {
          case "members": what = t("zc.ask.step_members", { majority: pub.majority ?? "?" }); break;
          case "head": case "finance": case "defence": what = t("zc.ask.step_office", { office: inSentence(OFFICE[dec.step].label) }); break;
          case "goal_now": what = t("zc.ask.step_goal_now", { round: pub.round }); break;
          case "goal_next": what = t("zc.ask.step_goal_next", { round: pub.round + 1 }); break;
          default: what = `${stepLabel(dec.step)}.`;
        }
        return t(key, { what });
      }
      case "vote": return t(dec.mode === "no_confidence" ? "zc.ask.vote_nc" : "zc.ask.vote", { name: whoName(dec.proposal.seat, me) });
      case "window": return t("zc.ask.window", { phase: phaseLabel(dec.phase) });
      case "card_target": return t("zc.ask.card_target", { card: ui.cardName(dec.card) });
      case "nc_offer": return t("zc.ask.nc_offer");
      case "assign_goal": return t("zc.ask.assign_goal", { name: whoName(dec.promised, me, true) });
      case "pay_goal": return t("zc.ask.pay_goal", { cost: dec.cost, food: priv.food });
      case "discard": return t("zc.ask.discard", { n: (priv.hand || []).length, limit: pub.hand_limit });
      default: return t("ask.default", { kind: cap(dec.kind) });
    }
  }

  /** Simultaneous decisions: who has answered (✓) and who we wait for — never what. */
  waitingLine(dec, mine) {
    const st = this.st;
    const pub = this.ui.pub;
    if (!dec || pub.over) return null;
    const waiting = st.waitingFor || dec.waiting || [];
    if (!SIMULTANEOUS.has(dec.kind) && waiting.length <= 1) return null;
    const me = st.seat;
    const answered = (dec.answered || []).filter((q) => !waiting.includes(q));
    const others = waiting.filter((q) => !(mine && q === me));
    // names beside their chips (a long one ends in "…", its tooltip whole); who has answered: a
    // chip and ✓ (the name in words for a screen reader, in the tooltip)
    const wf = (q) => h("span", { class: "wf", title: t("zc.bar.not_answered", { seat: seatLabel(q) }) },
      q === me ? [seatChip(q, { small: true }), ` ${t("zc.who.you_lower")}`] : seatTag(q, { small: true }));
    const done = (q) => h("span", { class: "wf done", title: t("bar.has_answered", { name: seatLabel(q) }) }, seatChip(q, { small: true }),
      q === me ? ` ${t("zc.who.you_lower")} ✓` : [h("span", { class: "visually-hidden" }, ` ${seatName(q)}`), " ✓"]);
    return h("span", { class: "waiting-for", "aria-label": t("zc.bar.who_answered") },
      others.length ? [h("span", { class: "wf-label" }, mine ? t("bar.also_waiting_for") : t("bar.waiting_for")), others.map(wf)] : null,
      answered.length ? [h("span", { class: "wf-label" }, t("bar.answered")), answered.map(done)] : null);
  }

  // ---------------------------------------------------------------- controls
  partyLabel(q, extra) {
    return [seatChip(q, { small: true }), " ", q === this.st.seat ? t("zc.who.you") : seatName(q), extra ? h("span", { class: "btn-note" }, extra) : null];
  }

  encName(id) { return this.ui.enclosureName(id); }

  /** A label for any legal action (the fallback, and the focus row). */
  label(a) {
    const ui = this.ui;
    switch (a.type) {
      case "place": return t("zc.answer.place", { count: a.count });
      case "marker": return this.encName(a.enclosure);
      case "negative": return [`${this.encName(a.enclosure)}: ${t("zc.answer.swap")} `, seatChip(a.party, { small: true }), ` ${t("zc.answer.marker")}`];
      case "card": return t("zc.answer.play", { card: ui.cardName(a.card) });
      case "discard": return t("answer.discard", { card: ui.cardName(a.card) });
      case "target":
        if (a.from !== undefined) return `${this.encName(a.from)} → ${this.encName(a.to)}`;
        if (a.enclosure !== undefined && a.party !== undefined) return [seatChip(a.party, { small: true }), t("zc.answer.marker_in", { enclosure: this.encName(a.enclosure) })];
        if (a.enclosure !== undefined) return this.encName(a.enclosure);
        if (a.party !== undefined) return this.partyLabel(a.party);
        break;
      case "add": case "office": case "goal": case "assign": return this.partyLabel(a.party);
      case "vote": return `${a.yes ? t("zc.vote.yes") : t("zc.vote.no")}${a.card ? ` ×2 (${ui.cardName(a.card)})` : ""}`;
      case "bid": return t("zc.answer.bid", { amount: a.amount });
      default: break;
    }
    const bits = Object.entries(a).filter(([k]) => k !== "type").map(([k, v]) => `${k.replace(/_/g, " ")} ${typeof v === "object" ? JSON.stringify(v) : v}`);
    return `${cap(a.type)}${bits.length ? ": " + bits.join(", ") : ""}`;
  }

  /** The focus row (a clicked enclosure or card with several answers), the rows of the decision's
   * kind (answers.js) and a plain button for every answer they did not draw. */
  controls(legal, dec) {
    const rows = [];
    const by = new Map();
    for (const a of legal) {
      if (!by.has(a.type)) by.set(a.type, []);
      by.get(a.type).push(a);
    }
    const handled = new Set();
    const take = (type) => { handled.add(type); return by.get(type) || []; };

    if (this.sel.focus && this.sel.focus.length) {
      const focus = this.row(this.sel.focusLabel || t("zc.bar.this_one"), ...this.sel.focus.map((a) => this.answer(this.label(a), a, { primary: true })),
        h("button", { class: "btn ghost", type: "button", onclick: () => { this.sel.focus = null; this.render(); } }, t("common.cancel")));
      focus.classList.add("zc-focus-row");
      rows.push(focus);
    }

    const draw = KIND_ROWS[dec.kind];
    if (draw) rows.push(...draw(this, take, dec));
    // anything not drawn above: plain buttons (the bar never hides a legal answer)
    const rest = legal.filter((a) => !handled.has(a.type));
    if (rest.length) {
      rows.push(this.row(null, ...rest.map((a) => this.answer(this.label(a), a, { primary: !FINISHERS.has(a.type), secondary: FINISHERS.has(a.type) }))));
    }
    return rows;
  }

  /** "Done" of a campaign turn: while food can still be placed, the first click asks to confirm
   * (the button is no answer of its own then; the confirm row's is). */
  doneCampaign(done, places) {
    const label = [h("span", { class: "wide-only" }, t("zc.bar.done_campaign")), h("span", { class: "narrow-only" }, t("answer.done"))];
    if (!places.length) return this.answer(label, done, { secondary: true, class: "zc-done" });
    return h("button", { class: "btn secondary zc-done zc-done-ask", type: "button", disabled: this.st.pending || this.sel.confirmDone,
      onclick: () => { this.sel.confirmDone = true; this.render(); } }, label);
  }

  // ---------------------------------------------------------------- the table: legal targets
  applyHighlights() {
    const legal = this.st.pending ? [] : this.legal;
    const encs = new Set(legal.map(enclosureOf).filter(Boolean));
    const cards = new Set(legal.map(cardOf).filter(Boolean));
    for (const el of $$("#zoo-map .zc-enc")) {
      const on = encs.has(el.dataset.enclosure);
      el.classList.toggle("legal", on);
      if (on) { el.tabIndex = 0; el.setAttribute("role", "button"); } else { el.removeAttribute("tabindex"); el.removeAttribute("role"); }
    }
    for (const el of $$("#player .zc-hand .zc-card")) {
      const on = cards.has(el.dataset.card);
      el.classList.toggle("legal", on);
      if (on) { el.tabIndex = 0; el.setAttribute("role", "button"); } else { el.removeAttribute("tabindex"); el.removeAttribute("role"); }
    }
  }

  onTableClick(e) {
    const legal = this.st.pending ? [] : this.legal;
    if (!legal.length) return;
    const encEl = e.target.closest && e.target.closest(".zc-enc.legal");
    const cardEl = e.target.closest && e.target.closest(".zc-hand .zc-card.legal");
    let acts = [];
    let label = null;
    if (encEl) {
      const id = encEl.dataset.enclosure;
      acts = legal.filter((a) => enclosureOf(a) === id);
      label = t("zc.bar.the_enclosure", { enclosure: this.encName(id) });
    } else if (cardEl) {
      const id = cardEl.dataset.card;
      acts = legal.filter((a) => cardOf(a) === id);
      label = `${this.ui.cardName(id)}:`;
    }
    if (!acts.length) return;
    if (acts.length === 1) { this.send(acts[0]); return; }
    this.sel.focus = acts;
    this.sel.focusLabel = label;
    this.render();
    const first = this.host.querySelector(".bar-controls .answer");
    if (first) first.focus({ preventScroll: true });
  }

  onKey(e) {
    if (e.key === "Escape" && this.sel.focus) { this.sel.focus = null; this.render(); return true; }
    return false;
  }
}
