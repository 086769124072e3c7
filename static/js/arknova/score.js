// The Ark Nova score track: each zoo's appeal disc and conservation diamond on one scale (the VP is
// the gap between them), and a legend row per seat with its numbers.
import { h, s, clear } from "../dom.js";
import { t } from "../i18n.js";
import { icon } from "../icons.js";
import { seatTag, seatColour, seatDisc, seatLabel } from "../seats.js";

/** Draw the score track of `ui` (an ArkNovaUI) into `ui.els.score`. */
export function renderScoreTrack(ui) {
  const host = ui.els.score;
  const players = ui.pub.players;
  const W = Math.max(300, host.clientWidth || 900);
  ui.lastWidth = W;
  const phone = W < 640;
  const lane = phone ? 22 : 26;
  const top = 6;
  const scaleY = top + players.length * lane + 6;
  const H = scaleY + (phone ? 22 : 24);
  const marks = players.map((p) => ({ a: p.appeal, c: p.appeal - p.vp }));
  const maxA = Math.max(113, ...marks.map((m) => Math.max(m.a, m.c) + 4));
  const left = 14; const right = W - 14;
  const X = (a) => left + (Math.max(0, a) / maxA) * (right - left);
  const svg = s("svg", { class: "score-svg", viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: "img",
    "aria-label": t("score.aria") });
  // the point where the markers meet: 100 appeal at 7 conservation; shade the scoring zone
  svg.appendChild(s("line", { x1: left, x2: right, y1: scaleY, y2: scaleY, class: "scale-line" }));
  for (let a = 0; a <= maxA; a += 5) {
    const major = a % 10 === 0;
    svg.appendChild(s("line", { x1: X(a), x2: X(a), y1: scaleY - (major ? 5 : 3), y2: scaleY + (major ? 5 : 3), class: "tick" }));
    if (major && (!phone || a % 20 === 0)) svg.appendChild(s("text", { x: X(a), y: scaleY + 16, "text-anchor": "middle", class: "tick-label" }, String(a)));
  }
  players.forEach((p, i) => {
    const y = top + i * lane + lane / 2;
    const col = seatColour(i).fill;
    const m = marks[i];
    svg.appendChild(s("line", { x1: left, x2: right, y1: y, y2: y, class: "lane" }));
    const x1 = X(m.a); const x2 = X(m.c);
    svg.appendChild(s("line", { x1, x2, y1: y, y2: y, stroke: col, "stroke-width": 3, opacity: 0.55, class: "gap" }));
    // conservation marker: a diamond where this zoo's VP would be 0
    const d = lane / 2 - 1;
    const cg = s("g", { class: "cp-marker", transform: `translate(${x2} ${y})` },
      s("title", t("score.cp_marker", { seat: seatLabel(i), cp: p.conservation, at: m.c })),
      s("path", { d: `M0 ${-d}L${d} 0 0 ${d} ${-d} 0z`, fill: "#fff", stroke: col, "stroke-width": 3 }),
      s("text", { "text-anchor": "middle", dy: "0.35em", "font-size": d * 1.1, class: "cp-text" }, String(p.conservation)));
    svg.appendChild(cg);
    const ag = seatDisc(i, x1, y, lane / 2 - 1);
    ag.appendChild(s("title", t("score.appeal_marker", { seat: seatLabel(i), appeal: p.appeal })));
    svg.appendChild(ag);
  });
  const legend = h("ul", { class: "score-legend" }, players.map((p, i) => h("li", { class: ["score-row", i === ui.pub.active && "active", players.length > 1 && p.vp === Math.max(...players.map((q) => q.vp)) && "leads"], dataset: { lead: t("score.leads") } },
    seatTag(i, { small: true }),
    h("span", { class: "num", title: t("icon.appeal") }, icon("appeal", { size: 16 }), h("span", { dataset: { k: `${i}:appeal:t` } }, String(p.appeal))),
    h("span", { class: "num", title: t("icon.conservation") }, icon("conservation", { size: 16 }), h("span", { dataset: { k: `${i}:cp:t` } }, String(p.conservation))),
    h("span", { class: "num", title: t("icon.reputation") }, icon("reputation", { size: 16 }), h("span", { dataset: { k: `${i}:rep:t` } }, String(p.reputation))),
    h("span", { class: "num extra", title: t("icon.money") }, icon("money", { size: 16 }), h("span", { dataset: { k: `${i}:money:t` } }, String(p.money))),
    h("span", { class: "num extra", title: t("res.x_tokens") }, icon("x", { size: 16 }), h("span", { dataset: { k: `${i}:x:t` } }, String(p.x))),
    h("span", { class: "num extra", title: t("res.workers") }, icon("worker", { size: 16 }), h("span", { dataset: { k: `${i}:workers:t` } }, `${p.workers - (p.placed || 0)}/${p.workers}`)),
    h("span", { class: "num extra", title: t("res.hand") }, icon("card", { size: 16 }), h("span", { dataset: { k: `${i}:hand:t` } }, String(p.hand_size ?? 0))),
    h("span", { class: ["num vp", p.vp >= 0 && "pos"], title: vpExplain(p) }, `${t("score.vp")} `, h("b", { dataset: { k: `${i}:vp:t` } }, String(p.vp)), h("span", { class: "vp-to-go" }, ` ${p.vp < 0 ? t("score.to_go", { n: -p.vp }) : t("score.end_reached")}`)))));
  clear(host).append(h("div", { class: "score-wrap" }, svg), legend);
}

/** The VP number in words: appeal plus what the conservation points are worth (the engine's VP). */
function vpExplain(p) {
  const worth = p.vp - p.appeal;
  return `${t("score.vp_title")}\n${t("score.vp_explain", { appeal: p.appeal, cp: p.conservation, worth: worth >= 0 ? `+ ${worth}` : `− ${-worth}`, vp: p.vp })}`;
}
