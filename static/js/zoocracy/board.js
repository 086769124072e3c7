// The Zoocracy table drawings: enclosures with food markers, the parliament hemicycle, the goal
// track, the round track and the event deck. Everything shown comes from the public view and the
// catalog; the legal targets of the current decision are marked by the decision bar.
import { h, s } from "../dom.js";
import { icon } from "../icons.js";
import { seatChip, seatColour, seatDisc, seatLabel, seatName } from "../seats.js";
import { ENCLOSURE_ICON, OFFICE, OFFICES, PHASES, bySeat, party, whoName } from "./common.js";
import { t, tv } from "../i18n.js";

// ------------------------------------------------------------------ enclosures
/** Food markers of one party as small discs plus the number. */
function markerRow(seat, n, you, extra) {
  const c = seatColour(seat);
  const shown = Math.min(n, 12);
  const discs = [];
  for (let i = 0; i < shown; i++) discs.push(h("span", { class: "zc-food", style: { background: c.fill } }));
  return h("li", { class: "zc-marker-row", dataset: { seat }, title: t("zc.enc.markers_title", { seat: seatLabel(seat), count: n }) },
    seatChip(seat, { small: true }),
    h("span", { class: "zc-foods", "aria-hidden": "true" }, discs, n > shown ? h("span", { class: "zc-more" }, "…") : null),
    h("b", { class: "num zc-count", dataset: { k: `enc:${extra}:${seat}` } }, String(n)),
    seat === you ? h("span", { class: "zc-you" }, t("zc.who.you_lower")) : null);
}

export function renderEnclosures(ui) {
  const pub = ui.pub;
  const you = ui.st.seat;
  const cat = ui.cat;
  const board = pub.board || {};
  const ids = cat.enclosures.length ? cat.enclosures.map((e) => e.id) : Object.keys(board);
  const scoring = pub.scoring && Array.isArray(pub.scoring.enclosures)
    ? Object.fromEntries(pub.scoring.enclosures.map((e) => [e.enclosure, e])) : {};
  const manipSeats = cat.tables.manipulation_seats;
  const myTurn = ui.myCampaignFrame();
  return ids.map((id) => {
    const enc = cat.encById.get(id) || { id, name: id, first: "?", second: null };
    const counts = Object.entries(board[id] || {}).map(([q, n]) => [Number(q), n]).filter(([, n]) => n > 0)
      .sort((a, b) => b[1] - a[1] || a[0] - b[0]);
    const manipulated = pub.manipulated === id;
    const blockaded = pub.blockaded === id;
    const last = scoring[id];
    const placedNow = myTurn && myTurn.placed ? myTurn.placed[id] : 0;
    const prizes = manipulated
      ? [h("span", { class: "zc-prize manip", title: t("zc.enc.manipulated_title") }, `${t("zc.enc.first")} `, h("b", String(manipSeats ?? "?"))), h("span", { class: "zc-prize none" }, `${t("zc.enc.second")} –`)]
      : [h("span", { class: "zc-prize", title: t("zc.enc.first_title") }, `${t("zc.enc.first")} `, h("b", String(enc.first))),
        enc.second ? h("span", { class: "zc-prize second", title: t("zc.enc.second_title") }, `${t("zc.enc.second")} `, h("b", String(enc.second)))
          : h("span", { class: "zc-prize none", title: t("zc.enc.no_second_title") }, `${t("zc.enc.second")} –`)];
    return h("article", {
      class: ["zc-enc", manipulated && "manipulated", blockaded && "blockaded", !counts.length && "empty"],
      dataset: { enclosure: id }, "aria-label": `${enc.name}`,
    },
    h("header", { class: "zc-enc-head" },
      ENCLOSURE_ICON[id] ? icon(ENCLOSURE_ICON[id], { size: 26 }) : h("span", { class: "zc-enc-glyph" }, enc.name.charAt(0)),
      h("h4", { class: "zc-enc-name" }, enc.name)),
    h("div", { class: "zc-prizes" }, h("span", { class: "zc-prizes-label" }, t("zc.enc.seats")), prizes,
      last && Object.keys(last.seats || {}).length ? h("span", { class: "zc-enc-last", title: t("zc.enc.won_title", { round: pub.scoring.round }) },
        t("zc.enc.won_round", { round: pub.scoring.round }), Object.entries(last.seats).map(([q, n]) => h("span", { class: "zc-won" }, seatChip(Number(q), { small: true }), String(n)))) : null),
    manipulated || blockaded ? h("div", { class: "zc-office-markers" },
      manipulated ? h("span", { class: "zc-omarker manip", title: t("zc.enc.manip_marker_title", { seats: manipSeats ?? "?" }) }, h("span", { class: "zc-oglyph" }, OFFICE.finance.glyph), ` ${t("zc.enc.manipulated")}`) : null,
      blockaded ? h("span", { class: "zc-omarker block", title: t("zc.enc.block_marker_title") }, h("span", { class: "zc-oglyph" }, OFFICE.defence.glyph), ` ${t("zc.enc.blockaded")}`) : null) : null,
    counts.length ? h("ol", { class: "zc-markers" }, counts.map(([q, n]) => markerRow(q, n, you, id)))
      : h("p", { class: "zc-enc-empty muted" }, t("zc.enc.empty")),
    placedNow ? h("p", { class: "zc-enc-note" }, t("zc.enc.placed_now", { count: placedNow })) : null);
  });
}

