// The Zoocracy table: goal track and parties on top, the zoo's enclosures with everyone's food
// markers, the parliament hemicycle with government, proposal and vote, the round track and the
// event deck, the own party's treasury and hand, the log, and the winner screen.
// Everything shown comes from the view (public + own private part) and the game's catalog.
import { h, clear, $, $$ } from "../dom.js";
import { seatChip, seatName } from "../seats.js";
import { indexZoocracy, phaseLabel, plural, PHASE } from "./common.js";
import { renderCard } from "./cards.js";
import {
  renderEnclosures, renderHemicycle, parliamentLegend, renderGovernment, renderProposal, renderPresidential,
  renderGoalTrack, partyRows, renderRoundTrack, renderPhaseStrip, renderEventDeck,
} from "./board.js";
import { DecisionBar } from "./decision.js";
import { logLine } from "./log.js";
import { renderFinal } from "./final.js";

export class ZoocracyUI {
  constructor(st, hooks) {
    this.st = st;
    this.send = hooks.send;
    this.toast = hooks.toast;
    this.cat = indexZoocracy(st.catalog);
    this.finalDismissed = false;
    this.lastWidth = 0;
    document.body.classList.add("zoocracy-game");
    this.els = {
      score: $("#scoretrack"), zooTabs: $("#zoo-tabs"), zooMap: $("#zoo-map"), zooInfo: $("#zoo-info"),
      board: $("#board"), player: $("#player"), log: $("#log"), final: $("#final-screen"),
      panels: $("#panels"), panelTabs: $("#panel-tabs"),
    };
    this.bar = new DecisionBar(this);
    this.setupPanels();
    window.addEventListener("resize", () => {
      const w = this.els.score.clientWidth;
      if (Math.abs(w - this.lastWidth) > 8 && this.st.view) this.renderScore();
    });
  }

  // ---------------------------------------------------------------- helpers
  get pub() { return this.st.view.public; }
  get priv() { return this.st.view.private; }
  cardName(id) { const c = this.cat.cards.get(id); return c ? c.name : String(id); }
  cardText(id) { const c = this.cat.cards.get(id); return c ? `${c.name}: ${c.text}` : String(id); }
  /** My own campaign turn frame, if it is the current decision. */
  myCampaignFrame() {
    const d = this.priv && this.priv.decision;
    return d && d.kind === "campaign_turn" ? d : null;
  }

  setupPanels() {
    const tabs = this.els.panelTabs;
    if (!tabs) return;
    for (const b of $$("button", tabs)) {
      b.addEventListener("click", () => {
        const target = document.getElementById(b.dataset.panel);
        if (target) this.els.panels.scrollTo({ left: target.offsetLeft - this.els.panels.offsetLeft, behavior: "smooth" });
        if (b.dataset.panel === "panel-log") document.body.classList.toggle("log-open");
      });
    }
    this.els.panels.addEventListener("scroll", () => {
      const i = Math.round(this.els.panels.scrollLeft / (this.els.panels.clientWidth || 1));
      $$("button", tabs).forEach((b, j) => b.setAttribute("aria-selected", String(i === j)));
    }, { passive: true });
  }

  statusLine() {
    if (!this.st.view || !this.st.view.public) return [];
    const p = this.pub;
    const out = [];
    out.push(h("span", { class: "stat", title: "Round / last possible round" }, `Round ${p.round}/${p.rounds}`));
    out.push(h("span", { class: "stat zc-phase-stat" }, PHASE[p.phase] && PHASE[p.phase].no ? `${PHASE[p.phase].no} · ` : "", phaseLabel(p.phase)));
    if (p.over) out.push(h("span", { class: "stat strong" }, "Game over"));
    else {
      const waiting = this.st.waitingFor || (p.decision && p.decision.waiting) || [];
      if (waiting.length === 1) out.push(h("span", { class: "stat whose" }, seatChip(waiting[0], { small: true }), ` ${waiting[0] === this.st.seat ? "Your move" : seatName(waiting[0]) + " to play"}`));
      else if (waiting.length > 1) out.push(h("span", { class: "stat whose" }, `Waiting for ${waiting.length} parties`));
      if (p.events && p.events.end_flag) out.push(h("span", { class: "stat warn" }, "Last round"));
    }
    return out;
  }

