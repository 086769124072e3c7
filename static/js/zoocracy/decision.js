// The Zoocracy decision bar: what is asked now, in one sentence, and the legal answers as controls.
// The answers are exactly the dicts of GET /legal; grouping and labels are presentation only.
// Secret decisions (bids, votes) show who has answered, never what.
import { h, clear, $, $$, cap, stableKey } from "../dom.js";
import { seatChip, seatName, seatLabel } from "../seats.js";
import { OFFICE, phaseLabel, plural, whoName } from "./common.js";
import { stepLabel } from "./board.js";

const SIMULTANEOUS = new Set(["bid", "vote", "discard"]);
const FINISHERS = new Set(["done", "pass", "hold", "decline", "members_done"]);

let keyboardUser = false;
document.addEventListener("keydown", (e) => { if (e.key === "Tab" || e.key === "Enter" || e.key === " ") keyboardUser = true; }, true);
document.addEventListener("pointerdown", () => { keyboardUser = false; }, true);

/** What another party is doing, for "Waiting for X: …". */
function doing(dec, ui) {
  switch (dec.kind) {
    case "bid": return dec.stage === 2 ? "re-bidding after a tie" : "bidding for the presidency";
    case "campaign_turn": return "campaigning";
    case "office": return dec.office === "finance" ? "placing the manipulation marker" : "placing the blockade marker";
    case "proposal": return `drafting a proposal (${stepLabel(dec.step)})`;
    case "vote": return "voting on the proposal";
    case "window": return `deciding whether to play a card (${phaseLabel(dec.phase).toLowerCase()})`;
    case "card_target": return `choosing a target for ${ui.cardName(dec.card)}`;
    case "nc_offer": return "deciding on a vote of no confidence";
    case "assign_goal": return "naming who realises this round's goal";
    case "pay_goal": return "deciding whether to pay for the goal";
    case "discard": return "discarding down to the hand limit";
    default: return cap(dec.kind || "deciding").toLowerCase();
  }
}

/** Which enclosure / card a legal action refers to (for highlights on the table). */
function enclosureOf(a) {
  return a.enclosure ?? a.from ?? null;
}
function cardOf(a) {
  return a.type === "card" || a.type === "discard" ? a.card : null;
}

export class DecisionBar {
  constructor(ui) {
    this.ui = ui;
    this.st = ui.st;
    this.host = $("#decision");
    this.selVersion = null;
    this.resetSel();
    const ro = new ResizeObserver(() => {
      document.documentElement.style.setProperty("--bar-h", `${this.host.offsetHeight}px`);
    });
    ro.observe(this.host);
    for (const host of [$("#zoo-map"), $("#player")]) {
      if (!host) continue;
      host.addEventListener("click", (e) => this.onTableClick(e));
      host.addEventListener("keydown", (e) => {
        if ((e.key === "Enter" || e.key === " ") && e.target.classList && e.target.classList.contains("legal")) {
          e.preventDefault();
          this.onTableClick(e);
        }
      });
    }
  }

  resetSel() {
    this.sel = { bid: null, focus: null, focusLabel: null };
  }

  get legal() {
    return this.st.legalVersion === this.st.version ? this.st.legal : [];
  }

  send(action) {
    if (this.st.pending) return;
    this.ui.send(action);
  }

