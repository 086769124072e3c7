// The final score screen: ranking from `result` and a chart of every zoo's history per break.
import { h, s } from "../dom.js";
import { seatTag, seatColour, seatName } from "../seats.js";
import { renderCard } from "./cards.js";
import { icon } from "../icons.js";
import { t, listing } from "../i18n.js";

function pick(obj, seat) {
  if (!obj) return undefined;
  if (Array.isArray(obj)) return obj[seat];
  return obj[seat] ?? obj[String(seat)];
}

/** A column head with its icon; a phone shows the icon alone (the name stays its label). */
function iconHead(kind) {
  const name = t(`icon.${kind}`);
  return h("th", { class: "num", title: name, "aria-label": name }, icon(kind, { size: 18 }), h("span", { class: "wide-only" }, ` ${name}`));
}

export function renderFinal(ui, onClose) {
  const st = ui.st;
  const pub = ui.pub;
  const n = pub.players.length;
  const result = st.result || null;
  const zoos = (result && result.details && result.details.zoos) || null;
  const places = (result && result.details && result.details.places) || null;
  const rows = [];
  for (let i = 0; i < n; i++) {
    const d = pick(zoos, i) || (Array.isArray(pub.final) ? pub.final[i] : null) || {};
    const p = pub.players[i];
    rows.push({
      seat: i,
      vp: pick(result && result.scores, i) ?? d.vp ?? p.vp,
      appeal: d.appeal ?? p.appeal,
      conservation: d.conservation ?? p.conservation,
      finalCards: d.final_cards,
      sponsor: d.sponsor_awards,
      projects: d.projects ?? (p.supported || []).length,
      money: d.money ?? p.money,
      final: d.final || [],
      place: pick(places, i),
    });
  }
  const ranking = (result && Array.isArray(result.ranking)) ? result.ranking.map(Number) : rows.slice().sort((a, b) => b.vp - a.vp).map((r) => r.seat);
  let place = 0;
  const ordered = ranking.map((seat, idx) => {
    const r = rows[seat];
    if (r.place === undefined) {
      if (idx === 0 || rows[ranking[idx - 1]].vp !== r.vp) place = idx + 1;
      r.place = place;
    }
    return r;
  });
  const winner = ordered.filter((r) => r.place === 1);
  const you = st.seat;
  // a solo game is won by reaching the goal (a score of 0 or more), not by being first of one
  const solo = result && result.details && result.details.solo;
  const headline = solo ? (solo.reached ? t("final.solo_reached", { score: solo.score }) : t("final.solo_missed", { score: solo.score, goal: solo.goal }))
    : winner.length > 1 ? t("final.shared_win", { names: listing(winner.map((r) => seatName(r.seat))) })
    : winner.length ? (winner[0].seat === you ? t("final.you_win") : t("final.wins", { name: seatName(winner[0].seat) })) : t("status.game_over");

  const table = h("table", { class: "final-table" },
    h("thead", h("tr", h("th", "#"), h("th", t("board.zoo")), h("th", { class: "num" }, t("score.vp")), iconHead("appeal"), iconHead("conservation"), h("th", { class: "num" }, t("final.from_final_cards")), h("th", { class: "num" }, t("final.from_sponsors")),
      h("th", { class: "num" }, t("board.projects")), h("th", { class: "num" }, t("icon.money")))),
    h("tbody", ordered.map((r) => h("tr", { class: r.place === 1 ? "winner" : null },
      h("td", { class: "num" }, String(r.place)), h("td", seatTag(r.seat)), h("td", { class: "num strong" }, String(r.vp)),
      h("td", { class: "num" }, String(r.appeal)), h("td", { class: "num" }, String(r.conservation)),
      h("td", { class: "num" }, r.finalCards ?? "–"), h("td", { class: "num" }, r.sponsor ?? "–"),
      h("td", { class: "num" }, String(r.projects)), h("td", { class: "num" }, String(r.money))))));

  const finals = ordered.filter((r) => r.final && r.final.length);
  return h("div", { class: "final-card", role: "dialog", "aria-modal": "true", "aria-labelledby": "final-title" },
    h("header", { class: "final-head" }, h("h2", { id: "final-title" }, headline),
      h("button", { class: "btn ghost", type: "button", onclick: onClose, "aria-label": t("final.close_aria") }, t("final.back_to_board"))),
    table,
    h("h3", t("final.history")),
    historyChart(pub.players),
    finals.length ? h("details", { class: "final-cards" }, h("summary", t("final.final_cards")),
      h("div", { class: "card-row" }, finals.flatMap((r) => r.final.map((cid) => h("div", { class: "final-owner" }, seatTag(r.seat, { small: true }), renderCard(ui.card(cid), { size: "mini", id: cid })))))) : null,
    h("p", h("a", { class: "btn", href: "./" }, t("game.back_to_lobby"))));
}

