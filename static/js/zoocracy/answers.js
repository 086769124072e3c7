// The Zoocracy bar's answers as controls, one small function per kind of decision (split from
// decision.js): KIND_ROWS maps a decision's kind to (bar, take, decision) => rows, where take(type)
// hands out the legal answers of that type and marks them drawn; the bar (DecisionBar.controls)
// adds the focus row before and a plain button for every answer not drawn after. Functions over
// the bar (its selection, row(), answer(), send(), render(), label()).
import { h, clear, stableKey } from "../dom.js";
import { t } from "../i18n.js";
import { OFFICE } from "./common.js";
import { markerAnswer, forcedPass } from "./warn.js";
import { proposalSummary } from "./proposal.js";

export const KIND_ROWS = {
  bid: bidRows,
  vote: voteRows,
  campaign_turn: campaignRows,
  office: officeRows,
  proposal: proposalRows,
  window: windowRows,
  card_target: targetRows,
  nc_offer: ncOfferRows,
  assign_goal: assignGoalRows,
  pay_goal: payGoalRows,
  discard: discardRows,
};

/** A bid: a stepper over the legal amounts and a confirm (the bid stays secret). */
function bidRows(bar, take) {
  const priv = bar.ui.priv || {};
  const rows = [];
  const bids = take("bid").slice().sort((a, b) => a.amount - b.amount);
  if (!bids.length) return rows;
  if (bar.sel.bid === null || !bids.some((a) => a.amount === bar.sel.bid)) bar.sel.bid = bids[0].amount;
  let idx = bids.findIndex((a) => a.amount === bar.sel.bid);
  const out = h("output", { class: "num zc-bid-out", id: "bid-amount" }, String(bar.sel.bid));
  const confirm = h("button", { class: "btn answer primary confirm zc-bid-confirm", type: "button", disabled: bar.st.pending,
    dataset: { type: "bid" }, onclick: () => bar.send(bids[idx]) });
  const slider = h("input", { type: "range", class: "zc-bid-range", min: 0, max: bids.length - 1, step: 1, value: idx, "aria-label": t("zc.bar.bid_amount") });
  const minus = h("button", { class: "btn small zc-step-btn", type: "button", "aria-label": t("zc.bar.bid_less") }, "−");
  const plus = h("button", { class: "btn small zc-step-btn", type: "button", "aria-label": t("zc.bar.bid_more") }, "+");
  const update = (i) => {
    idx = Math.max(0, Math.min(bids.length - 1, i));
    const a = bids[idx];
    bar.sel.bid = a.amount;
    slider.value = String(idx);
    out.textContent = String(a.amount);
    confirm.dataset.answer = stableKey(a);
    clear(confirm).append(t("zc.bar.bid_secretly", { amount: a.amount }));
    minus.disabled = idx <= 0;
    plus.disabled = idx >= bids.length - 1;
  };
  slider.addEventListener("input", () => update(Number(slider.value)));
  minus.addEventListener("click", () => update(idx - 1));
  plus.addEventListener("click", () => update(idx + 1));
  update(idx);
  rows.push(bar.row(t("zc.bar.your_bid"), h("span", { class: "stepper zc-bid", role: "group", "aria-label": t("zc.bar.bid") }, minus, slider, out, plus), confirm,
    h("span", { class: "hint" }, t("zc.bar.you_have", { food: priv.food }))));
  return rows;
}

/** A vote: the proposal, yes or no, and the votes that count twice (a card). */
function voteRows(bar, take, dec) {
  const rows = [];
  const votes = take("vote");
  const plain = votes.filter((a) => !a.card);
  const doubled = votes.filter((a) => a.card);
  rows.push(bar.row(null, proposalSummary(bar.ui, dec.proposal)));
  rows.push(bar.row(t("zc.bar.your_vote"), ...plain.map((a) => bar.answer(a.yes ? t("zc.vote.yes") : t("zc.vote.no"), a, { primary: a.yes, secondary: !a.yes, class: a.yes ? "vote-yes" : "vote-no" }))));
  if (doubled.length) rows.push(bar.row(t("zc.bar.counting_twice"), ...doubled.map((a) => bar.answer(bar.label(a), a, { class: "small" }))));
  return rows;
}