  // ---------------------------------------------------------------- the sentence
  sentence(dec, mine) {
    const ui = this.ui;
    const st = this.st;
    const pub = ui.pub;
    const me = st.seat;
    if (pub.over) return "The game is over.";
    if (!dec) return "Waiting…";
    if (!mine) {
      const all = st.waitingFor || dec.waiting || [];
      const secret = ui.priv ? ui.priv.secret : null;
      if (secret !== null && secret !== undefined && SIMULTANEOUS.has(dec.kind)) {
        if (dec.kind === "bid") return `Your secret bid is in: ${plural(secret, "food", "food")}. Waiting for the others to bid.`;
        if (dec.kind === "vote") return `Your secret vote is in: ${secret.yes ? "yes" : "no"}${secret.card ? ` (${ui.cardName(secret.card)}: counts twice)` : ""}. Waiting for the others.`;
      }
      if (me !== null && me !== undefined && all.includes(me)) {
        return st.pending ? "Your answer is on its way…" : "Your move — getting your options…";
      }
      const waiting = all.filter((q) => q !== me);
      if (!waiting.length) return `Waiting: ${doing(dec, ui)}.`;
      if (waiting.length === 1) return `Waiting for ${seatName(waiting[0])}: ${doing(dec, ui)}.`;
      return `Waiting for ${waiting.length} parties: ${doing(dec, ui)}.`;
    }
    const priv = ui.priv || {};
    switch (dec.kind) {
      case "bid": return dec.stage === 2
        ? `Tie for the presidency! Re-bid secretly: at least your first bid (${(dec.min || {})[String(me)] ?? 0}); you have ${priv.food} food.`
        : `Presidential election: bid food secretly (you have ${priv.food}). Everyone pays the bid and gets half back.`;
      case "campaign_turn": return [h("span", { class: "wide-only" }, "Your campaign turn: place food into the enclosures (never a tie), use your powers and cards, then finish."),
        h("span", { class: "narrow-only" }, "Your campaign turn: place food, then Done.")];
      case "office": return dec.office === "finance"
        ? "Finance minister: put the manipulation marker on an enclosure (only first place wins seats there), or keep it for later."
        : "Defence minister: blockade an enclosure (no food may be added there), or keep it for later.";
      case "proposal": {
        const pre = dec.mode === "no_confidence" ? "Vote of no confidence — " : dec.mode === "duel" ? "" : "Your proposal — ";
        switch (dec.step) {
          case "members": return `${pre}build the coalition: add parties until your seats reach the majority (${pub.majority}).`;
          case "head": case "finance": case "defence": return `${pre}who becomes ${OFFICE[dec.step].label.toLowerCase()}?`;
          case "goal_now": return `${pre}which party realises a goal in this round's progress phase (round ${pub.round})?`;
          case "goal_next": return `${pre}which other party realises a goal next round (round ${pub.round + 1})?`;
          default: return `${pre}${stepLabel(dec.step)}.`;
        }
      }
      case "vote": return `${dec.mode === "no_confidence" ? "Vote of no confidence" : "Coalition vote"}: ${whoName(dec.proposal.seat, me)} proposed — vote yes or no, secretly (everybody at once).`;
      case "window": return `Card window — ${phaseLabel(dec.phase)}: play one card of this phase, or pass.`;
      case "card_target": return `${ui.cardName(dec.card)}: choose a target.`;
      case "nc_offer": return "As opposition leader you may call a vote of no confidence.";
      case "assign_goal": return `Free hand: who realises this round's goal? (The proposal promised it to ${whoName(dec.promised, me, true)}.)`;
      case "pay_goal": return `This round's goal costs ${dec.cost} food (you have ${priv.food}): pay it, or forgo the goal.`;
      case "discard": return `Hand limit: discard a card (you hold ${(priv.hand || []).length}; the limit is ${pub.hand_limit}).`;
      default: return `${cap(dec.kind)}: choose an answer.`;
    }
  }