// ------------------------------------------------------------------ parliament hemicycle
/** Seat positions of a hemicycle with `total` seats, ordered left to right. */
export function hemicycleSeats(total, R = 100) {
  if (total <= 0) return { seats: [], dot: 0, rows: 0 };
  const r0 = R * 0.45;
  const layout = (rows) => {
    const radii = [];
    for (let i = 0; i < rows; i++) radii.push(rows === 1 ? R : r0 + ((R - r0) * i) / (rows - 1));
    const sum = radii.reduce((a, b) => a + b, 0);
    const per = radii.map((r) => Math.max(1, Math.round((total * r) / sum)));
    let diff = total - per.reduce((a, b) => a + b, 0);
    for (let i = rows - 1; diff !== 0; i = (i - 1 + rows) % rows) {
      if (diff > 0) { per[i] += 1; diff -= 1; } else if (per[i] > 1) { per[i] -= 1; diff += 1; }
    }
    const along = Math.min(...radii.map((r, i) => (per[i] > 1 ? (Math.PI * r) / (per[i] - 1) : Infinity)));
    const across = rows > 1 ? (R - r0) / (rows - 1) : R;
    return { radii, per, along, across };
  };
  // as many rows as make the seats as evenly spaced along the arcs as across them
  let best = null;
  for (let rows = 1; rows <= Math.min(8, total); rows++) {
    const l = layout(rows);
    const spacing = Math.min(l.along, l.across);
    const score = Math.abs(Math.log(Math.min(l.along, R) / l.across));
    if (!best || score < best.score - 1e-9) best = { ...l, rows, spacing, score };
  }
  const seats = [];
  best.radii.forEach((r, i) => {
    const n = best.per[i];
    for (let j = 0; j < n; j++) {
      const a = n === 1 ? Math.PI / 2 : Math.PI - (Math.PI * j) / (n - 1);
      seats.push({ a, r, x: r * Math.cos(a), y: -r * Math.sin(a) });
    }
  });
  seats.sort((p, q) => q.a - p.a || p.r - q.r);
  return { seats, dot: Math.min(best.spacing * 0.38, 13), rows: best.rows };
}