/** A campaign turn: food, limit, paid and free; Done (asked once more while food could still be placed); food per enclosure; the head bonus, cards and negative markers. */
function campaignRows(bar, take, dec) {
  const ui = bar.ui;
  const pub = bar.ui.pub;
  const priv = bar.ui.priv || {};
  const rows = [];
  const limit = pub.campaign ? pub.campaign.limit : null;
  const done = take("done");
  const places0 = take("place");
  rows.push(bar.row(null, h("span", { class: "zc-chips" },
    h("span", { class: "zc-chip" }, `${t("zc.parties.food")} `, h("b", { class: "num" }, String(priv.food ?? "?"))),
    limit !== null ? h("span", { class: "zc-chip", title: t("zc.bar.limit_title") }, `${t("zc.bar.limit")} `, h("b", { class: "num" }, `${limit}${dec.extra_limit ? ` +${dec.extra_limit}` : ""}`)) : null,
    h("span", { class: "zc-chip", title: t("zc.bar.paid_title") }, `${t("zc.bar.paid")} `, h("b", { class: "num" }, String(dec.paid ?? 0))),
    dec.free ? h("span", { class: "zc-chip", title: t("zc.bar.free_title") }, `${t("zc.bar.free")} `, h("b", { class: "num" }, String(dec.free))) : null),
    places0.length ? h("span", { class: "narrow-only zc-tap-hint" }, t("zc.bar.tap_hint")) : null,
    done.length ? bar.doneCampaign(done[0], places0) : null));
  if (done.length && places0.length && bar.sel.confirmDone) {
    // food that could still be placed: ending the turn is asked once more
    rows.push(bar.row(h("span", { class: "zc-confirm-text" }, t("zc.bar.unplaced_confirm")),
      bar.answer(t("zc.bar.unplaced_end"), done[0], { primary: true, class: "zc-done-confirm" }),
      h("button", { class: "btn ghost", type: "button", onclick: () => { bar.sel.confirmDone = false; bar.render(); } }, t("zc.bar.unplaced_keep"))));
  }
  const places = take("place");
  if (places.length) {
    const order = ui.cat.enclosures.map((e) => e.id);
    const ids = [...new Set(places.map((a) => a.enclosure))].sort((a, b) => order.indexOf(a) - order.indexOf(b));
    const placeRow = bar.row(h("span", { class: "wide-only" }, t("zc.bar.place_food")), ...ids.map((id) => h("span", { class: "zc-place-group", dataset: { enclosure: id } },
      h("span", { class: "zc-place-name" }, bar.encName(id)),
      places.filter((a) => a.enclosure === id).sort((a, b) => a.count - b.count)
        .map((a) => bar.answer(`+${a.count}`, a, { class: "small zc-count-btn", aria: t("zc.bar.place_in", { count: a.count, enclosure: bar.encName(id) }), title: t("zc.bar.place_in", { count: a.count, enclosure: bar.encName(id) }) })))));
    // on a phone the zoo is the place to choose (tap an enclosure); its answers then come up here
    placeRow.classList.add("zc-place-row");
    rows.push(placeRow);
  }
  const head = take("head_bonus");
  const neg = take("negative");
  const cards = take("card");
  if (head.length || cards.length) {
    rows.push(bar.row(null,
      head.length ? bar.answer(`★ ${t("zc.bar.head_bonus", { food: ui.cat.tables.head_extra_food ?? 2 })}`, head[0], { title: t("zc.bar.head_bonus_title") }) : null,
      ...cards.map((a) => bar.answer(bar.label(a), a, { title: ui.cardText(a.card) }))));
  }
  if (neg.length) rows.push(bar.row(t("zc.bar.negative"), ...neg.map((a) => bar.answer(bar.label(a), a, { class: "small" }))));
  return rows;
}

/** An office's marker (finance: manipulate, defence: blockade), or keep it where it is. */
function officeRows(bar, take, dec) {
  const rows = [];
  const marks = take("marker");
  const hold = take("hold");
  rows.push(bar.row(dec.office === "finance" ? t("zc.bar.manipulate") : t("zc.bar.blockade"), ...marks.map((a) => markerAnswer(bar, a, dec.office))));
  if (hold.length) rows.push(bar.row(null, bar.answer(t("zc.bar.keep_marker"), hold[0], { secondary: true })));
  return rows;
}