  // ---------------------------------------------------------------- render
  render() {
    const st = this.st;
    const ui = this.ui;
    const pub = ui.pub;
    let fresh = false;
    if (this.selVersion !== st.version) {
      this.resetSel();
      this.selVersion = st.version;
      this.host.classList.remove("collapsed");
    }
    if (this.focusedFor !== st.version && this.legal.length) {
      this.focusedFor = st.version;
      fresh = true;
    }
    const legal = this.legal;
    const mine = legal.length > 0;
    const dec = mine ? ((ui.priv && ui.priv.decision) || pub.decision) : pub.decision;
    const line = h("div", { class: "bar-line" });
    line.appendChild(h("p", { class: "ask", id: "ask", role: "status" }, this.sentence(dec, mine)));
    if (st.pending) line.appendChild(h("span", { class: "sending", role: "status" }, h("span", { class: "spinner", "aria-hidden": "true" }), " Sending…"));
    const status = this.waitingLine(dec, mine);
    if (status) line.appendChild(status);
    const tools = h("span", { class: "bar-tools" });
    if (pub.over) tools.appendChild(h("button", { class: "btn", type: "button", id: "show-final", onclick: () => ui.showFinal() }, "Final result"));
    if (mine) {
      const collapsed = this.host.classList.contains("collapsed");
      tools.appendChild(h("button", { class: "btn ghost small bar-collapse", type: "button", "aria-expanded": String(!collapsed),
        "aria-label": collapsed ? "Show the answers" : "Hide the answers to see the table",
        onclick: () => { this.host.classList.toggle("collapsed"); this.render(); } }, collapsed ? "▲ Answers" : "▼ Hide"));
    }
    tools.appendChild(h("button", { class: "btn ghost log-toggle", type: "button", "aria-controls": "panel-log", onclick: () => document.body.classList.toggle("log-open") }, "Log"));
    line.appendChild(tools);
    const body = h("div", { class: "bar-controls" });
    if (mine && dec) body.append(...this.controls(legal, dec));
    clear(this.host).append(line, body);
    this.host.classList.toggle("mine", mine);
    this.host.classList.toggle("pending", !!st.pending);
    this.host.dataset.kind = dec ? dec.kind : "";
    this.applyHighlights();
    const active = document.activeElement;
    if (fresh && mine && keyboardUser && (!active || active === document.body || this.host.contains(active) || !active.isConnected)) {
      const first = this.host.querySelector(".bar-controls button:not([disabled])");
      if (first) first.focus({ preventScroll: true });
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
    const wf = (q) => h("span", { class: "wf", title: `${seatLabel(q)} has not answered yet` }, seatChip(q, { small: true }), ` ${q === me ? "you" : seatName(q)}`);
    const done = (q) => h("span", { class: "wf done", title: `${seatLabel(q)} has answered` }, seatChip(q, { small: true }), q === me ? " you ✓" : " ✓");
    return h("span", { class: "waiting-for", "aria-label": "Who has answered" },
      others.length ? [h("span", { class: "wf-label" }, mine ? "also waiting for:" : "waiting for:"), others.map(wf)] : null,
      answered.length ? [h("span", { class: "wf-label" }, "answered:"), answered.map(done)] : null);
  }

  // ---------------------------------------------------------------- controls
  answer(label, action, opts = {}) {
    return h("button", {
      class: ["btn", "answer", opts.primary && "primary", opts.secondary && "secondary", opts.class],
      type: "button", disabled: this.st.pending,
      dataset: { answer: stableKey(action), type: action.type },
      title: opts.title || null, "aria-label": opts.aria || null,
      onclick: () => this.send(action),
    }, label);
  }

  row(label, ...kids) {
    return h("div", { class: "bar-row" }, label ? h("span", { class: "row-label" }, label) : null, ...kids);
  }

  partyLabel(q, extra) {
    return [seatChip(q, { small: true }), " ", q === this.st.seat ? "You" : seatName(q), extra ? h("span", { class: "btn-note" }, extra) : null];
  }

  encName(id) {
    const e = this.ui.cat.encById.get(id);
    return e ? e.name : cap(id);
  }

  /** A label for any legal action (the fallback, and the focus row). */
  label(a) {
    const ui = this.ui;
    switch (a.type) {
      case "place": return `+${a.count} food`;
      case "marker": return this.encName(a.enclosure);
      case "negative": return [this.encName(a.enclosure), ": swap ", seatChip(a.party, { small: true }), " marker"];
      case "card": return `Play ${ui.cardName(a.card)}`;
      case "discard": return `Discard ${ui.cardName(a.card)}`;
      case "target":
        if (a.from !== undefined) return `${this.encName(a.from)} → ${this.encName(a.to)}`;
        if (a.enclosure !== undefined && a.party !== undefined) return [seatChip(a.party, { small: true }), `'s marker in the ${this.encName(a.enclosure)}`];
        if (a.enclosure !== undefined) return this.encName(a.enclosure);
        if (a.party !== undefined) return this.partyLabel(a.party);
        break;
      case "add": case "office": case "goal": case "assign": return this.partyLabel(a.party);
      case "vote": return `${a.yes ? "Yes" : "No"}${a.card ? ` ×2 (${ui.cardName(a.card)})` : ""}`;
      case "bid": return `Bid ${a.amount}`;
      default: break;
    }
    const bits = Object.entries(a).filter(([k]) => k !== "type").map(([k, v]) => `${k.replace(/_/g, " ")} ${typeof v === "object" ? JSON.stringify(v) : v}`);
    return `${cap(a.type)}${bits.length ? ": " + bits.join(", ") : ""}`;
  }

  controls(legal, dec) {
    const ui = this.ui;
    const pub = ui.pub;
    const priv = ui.priv || {};
    const me = this.st.seat;
    const rows = [];
    const by = new Map();
    for (const a of legal) {
      if (!by.has(a.type)) by.set(a.type, []);
      by.get(a.type).push(a);
    }
    const handled = new Set();
    const take = (t) => { handled.add(t); return by.get(t) || []; };

    if (this.sel.focus && this.sel.focus.length) {
      const focus = this.row(this.sel.focusLabel || "This one:", ...this.sel.focus.map((a) => this.answer(this.label(a), a, { primary: true })),
        h("button", { class: "btn ghost", type: "button", onclick: () => { this.sel.focus = null; this.render(); } }, "Cancel"));
      focus.classList.add("zc-focus-row");
      rows.push(focus);
    }

    switch (dec.kind) {
      case "bid": {
        const bids = take("bid").slice().sort((a, b) => a.amount - b.amount);
        if (!bids.length) break;
        if (this.sel.bid === null || !bids.some((a) => a.amount === this.sel.bid)) this.sel.bid = bids[0].amount;
        let idx = bids.findIndex((a) => a.amount === this.sel.bid);
        const out = h("output", { class: "num zc-bid-out", id: "bid-amount" }, String(this.sel.bid));
        const confirm = h("button", { class: "btn answer primary confirm zc-bid-confirm", type: "button", disabled: this.st.pending,
          dataset: { type: "bid" }, onclick: () => this.send(bids[idx]) });
        const slider = h("input", { type: "range", class: "zc-bid-range", min: 0, max: bids.length - 1, step: 1, value: idx, "aria-label": "Bid amount" });
        const minus = h("button", { class: "btn small zc-step-btn", type: "button", "aria-label": "bid one less" }, "−");
        const plus = h("button", { class: "btn small zc-step-btn", type: "button", "aria-label": "bid one more" }, "+");
        const update = (i) => {
          idx = Math.max(0, Math.min(bids.length - 1, i));
          const a = bids[idx];
          this.sel.bid = a.amount;
          slider.value = String(idx);
          out.textContent = String(a.amount);
          confirm.dataset.answer = stableKey(a);
          clear(confirm).append(`Bid ${plural(a.amount, "food", "food")} secretly`);
          minus.disabled = idx <= 0;
          plus.disabled = idx >= bids.length - 1;
        };
        slider.addEventListener("input", () => update(Number(slider.value)));
        minus.addEventListener("click", () => update(idx - 1));
        plus.addEventListener("click", () => update(idx + 1));
        update(idx);
        rows.push(this.row("Your bid:", h("span", { class: "stepper zc-bid", role: "group", "aria-label": "Bid" }, minus, slider, out, plus), confirm,
          h("span", { class: "hint" }, `you have ${priv.food} food`)));
        break;
      }
      case "vote": {
        const votes = take("vote");
        const plain = votes.filter((a) => !a.card);
        const doubled = votes.filter((a) => a.card);
        rows.push(this.row(null, this.proposalSummary(dec.proposal)));
        rows.push(this.row("Your vote:", ...plain.map((a) => this.answer(a.yes ? "Yes" : "No", a, { primary: a.yes, secondary: !a.yes, class: a.yes ? "vote-yes" : "vote-no" }))));
        if (doubled.length) rows.push(this.row("Or, counting twice:", ...doubled.map((a) => this.answer(this.label(a), a, { class: "small" }))));
        break;
      }
      case "campaign_turn": {
        const limit = pub.campaign ? pub.campaign.limit : null;
        const done = take("done");
        const places0 = by.get("place") || [];
        rows.push(this.row(null, h("span", { class: "zc-chips" },
          h("span", { class: "zc-chip" }, "Food ", h("b", { class: "num" }, String(priv.food ?? "?"))),
          limit !== null ? h("span", { class: "zc-chip", title: "Campaign limit this round (+ extra from cards)" }, "Limit ", h("b", { class: "num" }, `${limit}${dec.extra_limit ? ` +${dec.extra_limit}` : ""}`)) : null,
          h("span", { class: "zc-chip", title: "Food paid from your treasury this turn" }, "Paid ", h("b", { class: "num" }, String(dec.paid ?? 0))),
          dec.free ? h("span", { class: "zc-chip", title: "Free food from the supply still to place" }, "Free ", h("b", { class: "num" }, String(dec.free))) : null),
          places0.length ? h("span", { class: "narrow-only zc-tap-hint" }, "Tap a framed enclosure to place food.") : null,
          done.length ? this.answer([h("span", { class: "wide-only" }, "Done — end my campaign turn"), h("span", { class: "narrow-only" }, "Done")], done[0], { secondary: true, class: "zc-done" }) : null));
        const places = take("place");
        if (places.length) {
          const order = ui.cat.enclosures.map((e) => e.id);
          const ids = [...new Set(places.map((a) => a.enclosure))].sort((a, b) => order.indexOf(a) - order.indexOf(b));
          const placeRow = this.row(h("span", { class: "wide-only" }, "Place food:"), ...ids.map((id) => h("span", { class: "zc-place-group", dataset: { enclosure: id } },
            h("span", { class: "zc-place-name" }, this.encName(id)),
            places.filter((a) => a.enclosure === id).sort((a, b) => a.count - b.count)
              .map((a) => this.answer(`+${a.count}`, a, { class: "small zc-count-btn", aria: `Place ${a.count} food in the ${this.encName(id)}`, title: `Place ${a.count} food in the ${this.encName(id)}` })))));
          // on a phone the zoo is the place to choose (tap an enclosure); its answers then come up here
          placeRow.classList.add("zc-place-row");
          rows.push(placeRow);
        }
        const head = take("head_bonus");
        const neg = take("negative");
        const cards = take("card");
        if (head.length || cards.length) {
          rows.push(this.row(null,
            head.length ? this.answer(`★ Head of government: add ${ui.cat.tables.head_extra_food ?? 2} food from the supply`, head[0], { title: "Your office power, once per government" }) : null,
            ...cards.map((a) => this.answer(this.label(a), a, { title: ui.cardText(a.card) }))));
        }
        if (neg.length) rows.push(this.row("Negative campaign:", ...neg.map((a) => this.answer(this.label(a), a, { class: "small" }))));
        break;
      }
      case "office": {
        const marks = take("marker");
        const hold = take("hold");
        rows.push(this.row(dec.office === "finance" ? "Manipulate:" : "Blockade:", ...marks.map((a) => this.answer(this.encName(a.enclosure), a, { primary: true }))));
        if (hold.length) rows.push(this.row(null, this.answer("Keep the marker for later", hold[0], { secondary: true })));
        break;
      }
      case "proposal": {
        rows.push(this.row(null, this.proposalSummary({ seat: dec.seat, members: dec.members, offices: dec.offices, goals: dec.goals }, dec.step)));
        const parl = pub.parliament || [];
        const adds = take("add");
        if (adds.length) rows.push(this.row("Add to the coalition:", ...adds.map((a) => this.answer(this.partyLabel(a.party, ` ${parl[a.party] ?? 0} seats`), a))));
        const fin = take("members_done");
        if (fin.length) {
          const seats = (dec.members || []).reduce((s, q) => s + (parl[q] || 0), 0);
          rows.push(this.row(null, this.answer(`Coalition complete (${seats} seats)`, fin[0], { primary: true, class: "zc-members-done" })));
        }
        const offices = take("office");
        if (offices.length) rows.push(this.row(`${OFFICE[dec.step] ? OFFICE[dec.step].label : "Office"}:`, ...offices.map((a) => this.answer(this.partyLabel(a.party), a, { primary: true }))));
        const goals = take("goal");
        if (goals.length) rows.push(this.row(dec.step === "goal_now" ? `Goal in round ${pub.round}:` : `Goal in round ${pub.round + 1}:`, ...goals.map((a) => this.answer(this.partyLabel(a.party), a, { primary: true }))));
        break;
      }
      case "window": {
        const cards = take("card");
        if (cards.length) rows.push(this.row("Play:", ...cards.map((a) => this.answer(ui.cardName(a.card), a, { primary: true, title: ui.cardText(a.card) }))));
        const pass = take("pass");
        if (pass.length) rows.push(this.row(null, this.answer(cards.length ? "Pass" : "Pass (no card of this phase can be played)", pass[0], { secondary: true })));
        break;
      }
      case "card_target": {
        const t = take("target");
        rows.push(this.row("Target:", ...t.map((a) => this.answer(this.label(a), a, { primary: true }))));
        break;
      }
      case "nc_offer": {
        const call = take("call"); const no = take("decline");
        rows.push(this.row(null, ...call.map((a) => this.answer("Call a vote of no confidence", a, { primary: true })),
          ...no.map((a) => this.answer("Not now", a, { secondary: true }))));
        break;
      }
      case "assign_goal": {
        const t = take("assign");
        rows.push(this.row("Goal to:", ...t.map((a) => this.answer(this.partyLabel(a.party, a.party === dec.promised ? " (promised)" : ""), a, { primary: a.party === dec.promised }))));
        break;
      }
      case "pay_goal": {
        const pay = take("pay"); const no = take("decline");
        rows.push(this.row(null, ...pay.map((a) => this.answer(`Pay ${dec.cost} food and advance`, a, { primary: true })),
          ...no.map((a) => this.answer("Forgo the goal", a, { secondary: true }))));
        break;
      }
      case "discard": {
        const d = take("discard");
        rows.push(this.row("Discard:", ...d.map((a) => this.answer(ui.cardName(a.card), a, { primary: true, title: ui.cardText(a.card) }))));
        break;
      }
      default: break;
    }
    // anything not drawn above: plain buttons (the bar never hides a legal answer)
    const rest = legal.filter((a) => !handled.has(a.type));
    if (rest.length) {
      rows.push(this.row(null, ...rest.map((a) => this.answer(this.label(a), a, { primary: !FINISHERS.has(a.type), secondary: FINISHERS.has(a.type) }))));
    }
    return rows;
  }

  /** A compact line: coalition, seats, offices, promises (a proposal being drafted or voted). */
  proposalSummary(p, step) {
    const pub = this.ui.pub;
    const me = this.st.seat;
    const parl = pub.parliament || [];
    const members = p.members || [];
    const seats = members.reduce((s, q) => s + (parl[q] || 0), 0);
    const offices = p.offices || {};
    const goals = p.goals || {};
    const bit = (label, q, cur) => h("span", { class: ["zc-sum-bit", cur && "current"] }, `${label} `, q === undefined || q === null ? h("span", { class: "muted-bar" }, "?") : seatChip(q, { small: true }));
    return h("span", { class: "zc-summary" },
      h("span", { class: ["zc-sum-bit", step === "members" && "current"] }, "Coalition ", members.map((q) => seatChip(q, { small: true })),
        h("b", { class: "num" }, ` ${seats}/${pub.majority ?? "?"}`)),
      bit(`${OFFICE.head.glyph} Head`, offices.head, step === "head"),
      bit(`${OFFICE.finance.glyph} Finance`, offices.finance, step === "finance"),
      bit(`${OFFICE.defence.glyph} Defence`, offices.defence, step === "defence"),
      bit(`Goal R${pub.round}`, goals.now, step === "goal_now"),
      bit(`Goal R${pub.round + 1}`, goals.next, step === "goal_next"),
      p.seat !== undefined && p.seat !== me ? h("span", { class: "zc-sum-bit" }, "by ", seatChip(p.seat, { small: true })) : null);
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
      label = `The ${this.encName(id)}:`;
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