export function renderHemicycle(ui) {
  const pub = ui.pub;
  const parl = pub.parliament || [];
  const total = parl.reduce((a, b) => a + b, 0);
  const gov = pub.government;
  const members = new Set(gov ? gov.members : []);
  const order = (pub.order || parl.map((_, i) => i)).filter((q) => parl[q] > 0);
  const ordered = [...order.filter((q) => members.has(q)), ...order.filter((q) => !members.has(q))];
  const R = 100;
  const W = 2 * R + 36; const H = R + 30;
  const cx = W / 2; const cy = R + 14;
  const svg = s("svg", { class: "zc-hemicycle", viewBox: `0 0 ${W} ${H}`, role: "img",
    "aria-label": total ? t("zc.parl.aria", { seats: ordered.map((q) => `${seatName(q)} ${parl[q]}`).join(", "), majority: pub.majority ?? "?" }) : t("zc.parl.none") });
  svg.appendChild(s("path", { class: "zc-hemi-floor", d: `M${cx - R - 14} ${cy} A${R + 14} ${R + 14} 0 0 1 ${cx + R + 14} ${cy} L${cx + R * 0.33} ${cy} A${R * 0.33} ${R * 0.33} 0 0 0 ${cx - R * 0.33} ${cy} Z` }));
  if (!total) {
    svg.appendChild(s("text", { x: cx, y: cy - 34, "text-anchor": "middle", class: "zc-hemi-empty" }, t("zc.parl.none")));
    svg.appendChild(s("text", { x: cx, y: cy - 16, "text-anchor": "middle", class: "zc-hemi-sub" }, t("zc.parl.first_election", { round: (pub.elections || {}).parliament ?? "?" })));
    return svg;
  }
  const { seats, dot } = hemicycleSeats(total, R);
  let k = 0;
  for (const q of ordered) {
    for (let i = 0; i < parl[q]; i++, k++) {
      const p = seats[k];
      const g = seatDisc(q, cx + p.x, cy + p.y, dot, { class: ["seat-disc", "zc-mp", members.has(q) && "gov"].filter(Boolean).join(" ") });
      if (members.has(q)) g.querySelector("circle").setAttribute("stroke-width", "2.4");
      svg.appendChild(g);
    }
  }
  svg.appendChild(s("text", { x: cx, y: cy - 6, "text-anchor": "middle", class: "zc-hemi-total" }, String(total)));
  svg.appendChild(s("text", { x: cx, y: cy + 11, "text-anchor": "middle", class: "zc-hemi-sub" }, t("zc.parl.majority", { n: pub.majority ?? "–" })));
  return svg;
}

export function parliamentLegend(ui) {
  const pub = ui.pub;
  const parl = pub.parliament || [];
  const gov = pub.government;
  const members = new Set(gov ? gov.members : []);
  const order = pub.order || parl.map((_, i) => i);
  return h("ul", { class: "zc-parl-legend" }, order.map((q) => h("li", { class: ["zc-parl-row", members.has(q) && "gov"] },
    party(q, ui.st.seat),
    h("b", { class: "num", dataset: { k: `parl:${q}` } }, String(parl[q] ?? 0)), h("span", { class: "muted small" }, afterNumber(t("zc.bar.n_seats", { count: parl[q] ?? 0 }), parl[q] ?? 0)),
    members.has(q) ? h("span", { class: "zc-tag gov" }, gov.caretaker ? t("zc.gov.caretaker") : t("zc.gov.government")) : null,
    pub.opposition_leader === q ? h("span", { class: "zc-tag opp" }, t("zc.gov.opposition_leader_tag")) : null)));
}

/** The words after the number of a counted text ("3 seats" -> " seats"), for a number shown apart. */
function afterNumber(text, n) {
  const i = text.indexOf(String(n));
  return i < 0 ? ` ${text}` : text.slice(i + String(n).length);
}

// ------------------------------------------------------------------ government, proposal, vote
const compact = (q, you) => party(q, you, { compact: true });

export function officeList(offices, you, ready) {
  return h("ul", { class: "zc-offices" }, OFFICES.map((o) => {
    const holder = offices ? offices[o.id] : undefined;
    const r = ready ? ready[o.id] : undefined;
    return h("li", { class: "zc-office" },
      h("span", { class: "zc-oglyph", "aria-hidden": "true" }, o.glyph),
      h("span", { class: "zc-office-name" }, o.label),
      holder === undefined || holder === null ? h("span", { class: "muted" }, "–") : compact(holder, you),
      r === undefined ? null : h("span", { class: ["zc-power", r ? "ready" : "used"], title: t(r ? "zc.gov.power_ready_title" : "zc.gov.power_used_title", { power: o.power }) }, r ? t("zc.gov.ready") : t("zc.gov.used")));
  }));
}

