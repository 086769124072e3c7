// A player's rating history as an SVG line chart with both axes: x = the rated games in order
// (ticks at game numbers), y = the rating (ticks at round values), each point titled with its
// date and rating. Drawn by the profile page (profile.js).
import { s } from "./dom.js";
import { t } from "./i18n.js";

const W = 560; const H = 220;
const PAD = { left: 66, right: 14, top: 12, bottom: 40 };

function niceStep(range) {
  const raw = range / 4;
  const mag = 10 ** Math.floor(Math.log10(Math.max(raw, 1)));
  return [1, 2, 5, 10].map((m) => m * mag).find((x) => x >= raw) || 10 * mag;
}

/** The chart of `points` ([{at, rating, rd}], oldest first); null for none. */
export function ratingChart(points, label) {
  if (!points || !points.length) return null;
  const ratings = points.map((p) => p.rating);
  let lo = Math.min(...ratings); let hi = Math.max(...ratings);
  if (hi - lo < 40) { lo -= 20; hi += 20; }
  const step = niceStep(hi - lo);
  lo = Math.floor(lo / step) * step; hi = Math.ceil(hi / step) * step;
  const n = points.length;
  const x = (i) => PAD.left + (n === 1 ? (W - PAD.left - PAD.right) / 2 : i * (W - PAD.left - PAD.right) / (n - 1));
  const y = (r) => H - PAD.bottom - (r - lo) * (H - PAD.top - PAD.bottom) / (hi - lo);
  const parts = [
    s("line", { class: "axis", x1: PAD.left, y1: H - PAD.bottom, x2: W - PAD.right, y2: H - PAD.bottom }),
    s("line", { class: "axis", x1: PAD.left, y1: PAD.top, x2: PAD.left, y2: H - PAD.bottom }),
  ];
  for (let v = lo; v <= hi + 1e-9; v += step) {
    parts.push(s("line", { class: "grid", x1: PAD.left, y1: y(v), x2: W - PAD.right, y2: y(v) }),
      s("text", { class: "tick y-tick", x: PAD.left - 6, y: y(v) + 4, "text-anchor": "end" }, String(Math.round(v))));
  }
  const every = Math.max(1, Math.ceil(n / 8));
  for (let i = 0; i < n; i += every) {
    parts.push(s("text", { class: "tick x-tick", x: x(i), y: H - PAD.bottom + 16, "text-anchor": "middle" }, String(i + 1)));
  }
  parts.push(
    s("text", { class: "axis-label", x: (PAD.left + W - PAD.right) / 2, y: H - 6, "text-anchor": "middle" }, t("profile.axis_games")),
    s("text", { class: "axis-label", x: 12, y: (PAD.top + H - PAD.bottom) / 2, "text-anchor": "middle", transform: `rotate(-90 12 ${(PAD.top + H - PAD.bottom) / 2})` }, t("profile.axis_rating")),
    s("polyline", { class: "rating-line", fill: "none", points: points.map((p, i) => `${x(i)},${y(p.rating)}`).join(" ") }));
  for (const [i, p] of points.entries()) {
    parts.push(s("circle", { class: "rating-point", cx: x(i), cy: y(p.rating), r: 3.5 },
      s("title", null, `${new Date(p.at).toLocaleDateString()} · ${Math.round(p.rating)} ±${Math.round(p.rd)}`)));
  }
  return s("svg", { class: "rating-chart", viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": label }, ...parts);
}
