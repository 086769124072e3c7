// The geometry of the zoo map: flat-top hexes in doubled-height coordinates (x 0..8, y 0..12,
// x + y odd), the same as engine/arknova/hexes.py; turning and mirroring shapes, outlines, and the
// small shape icons of the decision bar.
import { s } from "../dom.js";

export const R = 30;                       // hex radius (centre to corner)
export const HX = 1.5 * R;                 // horizontal step per column
export const HY = (Math.sqrt(3) / 2) * R;  // vertical step per doubled row
export const PAD = 6;

export const key = (c) => `${c[0]},${c[1]}`;

export function centre(x, y) {
  return [PAD + R + x * HX, PAD + HY + y * HY];
}

export function corners(x, y, r = R) {
  const [cx, cy] = centre(x, y);
  const pts = [];
  for (let k = 0; k < 6; k++) {
    const a = (Math.PI / 3) * k;
    pts.push([cx + r * Math.cos(a), cy + r * Math.sin(a)]);
  }
  return pts;
}

export const pointsAttr = (pts) => pts.map((p) => `${p[0].toFixed(2)},${p[1].toFixed(2)}`).join(" ");

// ------------------------------------------------------------------ orientations
// The same geometry as engine/arknova/hexes.py: cube coordinates q = x, r = (y - x - 1) // 2.
const byXY = (a, b) => (a[0] - b[0]) || (a[1] - b[1]);

/** Rotate cell c by steps × 60° around cell h. */
export function rotateAbout(c, hc, steps = 1) {
  // move h to the cube origin (cell 0,1), turn, move back
  const x = c[0] - hc[0];
  const y = c[1] - hc[1] + 1;
  let q = x; let r = Math.floor((y - x - 1) / 2); let sc = -q - r;
  for (let i = 0; i < ((steps % 6) + 6) % 6; i++) [q, r, sc] = [-r, -sc, -q];
  return [q + hc[0], 2 * r + q + 1 + hc[1] - 1];
}

/** Mirror cell c left-right across the column of cell h (what the eye calls a mirror image). */
export function mirrorAbout(c, hc) {
  return [2 * hc[0] - c[0], c[1]];
}

/** Translate a shape to its canonical position (minimum x 0, minimum y 0 or 1) and sort it. */
export function normalize(cells) {
  if (!cells.length) return [];
  const dx = -Math.min(...cells.map((c) => c[0]));
  let dy = -Math.min(...cells.map((c) => c[1]));
  if ((dx + dy) % 2) dy += 1;
  return cells.map((c) => [c[0] + dx, c[1] + dy]).sort(byXY);
}

export const setKey = (cells) => cells.map((c) => [c[0], c[1]]).sort(byXY).map(key).join(";");
/** The shape of a set of cells, whatever its position: equal keys are the same orientation. */
export const shapeKey = (cells) => normalize(cells).map(key).join(";");

// neighbour direction -> the corner pair of the shared edge (corner k at angle 60°·k, y down)
const EDGES = [
  [[0, -2], 4, 5], [[1, -1], 5, 0], [[1, 1], 0, 1], [[0, 2], 1, 2], [[-1, 1], 2, 3], [[-1, -1], 3, 4],
];

/** Path of the outline of a set of cells (edges not shared inside the set). */
export function outlinePath(cells) {
  const set = new Set(cells.map(key));
  let d = "";
  for (const [x, y] of cells) {
    const pts = corners(x, y);
    for (const [[dx, dy], a, b] of EDGES) {
      if (set.has(key([x + dx, y + dy]))) continue;
      d += `M${pts[a][0].toFixed(2)} ${pts[a][1].toFixed(2)}L${pts[b][0].toFixed(2)} ${pts[b][1].toFixed(2)}`;
    }
  }
  return d;
}

/** The cell of a set nearest to the set's mean centre (where labels go). */
export function labelCell(cells) {
  let mx = 0; let my = 0;
  for (const [x, y] of cells) { const [cx, cy] = centre(x, y); mx += cx; my += cy; }
  mx /= cells.length; my /= cells.length;
  let best = cells[0]; let bd = Infinity;
  for (const c of cells) {
    const [cx, cy] = centre(c[0], c[1]);
    const d = (cx - mx) ** 2 + (cy - my) ** 2;
    if (d < bd) { bd = d; best = c; }
  }
  return best;
}

/** A building shape drawn small (for the building buttons of the decision bar). */
export function shapeIcon(shape, size = 30, colour = "#d9b77e") {
  const cells = (shape || []).map((c) => [c[0], c[1]]);
  if (!cells.length) return s("svg", { width: size, height: size });
  const pts = cells.flatMap((c) => corners(c[0], c[1]));
  const xs = pts.map((p) => p[0]); const ys = pts.map((p) => p[1]);
  const minX = Math.min(...xs); const minY = Math.min(...ys);
  const w = Math.max(...xs) - minX; const hh = Math.max(...ys) - minY;
  const svg = s("svg", { class: "shape-icon", width: size, height: size, viewBox: `${(minX - 2).toFixed(1)} ${(minY - 2).toFixed(1)} ${(Math.max(w, hh) + 4).toFixed(1)} ${(Math.max(w, hh) + 4).toFixed(1)}`, "aria-hidden": "true" });
  for (const c of cells) svg.appendChild(s("polygon", { points: pointsAttr(corners(c[0], c[1], R - 1)), fill: colour, stroke: "#5b4526", "stroke-width": 3 }));
  return svg;
}