export function renderGovernment(ui) {
  const pub = ui.pub;
  const gov = pub.government;
  const you = ui.st.seat;
  const rows = [];
  rows.push(h("div", { class: "zc-line" }, h("span", { class: "zc-key" }, t("zc.gov.president")), compact(pub.president, you)));
  if (!gov) {
    rows.push(h("p", { class: "muted" }, t("zc.gov.none")));
  } else {
    const seats = gov.members.reduce((a, q) => a + ((pub.parliament || [])[q] || 0), 0);
    rows.push(h("div", { class: "zc-line" }, h("span", { class: "zc-key" }, t("zc.gov.coalition")),
      gov.members.map((q) => compact(q, you)),
      h("span", { class: ["num", "zc-seatsum", seats >= (pub.majority ?? Infinity) ? "ok" : "short"], title: t("zc.gov.seats_title", { majority: pub.majority ?? "?" }) }, `${seats}/${pub.majority ?? "?"}`),
      gov.caretaker ? h("span", { class: "zc-tag warn" }, t("zc.gov.caretaker")) : null));
    rows.push(officeList(gov, you, gov.ready));
    rows.push(h("div", { class: "zc-line" }, h("span", { class: "zc-key" }, t("zc.gov.opposition_leader")), compact(pub.opposition_leader, you),
      pub.opposition_leader !== null && pub.opposition_leader !== undefined
        ? h("span", { class: ["zc-power", gov.ready.negative ? "ready" : "used"], title: t(gov.ready.negative ? "zc.gov.power_ready_title" : "zc.gov.power_used_title", { power: t("zc.gov.negative_power") }) }, gov.ready.negative ? t("zc.gov.ready") : t("zc.gov.used")) : null));
  }
  return rows;
}

/** The proposal being made or voted on (from the public decision), or the last vote. */
export function renderProposal(ui) {
  const pub = ui.pub;
  const dec = pub.decision;
  const you = ui.st.seat;
  const parl = pub.parliament || [];
  const round = pub.round;
  const proposalBox = (p, title, extra) => {
    const members = p.members || [];
    const seats = members.reduce((a, q) => a + (parl[q] || 0), 0);
    const goals = p.goals || {};
    return h("div", { class: "zc-proposal", dataset: { mode: p.mode || "" } },
      h("h4", title),
      h("div", { class: "zc-line" }, h("span", { class: "zc-key" }, t("zc.gov.coalition")), members.map((q) => compact(q, you)),
        h("span", { class: ["num", "zc-seatsum", pub.majority && seats >= pub.majority ? "ok" : "short"], title: t("zc.prop.seats_title") }, `${seats}/${pub.majority ?? "?"}`)),
      officeList(p.offices || {}, you),
      h("div", { class: "zc-line" }, h("span", { class: "zc-key" }, t("zc.prop.goal_round", { round })), goals.now !== undefined ? compact(goals.now, you) : h("span", { class: "muted" }, "–")),
      h("div", { class: "zc-line" }, h("span", { class: "zc-key" }, t("zc.prop.goal_round", { round: round + 1 })), goals.next !== undefined ? compact(goals.next, you) : h("span", { class: "muted" }, "–")),
      extra);
  };
  if (dec && dec.kind === "proposal") {
    const key = dec.mode === "no_confidence" ? "zc.prop.drafting_nc" : dec.mode === "duel" ? "zc.prop.drafting_duel" : "zc.prop.drafting";
    return proposalBox({ ...dec, mode: dec.mode }, tv(key, dec.seat === you ? "you" : null, { name: whoName(dec.seat, you) }),
      h("p", { class: "muted small" }, t("zc.prop.now_choosing", { step: stepLabel(dec.step) })));
  }
  if (dec && dec.kind === "vote") {
    const answered = new Set(dec.answered || []);
    const all = parl.map((_, i) => i);
    return proposalBox({ ...dec.proposal, mode: dec.mode }, t(dec.mode === "no_confidence" ? "zc.prop.voting_nc" : "zc.prop.voting", { name: whoName(dec.proposal.seat, you) }),
      h("div", { class: "zc-ballot", "aria-label": t("zc.prop.who_voted") }, all.map((q) => h("span", { class: ["zc-ballot-seat", answered.has(q) ? "done" : "todo"], title: t(answered.has(q) ? "zc.prop.has_voted" : "zc.prop.not_voted", { seat: seatLabel(q) }) },
        seatChip(q, { small: true }), answered.has(q) ? ` ✓ ${t("zc.prop.voted")}` : ` … ${t("zc.prop.deciding")}`))));
  }
  const lv = pub.last_vote;
  if (lv) {
    const votes = Object.entries(lv.votes || {}).map(([q, v]) => h("span", { class: ["zc-vote", v.yes ? "yes" : "no"] },
      seatChip(Number(q), { small: true }), ` ${v.yes ? t("zc.vote.yes_lower") : t("zc.vote.no_lower")}`, v.card ? h("span", { class: "zc-double", title: ui.cardName(v.card) }, " ×2") : null));
    return proposalBox({ ...lv.proposal, mode: lv.mode }, t(lv.accepted ? "zc.prop.last_vote_accepted" : "zc.prop.last_vote_rejected", { round: lv.round }),
      h("div", { class: "zc-ballot" }, votes, h("span", { class: ["zc-result", lv.accepted ? "yes" : "no"] }, ` ${lv.yes} : ${lv.no}`)));
  }
  return null;
}