  // ---------------------------------------------------------------- render everything
  render() {
    if (!this.st.view || !this.st.view.public || !Array.isArray(this.st.view.public.goals)) return;
    this.renderScore();
    this.renderZoo();
    this.renderBoard();
    this.renderPlayer();
    this.renderLog();
    this.renderFinalScreen();
    this.flashChanges();
  }

  renderBar() {
    if (!this.st.view || !this.st.view.public) return;
    this.bar.render();
  }

  onKey(e) { return this.bar.onKey(e); }

  /** A short highlight (≤ 200 ms) on the numbers that changed since the last version. */
  flashChanges() {
    const prev = this.prevVals;
    const next = new Map();
    for (const el of document.querySelectorAll("[data-k]")) {
      next.set(el.dataset.k, el.textContent);
      if (prev && prev.has(el.dataset.k) && prev.get(el.dataset.k) !== el.textContent) el.classList.add("bump");
    }
    this.prevVals = next;
  }

  // ---------------------------------------------------------------- goal track + parties
  renderScore() {
    const host = this.els.score;
    const W = Math.max(300, Math.min(host.clientWidth || 900, 1900));
    this.lastWidth = host.clientWidth;
    const phone = W < 640;
    const trackW = phone ? W - 20 : Math.min(560, Math.max(320, W * 0.34));
    clear(host).append(
      h("div", { class: "zc-goal-wrap" }, h("h2", { class: "zc-score-title" }, "Goal track"), renderGoalTrack(this, trackW)),
      partyRows(this));
  }

