// The zoo map: flat-top hexes in doubled-height coordinates (x 0..8, y 0..12, x + y odd).
// Terrain, placement bonuses, buildings with their animals, and the two interactive modes:
// building placement (ghost of the legal placements at the hovered cell) and enclosure choice.
import { s, clear, cap } from "../dom.js";
import { useIcon } from "../icons.js";
import { seatColour } from "../seats.js";
import { t, tOr } from "../i18n.js";
import { gainText } from "./cards.js";

const R = 30;                       // hex radius (centre to corner)
const HX = 1.5 * R;                 // horizontal step per column
const HY = (Math.sqrt(3) / 2) * R;  // vertical step per doubled row
const PAD = 6;

export const key = (c) => `${c[0]},${c[1]}`;

export function centre(x, y) {
  return [PAD + R + x * HX, PAD + HY + y * HY];
}

function corners(x, y, r = R) {
  const [cx, cy] = centre(x, y);
  const pts = [];
  for (let k = 0; k < 6; k++) {
    const a = (Math.PI / 3) * k;
    pts.push([cx + r * Math.cos(a), cy + r * Math.sin(a)]);
  }
  return pts;
}

const pointsAttr = (pts) => pts.map((p) => `${p[0].toFixed(2)},${p[1].toFixed(2)}`).join(" ");

// neighbour direction -> the corner pair of the shared edge (corner k at angle 60°·k, y down)
const EDGES = [
  [[0, -2], 4, 5], [[1, -1], 5, 0], [[1, 1], 0, 1], [[0, 2], 1, 2], [[-1, 1], 2, 3], [[-1, -1], 3, 4],
];