export function stepLabel(step) {
  return { members: t("zc.step.members"), head: t("zc.step.head"), finance: t("zc.step.finance"), defence: t("zc.step.defence"),
    goal_now: t("zc.step.goal_now"), goal_next: t("zc.step.goal_next") }[step] || String(step || "");
}

/** Presidential election: revealed bids, or who has bid so far. */
export function renderPresidential(ui) {
  const pub = ui.pub;
  const dec = pub.decision;
  const p = pub.presidential;
  const out = [];
  if (dec && dec.kind === "bid") {
    const answered = new Set(dec.answered || []);
    out.push(h("p", { class: "zc-line" }, h("span", { class: "zc-key" }, dec.stage === 2 ? t("zc.pres.rebid_tie") : t("zc.pres.secret_bids")),
      (dec.bidders || []).map((q) => h("span", { class: ["zc-ballot-seat", answered.has(q) ? "done" : "todo"], title: t(answered.has(q) ? "zc.pres.has_bid" : "zc.pres.not_bid", { seat: seatLabel(q) }) },
        seatChip(q, { small: true }), answered.has(q) ? ` ✓ ${t("zc.pres.bid_done")}` : ` … ${t("zc.prop.deciding")}`))));
  }
  if (p && p.bids) {
    const bonus = p.bonus || {};
    const line = (bids, label) => h("p", { class: "zc-line" }, h("span", { class: "zc-key" }, label),
      Object.entries(bids).map(([q, b]) => h("span", { class: ["zc-bid", p.winner === Number(q) && "won"] }, seatChip(Number(q), { small: true }), " ", h("b", { class: "num" }, String(b)),
        bonus[q] ? h("span", { class: "zc-bonus" }, ` ${bonus[q] > 0 ? "+" : "−"}${Math.abs(bonus[q])}`) : null)));
    out.push(line(p.bids, t("zc.pres.bids_round", { round: p.round })));
    if (p.rebids) out.push(line(p.rebids, t("zc.pres.rebids")));
  }
  return out;
}

