// The Zoocracy table: goal track and parties on top, the zoo's enclosures with everyone's food
// markers, the parliament hemicycle with government, proposal and vote, the round track and the
// event deck, the own party's treasury and hand, the log, and the winner screen.
// Everything shown comes from the view (public + own private part) and the game's catalog.
import { h, clear, cap } from "../dom.js";
import { seatChip, seatName } from "../seats.js";
import { t } from "../i18n.js";
import { TableUI } from "../table.js";
import { indexZoocracy, phaseLabel, PHASE, OFFICE } from "./common.js";
import { renderCard } from "./cards.js";
import {
  renderEnclosures, renderHemicycle, parliamentLegend, renderGovernment, renderProposal, renderPresidential,
  renderGoalTrack, partyRows, renderRoundTrack, renderPhaseStrip, renderEventDeck,
} from "./board.js";
import { DecisionBar } from "./decision.js";
import { logLine } from "./log.js";
import { renderFinal } from "./final.js";

export class ZoocracyUI extends TableUI {
  constructor(st, hooks) {
    super(st, hooks);
    this.cat = indexZoocracy(st.catalog);
    document.body.classList.add("zoocracy-game");
    this.bar = new DecisionBar(this);
    this.setupTable();
  }

  // ---------------------------------------------------------------- helpers
  cardName(id) { const c = this.cat.cards.get(id); return c ? c.name : String(id); }
  enclosureName(id) { const e = this.cat.encById.get(id); return e ? e.name : cap(id); }
  officeName(id) { return OFFICE[id] ? OFFICE[id].label : String(id); }
  cardText(id) { const c = this.cat.cards.get(id); return c ? t("zc.card.text", { name: c.name, text: c.text }) : String(id); }
  /** My own campaign turn frame, if it is the current decision. */
  myCampaignFrame() {
    const d = this.priv && this.priv.decision;
    return d && d.kind === "campaign_turn" ? d : null;
  }

  statusLine() {
    if (!this.st.view || !this.st.view.public) return [];
    const p = this.pub;
    const out = [];
    out.push(h("span", { class: "stat", title: t("zc.status.round_title") }, t("zc.status.round", { round: p.round, rounds: p.rounds })));
    out.push(h("span", { class: "stat zc-phase-stat" }, PHASE[p.phase] && PHASE[p.phase].no ? `${PHASE[p.phase].no} · ` : "", phaseLabel(p.phase)));
    if (p.over) out.push(h("span", { class: "stat strong" }, t("status.game_over")));
    else {
      const waiting = this.st.waitingFor || (p.decision && p.decision.waiting) || [];
      if (waiting.length === 1) out.push(h("span", { class: "stat whose" }, seatChip(waiting[0], { small: true }), ` ${waiting[0] === this.st.seat ? t("status.your_move") : t("status.to_play", { name: seatName(waiting[0]) })}`));
      else if (waiting.length > 1) out.push(h("span", { class: "stat whose" }, t("zc.status.waiting_n", { count: waiting.length })));
      if (p.events && p.events.end_flag) out.push(h("span", { class: "stat warn" }, t("zc.status.last_round")));
    }
    return out;
  }

  // ---------------------------------------------------------------- render everything (table.js)
  hasView(pub) { return Array.isArray(pub.goals); }

  // ---------------------------------------------------------------- goal track + parties
  renderScore() {
    const host = this.els.score;
    const W = Math.max(300, Math.min(host.clientWidth || 900, 1900));
    this.lastWidth = host.clientWidth;
    const phone = W < 640;
    const trackW = phone ? W - 20 : Math.min(560, Math.max(320, W * 0.34));
    clear(host).append(
      h("div", { class: "zc-goal-wrap" }, h("h2", { class: "zc-score-title" }, t("zc.goal.title")), renderGoalTrack(this, trackW)),
      partyRows(this));
  }

  // ---------------------------------------------------------------- the zoo
  renderZoo() {
    const p = this.pub;
    clear(this.els.zooTabs);
    const camp = p.campaign;
    const head = h("div", { class: "zc-zoo-head" },
      h("h3", `${t("zc.zoo.title")} `, h("span", { class: "muted small" }, t("zc.zoo.subtitle"))),
      h("span", { class: "zc-zoo-facts" },
        camp ? h("span", { class: "zc-chip" }, `${t("zc.zoo.campaign_limit")} `, h("b", { class: "num" }, String(camp.limit))) : null,
        p.next_campaign_limit_change ? h("span", { class: "zc-chip", title: t("zc.zoo.next_limit_title") }, `${t("zc.zoo.next_limit")} `, h("b", { class: "num" }, `${p.next_campaign_limit_change > 0 ? "+" : "−"}${Math.abs(p.next_campaign_limit_change)}`)) : null,
        camp && camp.no_negative ? h("span", { class: "zc-chip warn" }, t("zc.zoo.no_negative")) : null,
        h("span", { class: "zc-chip" }, `${t("zc.zoo.next_election")} `, h("b", { class: "num" }, t("zc.zoo.round", { round: (p.elections || {}).parliament ?? "–" })))));
    clear(this.els.zooMap).append(head, h("div", { class: "zc-enclosures" }, renderEnclosures(this)));
    const info = [];
    if (p.order && p.order.length) {
      info.push(h("p", { class: "zc-line" }, h("span", { class: "zc-key" }, t("zc.zoo.seat_order")), p.order.map((q, i) => [i ? h("span", { class: "muted" }, " › ") : null, seatChip(q, { small: true })])));
    }
    info.push(h("section", { class: "board-block zc-where" },
      h("h3", t("zc.round_of", { round: p.round, rounds: p.rounds }), h("span", { class: "muted small" }, ` · ${phaseLabel(p.phase)}`)),
      renderPhaseStrip(this), renderRoundTrack(this)));
    info.push(h("section", { class: "board-block zc-event-block" },
      h("h3", `${t("zc.events.title")} `, h("span", { class: "muted small" }, t("zc.events.remaining", { count: p.events.remaining }))), ...renderEventDeck(this)));
    clear(this.els.zooInfo).append(...info);
  }