/** The break indices whose labels fit on the axis at ``font`` (viewBox units): always the start
 * and the end, then every k-th break, k the smallest step whose labels keep apart, none so
 * close to the start or the end that they would touch those words. */
function breakTicks(len, X, font, startText, endText) {
  const em = 0.66 * font; // a generous average width of a character
  const half = (text) => (String(text).length * em) / 2;
  const out = new Set([0, len - 1]);
  const dx = len > 1 ? X(1) - X(0) : 1;
  const step = Math.max(1, Math.ceil((2 * half(String(len)) + em) / dx));
  for (let i = step; i < len - 1; i += step) {
    const clearStart = X(i) - half(i) >= X(0) + half(startText) + em / 2;
    const clearEnd = X(i) + half(i) <= X(len - 1) - half(endText) - em / 2;
    if (clearStart && clearEnd) out.add(i);
  }
  return out;
}

/** Two small line charts (appeal, conservation) of each zoo's history per break. */
export function historyChart(players) {
  const series = players.map((p) => {
    const pts = (p.history || []).map((q) => [q[0], q[1]]);
    pts.push([p.appeal, p.conservation]);
    return [[0, 0], ...pts];
  });
  const len = Math.max(2, ...series.map((x) => x.length));
  const W = 360; const H = 200; const L = 34; const B = 26; const T = 14; const Rr = 10;
  const panel = (title, idx) => {
    const max = Math.max(10, ...series.flat().map((q) => q[idx]));
    const top = Math.ceil(max / 10) * 10;
    const X = (i) => L + (i / (len - 1)) * (W - L - Rr);
    const Y = (v) => T + (1 - v / top) * (H - T - B);
    const svg = s("svg", { class: "history", viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": t("final.per_break", { title }) });
    svg.appendChild(s("text", { x: L, y: 10, class: "chart-title" }, title));
    for (let v = 0; v <= top; v += top / 5) {
      svg.appendChild(s("line", { x1: L, x2: W - Rr, y1: Y(v), y2: Y(v), class: "grid" }));
      svg.appendChild(s("text", { x: L - 4, y: Y(v), dy: "0.35em", "text-anchor": "end", class: "axis" }, String(Math.round(v))));
    }
    // the break axis: start, end and as many break numbers as fit without touching (a long
    // game has 20 or more breaks); the desktop and the phone (bigger text) each get their own
    const startText = t("final.axis_start"); const endText = t("final.axis_end");
    const desk = breakTicks(len, X, 10, startText, endText);
    const phone = breakTicks(len, X, 18, startText, endText);
    for (let i = 0; i < len; i++) {
      const cls = `axis x-tick${desk.has(i) ? " on-desk" : ""}${phone.has(i) ? " on-phone" : ""}`;
      svg.appendChild(s("text", { x: X(i), y: H - 8, "text-anchor": "middle", class: cls }, i === 0 ? startText : i === len - 1 ? endText : String(i)));
    }
    series.forEach((pts, seat) => {
      const c = seatColour(seat).fill;
      const d = pts.map((q, i) => `${i ? "L" : "M"}${X(i).toFixed(1)} ${Y(q[idx]).toFixed(1)}`).join("");
      svg.appendChild(s("path", { d, fill: "none", stroke: c, "stroke-width": 2.5, "stroke-dasharray": seat % 2 ? "6 3" : null }));
      const last = pts[pts.length - 1];
      const x = X(pts.length - 1); const y = Y(last[idx]);
      svg.appendChild(s("circle", { cx: x, cy: y, r: 7, fill: c, stroke: "#222" }));
      svg.appendChild(s("text", { x, y, dy: "0.35em", "text-anchor": "middle", "font-size": 9, "font-weight": 700, fill: seatColour(seat).ink }, String(seat + 1)));
    });
    return svg;
  };
  return h("div", { class: "history-charts" }, panel(t("icon.appeal"), 0), panel(t("icon.conservation"), 1));
}