// ------------------------------------------------------------------ goal track (score track)
export function renderGoalTrack(ui, width) {
  const pub = ui.pub;
  const n = pub.seats;
  const G = pub.goal_track || 6;
  const W = Math.max(300, width || 600);
  const phone = W < 640;
  const lane = phone ? 20 : 26;
  const left = phone ? 16 : 22; const right = W - (phone ? 40 : 60);
  const top = phone ? 15 : 18;
  const H = top + n * lane + 4;
  const X = (g) => left + (g / G) * (right - left);
  const svg = s("svg", { class: "zc-goal-svg", viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: "img",
    "aria-label": t("zc.goal.aria", { parties: Array.from({ length: n }, (_, q) => t("zc.goal.of", { name: seatName(q), step: pub.goals[q], total: G })).join(", ") }) });
  for (let g = 0; g <= G; g++) {
    const last = g === G;
    svg.appendChild(s("rect", { x: X(g) - 13, y: top - 2, width: 26, height: n * lane + 2, rx: 6, class: ["zc-step", last && "last"].filter(Boolean).join(" ") }));
    svg.appendChild(s("text", { x: X(g), y: top - 5, "text-anchor": "middle", class: "zc-step-label" }, last ? t("zc.goal.wins", { n: g }) : String(g)));
  }
  for (let q = 0; q < n; q++) {
    const y = top + q * lane + lane / 2;
    const col = seatColour(q).fill;
    svg.appendChild(s("line", { x1: X(0), x2: X(pub.goals[q]), y1: y, y2: y, stroke: col, "stroke-width": 4, opacity: 0.6, "stroke-linecap": "round" }));
    const g = seatDisc(q, X(pub.goals[q]), y, lane / 2 - 2);
    g.appendChild(s("title", t("zc.goal.step_title", { seat: seatLabel(q), step: pub.goals[q], total: G })));
    svg.appendChild(g);
  }
  return svg;
}

/** The parties' public numbers, one row each (treasury only for the viewer's own party). */
export function partyRows(ui) {
  const pub = ui.pub;
  const you = ui.st.seat;
  const gov = pub.government;
  const roles = (q) => {
    const out = [];
    if (pub.president === q) out.push(h("span", { class: "zc-role pres", title: t("zc.gov.president") }, t("zc.gov.president")));
    if (gov) {
      for (const o of OFFICES) if (gov[o.id] === q) out.push(h("span", { class: "zc-role", title: o.label }, h("span", { "aria-hidden": "true" }, o.glyph), ` ${o.short}`));
    }
    if (pub.opposition_leader === q) out.push(h("span", { class: "zc-role opp", title: t("zc.gov.opposition_leader") }, t("zc.gov.opposition")));
    return out;
  };
  const waiting = new Set(ui.st.waitingFor || (pub.decision && pub.decision.waiting) || []);
  const lbl = (text) => h("span", { class: "zc-lbl" }, `${text} `);
  const headRow = h("li", { class: "zc-parties-head", "aria-hidden": "true" }, h("span", t("zc.parties.party")), h("span", t("zc.parties.goals")), h("span", t("zc.parties.seats")), h("span", t("zc.parties.cards")), h("span", t("zc.parties.food")));
  return h("ul", { class: "score-legend zc-parties" }, headRow, Array.from({ length: pub.seats }, (_, q) => h("li", { class: ["score-row", "zc-party-row", waiting.has(q) && !pub.over && "active"], dataset: { seat: q } },
    h("span", { class: "seat-tag" }, seatChip(q, { small: true }), " ", h("span", { class: "seat-name" }, q === you ? t("zc.party.you", { name: seatName(q) }) : seatName(q))),
    h("span", { class: "num", title: t("zc.parties.goals_title") }, lbl(t("zc.parties.goals")), h("b", { dataset: { k: `goal:${q}` } }, `${pub.goals[q]}/${pub.goal_track}`)),
    h("span", { class: "num", title: t("zc.parties.seats_title") }, lbl(t("zc.parties.seats")), h("b", { dataset: { k: `seats:${q}` } }, String((pub.parliament || [])[q] ?? 0))),
    h("span", { class: "num", title: t("zc.parties.cards_title") }, lbl(t("zc.parties.cards")), h("b", { dataset: { k: `hand:${q}` } }, String((pub.hand_sizes || [])[q] ?? 0))),
    h("span", { class: "num", title: q === you ? t("zc.parties.food_title_you") : t("zc.parties.food_title") }, lbl(t("zc.parties.food")),
      q === you && ui.priv ? h("b", { dataset: { k: `food:${q}` } }, String(ui.priv.food)) : h("b", { class: "muted" }, "?")),
    h("span", { class: "zc-roles" }, roles(q)))));
}