  // ---------------------------------------------------------------- parliament, rounds, events
  renderBoard() {
    const p = this.pub;
    const out = [];
    const total = (p.parliament || []).reduce((a, b) => a + b, 0);
    const prop = renderProposal(this);
    const pres = renderPresidential(this);
    out.push(h("div", { class: "zc-board-grid" },
      h("section", { class: "board-block zc-parliament" },
        h("h3", `${t("zc.parl.title")} `, h("span", { class: "muted small" }, total ? t("zc.parl.summary", { count: total, majority: p.majority ?? "?" }) : t("zc.parl.not_elected"))),
        h("div", { class: "zc-parl-body" }, renderHemicycle(this), parliamentLegend(this))),
      h("section", { class: "board-block zc-government" }, h("h3", t("zc.gov.title")), ...renderGovernment(this)),
      prop ? h("section", { class: "board-block zc-proposal-block" }, prop) : null,
      pres.length ? h("section", { class: "board-block zc-pres" }, h("h3", t("zc.phase.president")), ...pres) : null));
    clear(this.els.board).append(...out);
  }

  // ---------------------------------------------------------------- own party / hands
  renderPlayer() {
    const p = this.pub;
    const me = this.st.seat;
    const out = [];
    const phase = p.phase;
    if (this.priv && me !== null && me !== undefined) {
      const hand = this.priv.hand || [];
      out.push(h("div", { class: "player-head zc-me" },
        h("h3", `${t("zc.me.party")} `, seatChip(me, { small: true })),
        h("span", { class: "zc-treasury", title: t("zc.me.treasury_title") }, `${t("zc.me.treasury")} `, h("b", { class: "num", dataset: { k: "me:food" } }, String(this.priv.food)), ` ${t("zc.me.food")} `, h("span", { class: "muted small" }, t("zc.me.secret"))),
        h("span", { class: "zc-treasury" }, `${t("zc.me.goal_step")} `, h("b", { class: "num" }, `${p.goals[me]}/${p.goal_track}`)),
        h("span", { class: "zc-treasury" }, `${t("zc.parties.seats")} `, h("b", { class: "num" }, String((p.parliament || [])[me] ?? 0)))));
      out.push(h("div", { class: "hand-head" }, h("h3", t("zc.me.hand", { n: hand.length, limit: p.hand_limit })),
        h("span", { class: "muted small" }, t("zc.me.hand_note"))));
      out.push(h("div", { class: "zc-hand", id: "hand" }, hand.length
        ? hand.map((cid) => renderCard(this.cat.cards.get(cid), cid, { now: this.cat.cards.get(cid) && this.cat.cards.get(cid).phase === phase }))
        : h("p", { class: "muted" }, t("zc.me.no_cards"))));
    } else {
      out.push(h("div", { class: "player-head" }, h("h3", t("zc.parties.title")), h("span", { class: "muted small" }, t("zc.parties.secret_note"))));
      out.push(h("ul", { class: "zc-hands" }, Array.from({ length: p.seats }, (_, q) => h("li", null, seatChip(q, { small: true }), ` ${t("zc.parties.holds", { name: seatName(q), count: (p.hand_sizes || [])[q] ?? 0 })}`))));
    }
    out.push(h("p", { class: "zc-public-note muted small" }, `${t("zc.public_note")} `, t("zc.secret_note")));
    const discard = p.discard || [];
    out.push(h("details", { class: "zc-discard" }, h("summary", t("zc.deck_discard", { deck: p.deck_size, discard: discard.length })),
      discard.length ? h("div", { class: "zc-discard-cards" }, discard.slice().reverse().map((cid) => renderCard(this.cat.cards.get(cid), cid, { mini: true })))
        : h("p", { class: "muted" }, t("zc.discard_empty"))));
    clear(this.els.player).append(...out);
  }

  // ---------------------------------------------------------------- log
  renderLog() {
    const ctx = { you: this.st.seat, cat: this.cat, cardName: (id) => this.cardName(id) };
    // a campaign payment repeats the placement just above it
    this.renderLogLines((ev, version) => logLine(ev, ctx, version), {
      show: (ev) => !!ev.kind && !(ev.kind === "food" && ev.data && ev.data.source === "campaign"),
      max: 500, once: true,
    });
  }

  // ---------------------------------------------------------------- winner screen
  finalScreen(onClose) {
    this.openPrivates();
    return renderFinal(this, onClose);
  }

  /** A finished game whose result has no treasuries (a resignation ended it): every seat's
   * private part, open to everybody after the end (the page's `privates`), asked for once; the
   * final screen is drawn again when it comes (final.js reads `finalPrivates`). */
  openPrivates() {
    const det = (this.st.result && this.st.result.details) || {};
    if (det.treasury || this.finalPrivates !== undefined || !this.privates || this.st.status !== "finished") return;
    this.finalPrivates = null;
    this.privates().then((all) => {
      if (!all) return;
      this.finalPrivates = all;
      this.renderFinalScreen();
    }, () => {});
  }
}