/** Path of the outline of a set of cells (edges not shared inside the set). */
function outlinePath(cells) {
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
function labelCell(cells) {
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

const BONUS_ICON = { money: "money", cards: "card", x: "x", reputation: "reputation", upgrade: "upgrade", worker: "worker", appeal: "appeal" };

const KIND_FILL = {
  enclosure: "#d9b77e", kiosk: "#f3d9d3", pavilion: "#e2d3ef", special: "#a9d3c8", sponsor: "#bcd3ee",
};

function shortName(name, max = 11) {
  if (!name) return "";
  return name.length <= max ? name : `${name.slice(0, max - 1)}…`;
}

export class ZooMapView {
  /**
   * @param {Element} host
   * @param {object} hooks {onPlace(cells), onCycle(), onEnclosure(id), onHoverCell(cell)}
   */
  constructor(host, hooks = {}) {
    this.host = host;
    this.hooks = hooks;
    this.placements = null;   // [[ [x,y], ...], ...] legal cell sets
    this.byCell = null;       // key -> indices into placements
    this.hover = null;        // [x, y]
    this.cycle = 0;
    this.current = null;      // the placement shown as ghost
    this.targets = null;      // Map building id -> label, for enclosure choice
    this.touchArmed = null;
    this.svg = null;
  }

  /** Draw a whole zoo. map: catalog map, player: public player, ctx: {byId, buildings, seat} */
  render(map, player, ctx) {
    this.map = map;
    this.player = player;
    this.ctx = ctx;
    const cells = map.cells || [];
    const water = new Set((map.water || []).map(key));
    const rock = new Set((map.rock || []).map(key));
    const upg = new Set((map.upgrade_only || []).map(key));
    const bonuses = new Map((map.bonuses || []).map((b) => [key(b.cell), b.gain]));
    const maxX = Math.max(8, ...cells.map((c) => c[0]));
    const maxY = Math.max(12, ...cells.map((c) => c[1]));
    const w = PAD * 2 + 2 * R + maxX * HX;
    const hgt = PAD * 2 + 2 * HY + maxY * HY;

    const svg = s("svg", { class: "zoo-svg", viewBox: `0 0 ${w.toFixed(1)} ${hgt.toFixed(1)}`, role: "img",
      "aria-label": t("zoo.map_aria", { name: map.name || map.id }) });
    const terrain = s("g", { class: "terrain" });
    const built = s("g", { class: "buildings" });
    const legalLayer = s("g", { class: "legal-area" });
    const ghost = s("g", { class: "ghost" });
    const hits = s("g", { class: "hits" });
    this.cellKind = new Map();

    for (const c of cells) {
      const k = key(c);
      const kind = water.has(k) ? "water" : rock.has(k) ? "rock" : "land";
      this.cellKind.set(k, kind);
      const [cx, cy] = centre(c[0], c[1]);
      const g = s("g", { class: `cell ${kind}${upg.has(k) ? " upgrade-only" : ""}`, dataset: { x: c[0], y: c[1] } });
      g.appendChild(s("polygon", { points: pointsAttr(corners(c[0], c[1], R - 0.8)) }));
      if (upg.has(k)) {
        g.appendChild(s("polygon", { class: "hatch", points: pointsAttr(corners(c[0], c[1], R - 0.8)), fill: "url(#hatch)" }));
      }
      if (kind === "water") {
        g.appendChild(s("path", { class: "glyph", d: `M${cx - 12} ${cy - 3}q4 -4 8 0t8 0 8 0M${cx - 12} ${cy + 5}q4 -4 8 0t8 0 8 0` }));
      } else if (kind === "rock") {
        g.appendChild(s("path", { class: "glyph", d: `M${cx - 13} ${cy + 8}l7 -12 5 4 6 -9 8 17z` }));
      }
      const gain = bonuses.get(k);
      if (gain) {
        const [gk, gv] = Object.entries(gain)[0] || [];
        const name = BONUS_ICON[gk];
        const bonus = s("g", { class: "bonus" }, s("title", t("zoo.placement_bonus", { gain: gainText({ [gk]: gv }) })));
        if (name) bonus.appendChild(useIcon(name, cx - 10, cy - 10, 20));
        if (gv > 1 || gk === "money" || gk === "appeal" || gk === "reputation") {
          bonus.appendChild(s("text", { x: cx + (name === "money" ? 0 : 10), y: cy + (name === "money" ? 0 : 11), dy: "0.35em", "text-anchor": "middle", class: name === "money" ? "bonus-value coin" : "bonus-value" }, String(gv)));
        }
        g.appendChild(bonus);
      }
      terrain.appendChild(g);
      const hit = s("polygon", { class: "hit", points: pointsAttr(corners(c[0], c[1], R)), dataset: { x: c[0], y: c[1] } });
      hits.appendChild(hit);
    }

    // buildings
    this.buildingAt = new Map();
    const bspecs = (ctx.buildings) || {};
    const sponsorBuildings = ctx.sponsorBuildings || {};
    for (const b of player.buildings || []) {
      const spec = bspecs[b.type] || sponsorBuildings[b.type] || {};
      const kind = b.kind || spec.kind || "enclosure";
      const bc = (b.cells || []).map((c) => [c[0], c[1]]);
      if (!bc.length) continue;
      for (const c of bc) this.buildingAt.set(key(c), b);
      const occupied = (b.animals || []).length > 0;
      const g = s("g", { class: `building kind-${kind}${occupied ? " occupied" : ""}`, dataset: { id: b.id } });
      const bname = spec.name || tOr(`building.${b.type}`, cap(b.type));
      const title = s("title", kind === "enclosure" ? t(occupied ? "zoo.occupied" : "zoo.empty", { name: bname }) : bname);
      g.appendChild(title);
      for (const c of bc) {
        g.appendChild(s("polygon", { points: pointsAttr(corners(c[0], c[1], R - 0.5)), fill: KIND_FILL[kind] || "#ddd" }));
      }
      g.appendChild(s("path", { class: "outline", d: outlinePath(bc) }));
      const lc = labelCell(bc);
      const [lx, ly] = centre(lc[0], lc[1]);
      if (kind === "kiosk") g.appendChild(useIcon("kiosk", lx - 13, ly - 13, 26));
      else if (kind === "pavilion") g.appendChild(useIcon("pavilion", lx - 13, ly - 13, 26));
      else if (kind === "enclosure" && !occupied) {
        g.appendChild(s("text", { class: "b-size", x: lx, y: ly, dy: "0.35em", "text-anchor": "middle" }, String(bc.length)));
      } else if (!occupied || kind !== "enclosure") {
        const words = String(bname).split(/\s+/);
        const lines = words.length > 1 && words.join(" ").length > 9 ? [words.slice(0, Math.ceil(words.length / 2)).join(" "), words.slice(Math.ceil(words.length / 2)).join(" ")] : [words.join(" ")];
        const t = s("text", { class: "b-name", x: lx, y: ly - (occupied ? 16 : 0) - (lines.length - 1) * 5.5, "text-anchor": "middle" });
        lines.forEach((ln, j) => t.appendChild(s("tspan", { x: lx, dy: j === 0 ? "0.35em" : "1.1em" }, shortName(ln, 11))));
        g.appendChild(t);
      }
      // animals as card chips
      const animals = b.animals || [];
      const spots = bc.slice().sort((a, b2) => (a[1] - b2[1]) || (a[0] - b2[0]));
      animals.forEach((cid, i) => {
        const cell = animals.length === 1 ? lc : spots[i % spots.length];
        const [ax, ay] = centre(cell[0], cell[1]);
        const card = ctx.byId && ctx.byId.get(cid);
        g.appendChild(animalChip(cid, card, ax, ay + (animals.length === 1 && kind !== "enclosure" ? 8 : 0)));
      });
      built.appendChild(g);
    }

    svg.append(terrain, built, legalLayer, ghost, hits);
    this.layers = { terrain, built, legalLayer, ghost, hits };
    svg.addEventListener("pointerover", (e) => this._over(e));
    svg.addEventListener("pointerleave", () => this._leave());
    svg.addEventListener("click", (e) => this._click(e));
    svg.addEventListener("pointerdown", (e) => { this.lastPointer = e.pointerType; });
    clear(this.host).appendChild(svg);
    this.svg = svg;
    this._paintModes();
  }

  // ------------------------------------------------------------ placement mode
  setPlacements(list) {
    this.placements = list && list.length ? list : null;
    this.byCell = null;
    this.cycle = 0;
    this.current = null;
    this.touchArmed = null;
    if (this.placements) {
      this.byCell = new Map();
      this.placements.forEach((cells, i) => {
        for (const c of cells) {
          const k = key(c);
          if (!this.byCell.has(k)) this.byCell.set(k, []);
          this.byCell.get(k).push(i);
        }
      });
    }
    this._paintModes();
  }

  setTargets(targets) {
    this.targets = targets && targets.size ? targets : null;
    this._paintModes();
  }

  /** Show placement i (keyboard browsing through the bar). */
  showPlacement(i) {
    if (!this.placements) return;
    const n = this.placements.length;
    const idx = ((i % n) + n) % n;
    this.current = this.placements[idx];
    this.hover = this.current[0];
    const at = this.byCell.get(key(this.hover)) || [];
    this.cycle = Math.max(0, at.indexOf(idx));
    this._drawGhost();
    return idx;
  }

  /** R / F: the next (or previous) legal placement containing the hovered cell. */
  cycleAt(step = 1) {
    if (!this.placements || !this.hover) return;
    const at = this.byCell.get(key(this.hover));
    if (!at || !at.length) return;
    this.cycle = (((this.cycle + step) % at.length) + at.length) % at.length;
    this.current = this.placements[at[this.cycle]];
    this._drawGhost();
    if (this.hooks.onGhost) this.hooks.onGhost(at[this.cycle], at.length);
  }

  currentIndex() {
    if (!this.current || !this.placements) return -1;
    return this.placements.indexOf(this.current);
  }

  _paintModes() {
    if (!this.svg) return;
    const { legalLayer, built } = this.layers;
    clear(legalLayer);
    this.svg.classList.toggle("placing", !!this.placements);
    this.svg.classList.toggle("choosing", !!this.targets);
    if (this.placements) {
      for (const k of this.byCell.keys()) {
        const [x, y] = k.split(",").map(Number);
        legalLayer.appendChild(s("polygon", { class: "legal-cell", points: pointsAttr(corners(x, y, R - 3)) }));
      }
    }
    for (const g of built.querySelectorAll(".building")) {
      const id = g.dataset.id;
      const t = this.targets && [...this.targets.keys()].some((k) => String(k) === id);
      g.classList.toggle("target", !!t);
    }
    this._drawGhost();
  }

  _drawGhost() {
    if (!this.svg) return;
    const { ghost } = this.layers;
    clear(ghost);
    if (this.placements && this.current) {
      for (const c of this.current) {
        ghost.appendChild(s("polygon", { class: "ghost-cell", points: pointsAttr(corners(c[0], c[1], R - 1.5)) }));
      }
      ghost.appendChild(s("path", { class: "ghost-outline", d: outlinePath(this.current) }));
      const at = this.hover && this.byCell.get(key(this.hover));
      if (at && at.length > 1) {
        const [hx, hy] = centre(this.hover[0], this.hover[1]);
        ghost.appendChild(s("text", { class: "ghost-count", x: hx, y: hy, dy: "0.35em", "text-anchor": "middle" }, `${this.cycle + 1}/${at.length}`));
      }
    } else if (this.placements && this.hover) {
      ghost.appendChild(s("polygon", { class: "ghost-bad", points: pointsAttr(corners(this.hover[0], this.hover[1], R - 2)) }));
    }
  }

  _cellOf(e) {
    const t = e.target;
    if (!t || !t.dataset || t.dataset.x === undefined) return null;
    return [Number(t.dataset.x), Number(t.dataset.y)];
  }

  _over(e) {
    const c = this._cellOf(e);
    if (!c) return;
    if (this.placements) {
      if (this.hover && key(this.hover) === key(c) && this.current) return;
      this.hover = c;
      const at = this.byCell.get(key(c));
      this.cycle = 0;
      this.current = at && at.length ? this.placements[at[0]] : null;
      this._drawGhost();
      if (this.hooks.onGhost) this.hooks.onGhost(this.current ? at[0] : -1, at ? at.length : 0);
    } else if (this.targets) {
      const b = this.buildingAt.get(key(c));
      this.svg.classList.toggle("over-target", !!(b && this._isTarget(b.id)));
    }
  }

  _leave() {
    if (this.placements && this.lastPointer !== "touch") {
      // keep the ghost if it was chosen by keyboard browsing
    }
  }

  _isTarget(id) {
    return this.targets && [...this.targets.keys()].some((k) => String(k) === String(id));
  }

  _click(e) {
    const c = this._cellOf(e);
    if (!c) return;
    if (this.placements) {
      const at = this.byCell.get(key(c));
      if (!at || !at.length) return;
      // touch: the first tap shows the ghost, a second tap inside it places
      if (this.lastPointer === "touch") {
        const inGhost = this.current && this.current.some((q) => key(q) === key(c));
        if (!inGhost || this.touchArmed !== key(this.current[0]) + this.cycle) {
          if (!inGhost) {
            this.hover = c; this.cycle = 0; this.current = this.placements[at[0]];
            this._drawGhost();
          }
          this.touchArmed = key(this.current[0]) + this.cycle;
          if (this.hooks.onGhost) this.hooks.onGhost(this.placements.indexOf(this.current), at.length);
          return;
        }
      }
      if (!this.current || !this.current.some((q) => key(q) === key(c))) {
        this.hover = c; this.cycle = 0; this.current = this.placements[at[0]];
      }
      if (this.hooks.onPlace) this.hooks.onPlace(this.current);
      return;
    }
    if (this.targets) {
      const b = this.buildingAt.get(key(c));
      if (b && this._isTarget(b.id) && this.hooks.onEnclosure) this.hooks.onEnclosure(b.id);
    }
  }
}

function animalChip(cid, card, x, y) {
  const w = 52; const hgt = 20;
  const g = s("g", { class: "animal-chip", transform: `translate(${(x - w / 2).toFixed(1)} ${(y - hgt / 2).toFixed(1)})` });
  g.appendChild(s("title", card ? t("zoo.animal_chip", { name: card.name, size: card.size }) : cid));
  g.appendChild(s("rect", { width: w, height: hgt, rx: 3, class: "chip-card" }));
  g.appendChild(s("rect", { width: 5, height: hgt, rx: 2, class: "chip-band" }));
  g.appendChild(s("text", { x: 8, y: hgt / 2, dy: "0.35em", class: "chip-text" }, shortName(card ? card.name : cid, 9)));
  return g;
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

export function seatStroke(seat) { return seatColour(seat).fill; }