// ------------------------------------------------------------------ round track, phases, events
export function renderRoundTrack(ui) {
  const pub = ui.pub;
  const el = pub.elections || {};
  const promises = pub.promises || {};
  const cells = [];
  for (let r = 1; r <= (pub.rounds || 8); r++) {
    const promised = promises[String(r)];
    cells.push(h("li", { class: ["zc-round", r === pub.round && "current", r < pub.round && "past"], dataset: { round: r } },
      h("span", { class: "zc-round-no" }, String(r)),
      h("span", { class: "zc-round-markers" },
        el.president === r ? h("span", { class: "zc-emarker pres", title: t("zc.rounds.next_pres_title", { round: r }) }, t("zc.rounds.pres_mark")) : null,
        el.parliament === r ? h("span", { class: "zc-emarker parl", title: t("zc.rounds.next_parl_title", { round: r }) }, t("zc.rounds.parl_mark")) : null),
      promised !== undefined && promised !== null ? h("span", { class: "zc-promise", title: t("zc.rounds.promise_title", { seat: seatLabel(promised), round: r }) }, h("span", { class: "zc-promise-word" }, `${t("zc.rounds.goal_word")} `), seatChip(promised, { small: true })) : null));
  }
  return h("div", { class: "zc-rounds-wrap" },
    h("ol", { class: "zc-rounds", "aria-label": t("zc.round_of", { round: pub.round, rounds: pub.rounds }) }, cells),
    h("p", { class: "zc-legend small muted" }, h("span", { class: "zc-emarker pres" }, t("zc.rounds.pres_mark")), ` ${t("zc.rounds.legend_pres")} · `,
      h("span", { class: "zc-emarker parl" }, t("zc.rounds.parl_mark")), ` ${t("zc.rounds.legend_parl")} · ${t("zc.rounds.legend_goal", { goal: t("zc.rounds.goal_word") })}`,
));
}

export function renderPhaseStrip(ui) {
  const cur = ui.pub.phase;
  return h("ol", { class: "zc-phases", "aria-label": t("zc.phases_aria") }, PHASES.map((p) => h("li", { class: ["zc-phase", p.id === cur && "current"], title: p.label },
    h("span", { class: "zc-phase-no" }, String(p.no)), h("span", { class: "zc-phase-name" }, p.short))));
}

export function renderEventDeck(ui) {
  const pub = ui.pub;
  const ev = pub.events || { revealed: [], remaining: 0, flag_positions: [] };
  const total = ev.revealed.length + ev.remaining;
  const flags = new Set(ev.flag_positions || []);
  const slots = [];
  for (let i = 1; i <= total; i++) {
    const r = ev.revealed[i - 1];
    if (r) {
      const card = ui.cat.events.get(r.id);
      const cur = ev.current && ev.current.id === r.id && i === ev.revealed.length;
      slots.push(h("li", { class: ["zc-event", "up", r.flag && "flag", cur && "current", cur && ev.current.cancelled && "cancelled"], title: card ? card.text : r.id },
        h("span", { class: "zc-event-pos" }, String(i)),
        h("span", { class: "zc-event-name" }, card ? card.name : r.id),
        r.flag ? h("span", { class: "zc-flag" }, `⚑ ${t("zc.events.end")}`) : null,
        cur && ev.current.cancelled ? h("span", { class: "zc-cancelled" }, t("zc.events.cancelled")) : null));
    } else {
      slots.push(h("li", { class: ["zc-event", "down", flags.has(i) && "maybe-flag"], title: flags.has(i) ? t("zc.events.face_down_flag") : t("zc.events.face_down") },
        h("span", { class: "zc-event-pos" }, String(i)), flags.has(i) ? h("span", { class: "zc-flag maybe" }, "⚑?") : h("span", { class: "zc-event-back" }, "?")));
    }
  }
  const cur = ev.current && ui.cat.events.get(ev.current.id);
  return [
    h("ol", { class: "zc-events" }, slots),
    cur ? h("p", { class: "zc-event-text" }, h("b", cur.name), `: ${cur.text}`, ev.current.cancelled ? ` (${t("zc.events.cancelled")})` : "",
      ev.end_flag ? h("strong", { class: "zc-endnote" }, ` ${t("zc.events.end_flag_out")}`) : null) : null,
  ];
}

export { bySeat };