/** A proposal, step by step: the coalition's members, its offices, its goal. */
function proposalRows(bar, take, dec) {
  const pub = bar.ui.pub;
  const rows = [];
  rows.push(bar.row(null, proposalSummary(bar.ui, { seat: dec.seat, members: dec.members, offices: dec.offices, goals: dec.goals }, dec.step)));
  const parl = pub.parliament || [];
  const adds = take("add");
  if (adds.length) rows.push(bar.row(t("zc.bar.add_coalition"), ...adds.map((a) => bar.answer(bar.partyLabel(a.party, ` ${t("zc.bar.n_seats", { count: parl[a.party] ?? 0 })}`), a))));
  const fin = take("members_done");
  if (fin.length) {
    const seats = (dec.members || []).reduce((s, q) => s + (parl[q] || 0), 0);
    rows.push(bar.row(null, bar.answer(t("zc.bar.coalition_complete", { count: seats }), fin[0], { primary: true, class: "zc-members-done" })));
  }
  const offices = take("office");
  if (offices.length) rows.push(bar.row(`${OFFICE[dec.step] ? OFFICE[dec.step].label : t("zc.bar.office")}:`, ...offices.map((a) => bar.answer(bar.partyLabel(a.party), a, { primary: true }))));
  const goals = take("goal");
  if (goals.length) rows.push(bar.row(t("zc.bar.goal_in_round", { round: dec.step === "goal_now" ? pub.round : pub.round + 1 }), ...goals.map((a) => bar.answer(bar.partyLabel(a.party), a, { primary: true }))));
  return rows;
}

/** A card window: the cards that may be played now, or pass. */
function windowRows(bar, take) {
  const ui = bar.ui;
  const rows = [];
  const cards = take("card");
  if (cards.length) rows.push(bar.row(t("zc.bar.play"), ...cards.map((a) => bar.answer(ui.cardName(a.card), a, { primary: true, title: ui.cardText(a.card) }))));
  const pass = take("pass");
  if (pass.length) rows.push(bar.row(null, cards.length ? bar.answer(t("zc.bar.pass"), pass[0], { secondary: true }) : forcedPass(bar, pass[0])));
  return rows;
}

/** A card's target. */
function targetRows(bar, take) {
  const rows = [];
  const targets = take("target");
  rows.push(bar.row(t("zc.bar.target"), ...targets.map((a) => bar.answer(bar.label(a), a, { primary: true }))));
  return rows;
}

/** The offer of a no-confidence vote. */
function ncOfferRows(bar, take) {
  const rows = [];
  const call = take("call"); const no = take("decline");
  rows.push(bar.row(null, ...call.map((a) => bar.answer(t("zc.bar.call_nc"), a, { primary: true })),
    ...no.map((a) => bar.answer(t("zc.bar.not_now"), a, { secondary: true }))));
  return rows;
}

/** Who gets the goal (the promised party first). */
function assignGoalRows(bar, take, dec) {
  const rows = [];
  const targets = take("assign");
  rows.push(bar.row(t("zc.bar.goal_to"), ...targets.map((a) => bar.answer(bar.partyLabel(a.party, a.party === dec.promised ? ` ${t("zc.bar.promised")}` : ""), a, { primary: a.party === dec.promised }))));
  return rows;
}

/** Pay for a goal, or forgo it. */
function payGoalRows(bar, take, dec) {
  const rows = [];
  const pay = take("pay"); const no = take("decline");
  rows.push(bar.row(null, ...pay.map((a) => bar.answer(t("zc.bar.pay_goal", { cost: dec.cost }), a, { primary: true })),
    ...no.map((a) => bar.answer(t("zc.bar.forgo_goal"), a, { secondary: true }))));
  return rows;
}

/** Discard down to the hand limit. */
function discardRows(bar, take) {
  const ui = bar.ui;
  const rows = [];
  const d = take("discard");
  rows.push(bar.row(t("zc.bar.discard"), ...d.map((a) => bar.answer(ui.cardName(a.card), a, { primary: true, title: ui.cardText(a.card) }))));
  return rows;
}