  // ---------------------------------------------------------------- the zoo
  renderZoo() {
    const p = this.pub;
    clear(this.els.zooTabs);
    const camp = p.campaign;
    const head = h("div", { class: "zc-zoo-head" },
      h("h3", "The zoo ", h("span", { class: "muted small" }, "food markers per enclosure")),
      h("span", { class: "zc-zoo-facts" },
        camp ? h("span", { class: "zc-chip" }, "Campaign limit ", h("b", { class: "num" }, String(camp.limit))) : null,
        p.next_campaign_limit_change ? h("span", { class: "zc-chip", title: "Change of the next campaign limit (events)" }, "Next limit ", h("b", { class: "num" }, `${p.next_campaign_limit_change > 0 ? "+" : "−"}${Math.abs(p.next_campaign_limit_change)}`)) : null,
        camp && camp.no_negative ? h("span", { class: "zc-chip warn" }, "No negative campaigns") : null,
        h("span", { class: "zc-chip" }, "Next election ", h("b", { class: "num" }, `round ${(p.elections || {}).parliament ?? "–"}`))));
    clear(this.els.zooMap).append(head, h("div", { class: "zc-enclosures" }, renderEnclosures(this)));
    const info = [];
    if (p.order && p.order.length) {
      info.push(h("p", { class: "zc-line" }, h("span", { class: "zc-key" }, "Seat order"), p.order.map((q, i) => [i ? h("span", { class: "muted" }, " › ") : null, seatChip(q, { small: true })])));
    }
    info.push(h("section", { class: "board-block zc-where" },
      h("h3", `Round ${p.round} of ${p.rounds}`, h("span", { class: "muted small" }, ` · ${phaseLabel(p.phase)}`)),
      renderPhaseStrip(this), renderRoundTrack(this)));
    info.push(h("section", { class: "board-block zc-event-block" },
      h("h3", "Events ", h("span", { class: "muted small" }, `${p.events.remaining} face down`)), ...renderEventDeck(this)));
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
        h("h3", "Parliament ", h("span", { class: "muted small" }, total ? `${total} seats · majority ${p.majority}` : "not elected yet")),
        h("div", { class: "zc-parl-body" }, renderHemicycle(this), parliamentLegend(this))),
      h("section", { class: "board-block zc-government" }, h("h3", "Government"), ...renderGovernment(this)),
      prop ? h("section", { class: "board-block zc-proposal-block" }, prop) : null,
      pres.length ? h("section", { class: "board-block zc-pres" }, h("h3", "Presidential election"), ...pres) : null));
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
        h("h3", "Your party ", seatChip(me, { small: true })),
        h("span", { class: "zc-treasury", title: "Your treasury: only you see it" }, "Treasury ", h("b", { class: "num", dataset: { k: "me:food" } }, String(this.priv.food)), " food ", h("span", { class: "muted small" }, "(secret)")),
        h("span", { class: "zc-treasury" }, "Goal step ", h("b", { class: "num" }, `${p.goals[me]}/${p.goal_track}`)),
        h("span", { class: "zc-treasury" }, "Seats ", h("b", { class: "num" }, String((p.parliament || [])[me] ?? 0)))));
      out.push(h("div", { class: "hand-head" }, h("h3", `Your action cards (${hand.length}/${p.hand_limit})`),
        h("span", { class: "muted small" }, "each card belongs to one phase; played cards are shown to everyone")));
      out.push(h("div", { class: "zc-hand", id: "hand" }, hand.length
        ? hand.map((cid) => renderCard(this.cat.cards.get(cid), cid, { now: this.cat.cards.get(cid) && this.cat.cards.get(cid).phase === phase }))
        : h("p", { class: "muted" }, "No action cards in hand.")));
    } else {
      out.push(h("div", { class: "player-head" }, h("h3", "Parties"), h("span", { class: "muted small" }, "Treasuries and hands are secret; their sizes are public.")));
      out.push(h("ul", { class: "zc-hands" }, Array.from({ length: p.seats }, (_, q) => h("li", null, seatChip(q, { small: true }), ` ${seatName(q)} holds ${plural((p.hand_sizes || [])[q] ?? 0, "action card")}`))));
    }
    out.push(h("p", { class: "zc-public-note muted small" }, "Public: goal steps, seats, food markers, hand sizes, revealed bids and votes, played cards. ",
      "Secret: treasuries, hands, and bids and votes until all are in."));
    const discard = p.discard || [];
    out.push(h("details", { class: "zc-discard" }, h("summary", `Deck ${p.deck_size} · discard pile ${discard.length}`),
      discard.length ? h("div", { class: "zc-discard-cards" }, discard.slice().reverse().map((cid) => renderCard(this.cat.cards.get(cid), cid, { mini: true })))
        : h("p", { class: "muted" }, "The discard pile is empty.")));
    clear(this.els.player).append(...out);
  }

  // ---------------------------------------------------------------- log
  renderLog() {
    const host = this.els.log;
    if (!host) return;
    const ctx = { you: this.st.seat, cat: this.cat, cardName: (id) => this.cardName(id) };
    const items = [];
    const seen = new Set();
    for (let i = this.st.log.length - 1; i >= 0; i--) {
      const entry = this.st.log[i];
      // a version can arrive twice (the socket and a log page racing): show it once
      if (typeof entry.version === "number") {
        if (seen.has(entry.version)) continue;
        seen.add(entry.version);
      }
      const evs = entry.events || [];
      for (let j = evs.length - 1; j >= 0; j--) {
        const ev = evs[j];
        // a campaign payment repeats the placement just above it
        if (!ev || !ev.kind || (ev.kind === "food" && ev.data && ev.data.source === "campaign")) continue;
        items.push(logLine(ev, ctx, entry.version));
      }
      if (items.length > 500) break;
    }
    clear(host).append(...(items.length ? items : [h("li", { class: "muted" }, "Nothing has happened yet.")]));
  }

  // ---------------------------------------------------------------- winner screen
  renderFinalScreen() {
    const over = this.pub.over || this.st.status === "finished";
    const host = this.els.final;
    if (!over || this.finalDismissed) { host.hidden = true; return; }
    clear(host).append(renderFinal(this, () => { this.finalDismissed = true; host.hidden = true; this.renderBar(); }));
    host.hidden = false;
  }

  showFinal() { this.finalDismissed = false; this.renderFinalScreen(); }
}
