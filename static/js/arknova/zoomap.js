// The zoo map: flat-top hexes in doubled-height coordinates (x 0..8, y 0..12, x + y odd).
// Terrain, placement bonuses, buildings with their animals, and the two interactive modes:
// building placement (a preview of a legal placement at the hovered cell, which R turns and F
// mirrors among the legal orientations) and enclosure choice. Texts never render below 14 CSS px:
// on a small map they grow and abbreviate, and a tap on a building or bonus shows its details.
import { h, s, clear, cap } from "../dom.js";
import { useIcon } from "../icons.js";
import { seatColour } from "../seats.js";
import { t, tOr } from "../i18n.js";
import { gainText } from "./cards.js";

const R = 30;                       // hex radius (centre to corner)
const HX = 1.5 * R;                 // horizontal step per column
const HY = (Math.sqrt(3) / 2) * R;  // vertical step per doubled row
const PAD = 6;
const MIN_PX = 14;                  // the smallest text on screen, in CSS px
const CHAR_EM = 0.62;               // a generous average width of a bold character, in em

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

const setKey = (cells) => cells.map((c) => [c[0], c[1]]).sort(byXY).map(key).join(";");
/** The shape of a set of cells, whatever its position: equal keys are the same orientation. */
export const shapeKey = (cells) => normalize(cells).map(key).join(";");

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

// the base sizes of the map's texts (user units; menagerie.css uses the same numbers)
const FONT = { bonus: 11, size: 17, name: 10, chip: 10 };

function shortName(name, max = 11) {
  if (!name) return "";
  max = Math.max(2, max);
  return name.length <= max ? name : `${name.slice(0, max - 1)}…`;
}

/** How many characters of a bold text of size fs fit into width w (a first guess only). */
const fits = (w, fs) => Math.max(2, Math.floor(w / (CHAR_EM * fs)));

// ------------------------------------------------------------------ measured text widths
// CHAR_EM is only a guess: wide fonts (DejaVu Sans Bold, a common fallback) draw bold text
// wider than 0.62 em per character, and a name placed by that guess at the map's edge stuck
// out of the map. The map's labels are laid out with the widths the browser measures in the
// map's own font (a canvas measures the same font, even while the map is hidden).
let measurer = null;
let measureFamily = "";

/** The width of `text` in user units at font size fs and weight `weight`, with a small margin. */
export function textWidth(text, fs, weight = 700) {
  if (!text) return 0;
  if (measurer === null) {
    try { measurer = document.createElement("canvas").getContext("2d") || false; } catch { measurer = false; }
  }
  if (!measureFamily && typeof getComputedStyle === "function") {
    measureFamily = getComputedStyle(document.documentElement).getPropertyValue("--font").trim();
  }
  if (!measurer) return text.length * 0.8 * fs;  // no canvas: wider than any bold font's average
  measurer.font = `${weight} 100px ${measureFamily || "sans-serif"}`;
  return (measurer.measureText(text).width / 100) * fs * 1.03 + 1;
}

/** `text`, shortened with an ellipsis until it fits into width `room` (at least one letter). */
export function fitText(text, room, fs, weight = 700) {
  if (!text || textWidth(text, fs, weight) <= room) return text || "";
  for (let n = text.length - 1; n > 1; n--) {
    const shorter = `${text.slice(0, n).trimEnd()}…`;
    if (textWidth(shorter, fs, weight) <= room) return shorter;
  }
  return `${text.slice(0, 1)}…`;
}

export class ZooMapView {
  /**
   * @param {Element} host
   * @param {object} hooks {onPlace(cells), onEnclosure(id), onGhost(index, count)}
   */
  constructor(host, hooks = {}) {
    this.host = host;
    this.hooks = hooks;
    this.placements = null;   // [[ [x,y], ...], ...] legal cell sets
    this.byCell = null;       // key -> indices into placements
    this.bySet = null;        // cell-set key -> index
    this.shapes = null;       // index -> shape key (its orientation)
    this.hover = null;        // [x, y]
    this.current = null;      // the placement shown as preview (an element of placements)
    this.note = null;         // what R / F could not do, shown over the map
    this.targets = null;      // Map building id -> label, for enclosure choice
    this.touchArmed = null;
    this.shownOnce = false;
    this.svg = null;
    this.minFont = 0;         // user units that render as MIN_PX (0: not measured yet)
    this.detail = null;       // the building or cell whose details are shown
    if (typeof ResizeObserver !== "undefined") {
      let lastW = 0;
      new ResizeObserver(() => {
        const w = host.clientWidth;
        if (!w || Math.abs(w - lastW) < 2) return;
        lastW = w;
        this._fitFonts();
        this._keepInside();
      }).observe(host);
    }
  }

  /** The font size in user units for a text of base size `base`. */
  fs(base) { return Math.max(base, this.minFont); }

  /** Measure the map's scale; when the smallest readable size changed, draw again. */
  _fitFonts() {
    if (!this.svg || !this.svg.isConnected || this.fitting) return;
    const ctm = this.svg.getScreenCTM();
    if (!ctm || !ctm.a) return;
    const need = Math.ceil((MIN_PX / ctm.a) * 20) / 20 + 0.05;
    const floor = need > FONT.name ? need : 0;
    this.svg.style.setProperty("--map-min-font", `${floor}px`);
    if (Math.abs(floor - this.minFont) > 0.2 && this.map) {
      this.minFont = floor;
      this.fitting = true;
      try { this.render(this.map, this.player, this.ctx); } finally { this.fitting = false; }
    }
  }

  /** Draw a whole zoo. map: catalog map, player: public player, ctx: {byId, buildings, seat} */
  render(map, player, ctx) {
    if (this.player && player && this.detail && this.player !== player) this.detail = this._sameDetail(player);
    this.map = map;
    this.player = player;
    this.ctx = ctx;
    const cells = map.cells || [];
    const water = new Set((map.water || []).map(key));
    const rock = new Set((map.rock || []).map(key));
    const upg = new Set((map.upgrade_only || []).map(key));
    const bonuses = new Map((map.bonuses || []).map((b) => [key(b.cell), b.gain]));
    this.bonuses = bonuses;
    const maxX = Math.max(8, ...cells.map((c) => c[0]));
    const maxY = Math.max(12, ...cells.map((c) => c[1]));
    const w = PAD * 2 + 2 * R + maxX * HX;
    const hgt = PAD * 2 + 2 * HY + maxY * HY;
    this.vbWidth = w;
    if (!this.minFont && this.host.clientWidth) {
      // a first guess from the width (the real scale is measured once the map is in the page)
      const k = this.host.clientWidth / w;
      this.minFont = MIN_PX / k > FONT.name ? Math.ceil((MIN_PX / k) * 20) / 20 + 0.05 : 0;
    }
    const fsBonus = this.fs(FONT.bonus);
    const fsName = this.fs(FONT.name);

    const svg = s("svg", { class: "zoo-svg", viewBox: `0 0 ${w.toFixed(1)} ${hgt.toFixed(1)}`, role: "img",
      "aria-label": t("zoo.map_aria", { name: map.name || map.id }) });
    svg.style.setProperty("--map-min-font", `${this.minFont}px`);
    const terrain = s("g", { class: "terrain" });
    const built = s("g", { class: "buildings" });
    const labels = s("g", { class: "labels" });   // over every building, so none hides another's name
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
          // a bigger number sits beside the icon rather than on its corner
          const off = fsBonus > FONT.bonus + 1 ? 12 : 10;
          bonus.appendChild(s("text", { x: cx + (name === "money" ? 0 : off), y: cy + (name === "money" ? 0 : 11), dy: "0.35em", "text-anchor": "middle", class: name === "money" ? "bonus-value coin" : "bonus-value" }, String(gv)));
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
      const lg = s("g", { class: "building-label", dataset: { id: b.id } });
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
        lg.appendChild(s("text", { class: "b-size", x: lx, y: ly, dy: "0.35em", "text-anchor": "middle" }, String(bc.length)));
      } else if (!occupied || kind !== "enclosure") {
        // the name, in one or two lines as wide as the building allows
        const xs = bc.map((c) => c[0]);
        const room = Math.min(130, (Math.max(...xs) - Math.min(...xs)) * HX + 2 * R - 6);
        const max = fits(room, fsName);
        const words = String(bname).split(/\s+/);
        const lines = words.length > 1 && words.join(" ").length > Math.min(9, max) ? [words.slice(0, Math.ceil(words.length / 2)).join(" "), words.slice(Math.ceil(words.length / 2)).join(" ")] : [words.join(" ")];
        const lh = fsName * 1.1;
        const shown = lines.map((ln) => fitText(shortName(ln, 11), room, fsName));
        // keep the whole name on the map (its measured width: at the edge it moves inward)
        const half = Math.min(w / 2 - PAD, Math.max(...shown.map((ln) => textWidth(ln, fsName))) / 2);
        const nx = Math.max(PAD + half, Math.min(w - PAD - half, lx));
        const tx = s("text", { class: "b-name", x: nx, y: ly - (occupied ? 6 + fsName : 0) - ((lines.length - 1) * lh) / 2, "text-anchor": "middle" });
        shown.forEach((ln, j) => tx.appendChild(s("tspan", { x: nx, dy: j === 0 ? "0.35em" : "1.1em" }, ln)));
        lg.appendChild(tx);
      }
      // animals as card chips
      const animals = b.animals || [];
      const spots = bc.slice().sort((a, b2) => (a[1] - b2[1]) || (a[0] - b2[0]));
      animals.forEach((cid, i) => {
        const cell = animals.length === 1 ? lc : spots[i % spots.length];
        const [ax, ay] = centre(cell[0], cell[1]);
        const card = ctx.byId && ctx.byId.get(cid);
        lg.appendChild(this._chip(cid, card, ax, ay + (animals.length === 1 && kind !== "enclosure" ? 8 : 0)));
      });
      built.appendChild(g);
      if (lg.childNodes.length) labels.appendChild(lg);
    }

    svg.append(terrain, built, labels, legalLayer, ghost, hits);
    this.layers = { terrain, built, labels, legalLayer, ghost, hits };
    svg.addEventListener("pointerover", (e) => this._over(e));
    svg.addEventListener("click", (e) => this._click(e));
    svg.addEventListener("pointerdown", (e) => { this.lastPointer = e.pointerType; });
    this.noteEl = h("p", { class: "zoo-note", role: "status", "aria-live": "polite", hidden: true });
    this.detailEl = h("div", { class: "zoo-detail", hidden: true });
    clear(this.host).append(svg, this.noteEl, this.detailEl);
    this.host.classList.add("zoo-map-host");
    this.svg = svg;
    this._paintModes();
    this._showNote();
    this._showDetail();
    if (!this.fitting) this._fitFonts();
    this._keepInside();
  }

  /** The last guard, on what the browser drew: a name past the map's edge moves inside, an
   *  animal chip's text longer than its card is shortened (nothing to do while hidden). */
  _keepInside() {
    const svg = this.svg;
    if (!svg || !svg.isConnected || !this.layers) return;
    const box = svg.getBoundingClientRect();
    const ctm = svg.getScreenCTM();
    if (!box.width || !ctm || !ctm.a) return;
    for (const tx of this.layers.labels.querySelectorAll("text")) {
      let r = tx.getBoundingClientRect();
      if (!r.width) continue;
      const chip = tx.closest(".animal-chip");
      if (chip) {
        const card = chip.querySelector(".chip-card").getBoundingClientRect();
        const right = Math.min(card.right, box.right);
        let name = tx.textContent;
        while (r.right > right + 0.5 && name.length > 2) {
          name = `${name.replace(/…$/, "").slice(0, -1).trimEnd()}…`;
          tx.textContent = name;
          r = tx.getBoundingClientRect();
        }
        continue;
      }
      let dx = 0;
      if (r.left < box.left) dx = box.left - r.left + 1;
      else if (r.right > box.right) dx = box.right - r.right - 1;
      let dy = 0;
      if (r.top < box.top) dy = box.top - r.top + 1;
      else if (r.bottom > box.bottom) dy = box.bottom - r.bottom - 1;
      if (dx) {
        const nx = Number(tx.getAttribute("x")) + dx / ctm.a;
        tx.setAttribute("x", nx.toFixed(1));
        for (const sp of tx.querySelectorAll("tspan")) sp.setAttribute("x", nx.toFixed(1));
      }
      if (dy) tx.setAttribute("y", (Number(tx.getAttribute("y")) + dy / ctm.d).toFixed(1));
    }
  }

  _chip(cid, card, x, y) {
    const fs = this.fs(FONT.chip);
    const name = card ? card.name : cid;
    const hgt = Math.max(20, Math.round(fs * 1.45));
    // as wide as the name needs, between a hex's width and a little more
    const w = Math.round(Math.max(52, Math.min(78, CHAR_EM * fs * name.length + 14)));
    const text = fitText(shortName(name, fits(w - 12, fs)), w - 12, fs);
    const left = Math.max(2, Math.min((this.vbWidth || Infinity) - w - 2, x - w / 2));
    const g = s("g", { class: "animal-chip", transform: `translate(${left.toFixed(1)} ${(y - hgt / 2).toFixed(1)})` });
    g.appendChild(s("title", card ? t("zoo.animal_chip", { name: card.name, size: card.size }) : cid));
    g.appendChild(s("rect", { width: w, height: hgt, rx: 3, class: "chip-card" }));
    g.appendChild(s("rect", { width: 5, height: hgt, rx: 2, class: "chip-band" }));
    g.appendChild(s("text", { x: 8, y: hgt / 2, dy: "0.35em", class: "chip-text" }, text));
    return g;
  }

  // ------------------------------------------------------------ placement mode
  setPlacements(list) {
    this.placements = list && list.length ? list : null;
    this.byCell = null;
    this.bySet = null;
    this.shapes = null;
    this.current = null;
    this.touchArmed = null;
    this.shownOnce = false;
    this.note = null;
    if (this.placements) {
      this.byCell = new Map();
      this.bySet = new Map();
      this.shapes = this.placements.map((cells) => shapeKey(cells));
      this.placements.forEach((cells, i) => {
        this.bySet.set(setKey(cells), i);
        for (const c of cells) {
          const k = key(c);
          if (!this.byCell.has(k)) this.byCell.set(k, []);
          this.byCell.get(k).push(i);
        }
      });
      this.detail = null;
    }
    this._paintModes();
    this._showNote();
    this._showDetail();
  }

  setTargets(targets) {
    this.targets = targets && targets.size ? targets : null;
    if (this.targets) this.detail = null;
    this._paintModes();
    this._showDetail();
  }

  /** Show placement i (browsing with the bar's ◀ ▶). */
  showPlacement(i) {
    if (!this.placements) return;
    const n = this.placements.length;
    const idx = ((i % n) + n) % n;
    this._setCurrent(idx, this.hover && this.placements[idx].some((c) => key(c) === key(this.hover)) ? this.hover : labelCell(this.placements[idx]));
    if (this.shownOnce) this.touchArmed = setKey(this.current);
    this.shownOnce = true;
    this.revealGhost();
    return idx;
  }

  /** Keep the preview in sight between the top of the screen and the decision bar (fixed at
   * the bottom; on a phone it takes up to half the screen): scroll the map's scrolling
   * containers, then the page, by as little as that takes. */
  revealGhost() {
    if (!this.placements || !this.current || !this.svg) return;
    const outline = this.layers && this.layers.ghost && this.layers.ghost.querySelector(".ghost-outline");
    if (!outline) return;
    const bar = document.getElementById("decision");
    const barTop = bar && !bar.hidden ? bar.getBoundingClientRect().top : window.innerHeight;
    const margin = 12;
    const shift = (r, top, bottom) => {
      if (r.bottom > bottom) return Math.max(0, Math.min(r.bottom - bottom, r.top - top));
      if (r.top < top) return r.top - top;
      return 0;
    };
    for (let el = this.svg.parentElement; el && el !== document.body; el = el.parentElement) {
      const oy = getComputedStyle(el).overflowY;
      if ((oy !== "auto" && oy !== "scroll") || el.scrollHeight <= el.clientHeight) continue;
      const box = el.getBoundingClientRect();
      const dy = shift(outline.getBoundingClientRect(), Math.max(box.top, 0) + margin,
        Math.min(box.bottom, barTop) - margin);
      if (dy) el.scrollTop += dy;
    }
    const dy = shift(outline.getBoundingClientRect(), margin, barTop - margin);
    if (dy) window.scrollBy(0, dy);
  }

  _setCurrent(idx, hover) {
    this.current = idx === null || idx === undefined || idx < 0 ? null : this.placements[idx];
    if (hover) this.hover = hover;
    this.note = null;
    this._drawGhost();
    this._showNote();
  }

  /** Which legal placement to preview at cell hc: the shown one moved there if it is legal,
   * else the same orientation covering hc, else the first covering hc. */
  _pickAt(hc) {
    const at = this.byCell.get(key(hc));
    if (!at || !at.length) return -1;
    if (this.current && this.hover) {
      const dx = hc[0] - this.hover[0]; const dy = hc[1] - this.hover[1];
      const moved = this.bySet.get(setKey(this.current.map((c) => [c[0] + dx, c[1] + dy])));
      if (moved !== undefined) return moved;
      const shape = shapeKey(this.current);
      const same = at.find((i) => this.shapes[i] === shape);
      if (same !== undefined) return same;
    }
    return at[0];
  }

  /** R: turn the preview 60° (clockwise for step 1) around the hovered cell, to the next
   * orientation that is legal there. Returns true when the preview changed. */
  rotateAt(step = 1) {
    if (!this.placements || !this.current || !this.hover) return false;
    const hc = this.hover;
    const base = this.current;
    const baseShape = shapeKey(base);
    const at = this.byCell.get(key(hc)) || [];
    let turned = false;
    for (let k = 1; k < 6; k++) {
      const cand = base.map((c) => rotateAbout(c, hc, step > 0 ? k : 6 - k));
      const shape = shapeKey(cand);
      if (shape === baseShape) continue;
      turned = true;
      let idx = this.bySet.get(setKey(cand));
      if (idx === undefined) idx = at.find((i) => this.shapes[i] === shape);
      if (idx !== undefined) { this._changed(idx); return true; }
    }
    this._say(turned ? "zoo.no_turn_here" : "zoo.turn_same");
    return false;
  }

  /** F: mirror the preview left-right across the hovered cell's column, if that orientation is
   * legal there; otherwise say why not. Returns true when the preview changed. */
  mirrorAt() {
    if (!this.placements || !this.current || !this.hover) return false;
    const hc = this.hover;
    const base = this.current;
    const cand = base.map((c) => mirrorAbout(c, hc));
    const shape = shapeKey(cand);
    if (setKey(cand) === setKey(base) || shape === shapeKey(base)) { this._say("zoo.mirror_same"); return false; }
    let idx = this.bySet.get(setKey(cand));
    if (idx === undefined) idx = (this.byCell.get(key(hc)) || []).find((i) => this.shapes[i] === shape);
    if (idx !== undefined) { this._changed(idx); return true; }
    this._say(this.shapes.includes(shape) ? "zoo.no_mirror_here" : "zoo.no_mirror");
    return false;
  }

  /** Kept for older callers: R (step 1) and shift-R (step -1) turn the preview. */
  cycleAt(step = 1) { return this.rotateAt(step); }

  _changed(idx) {
    this._setCurrent(idx, null);
    this.touchArmed = setKey(this.current);
    if (this.hooks.onGhost) this.hooks.onGhost(idx, this.placements.length);
  }

  _say(msg) {
    this.note = msg;
    this._showNote();
    // it says what just did not happen; after a while it stops covering the map
    clearTimeout(this.noteTimer);
    this.noteTimer = setTimeout(() => { if (this.note === msg) { this.note = null; this._showNote(); } }, 6000);
  }

  _showNote() {
    if (!this.noteEl) return;
    const on = !!(this.note && this.placements);
    this.noteEl.hidden = !on;
    this.noteEl.dataset.note = on ? this.note : "";
    this.noteEl.textContent = on ? t(this.note) : "";
  }

  currentIndex() {
    if (!this.current || !this.placements) return -1;
    return this.placements.indexOf(this.current);
  }

  _paintModes() {
    if (!this.svg) return;
    const { legalLayer, built, labels } = this.layers;
    clear(legalLayer);
    this.svg.classList.toggle("placing", !!this.placements);
    this.svg.classList.toggle("choosing", !!this.targets);
    if (this.placements) {
      for (const k of this.byCell.keys()) {
        const [x, y] = k.split(",").map(Number);
        legalLayer.appendChild(s("polygon", { class: "legal-cell", points: pointsAttr(corners(x, y, R - 3)) }));
      }
    }
    for (const g of [...built.querySelectorAll(".building"), ...labels.querySelectorAll(".building-label")]) {
      const id = g.dataset.id;
      const tg = this.targets && [...this.targets.keys()].some((k) => String(k) === id);
      g.classList.toggle("target", !!tg);
    }
    this._drawGhost();
  }

  _drawGhost() {
    if (!this.svg) return;
    const { ghost } = this.layers;
    clear(ghost);
    if (this.placements && this.current) {
      for (const c of this.current) {
        ghost.appendChild(s("polygon", { class: "ghost-cell", points: pointsAttr(corners(c[0], c[1], R - 1.5)), dataset: { x: c[0], y: c[1] } }));
      }
      ghost.appendChild(s("path", { class: "ghost-outline", d: outlinePath(this.current) }));
      if (this.hover && this.current.some((c) => key(c) === key(this.hover))) {
        // the pivot of R and F
        const [hx, hy] = centre(this.hover[0], this.hover[1]);
        ghost.appendChild(s("circle", { class: "ghost-pivot", cx: hx, cy: hy, r: 4 }));
      }
    } else if (this.placements && this.hover) {
      ghost.appendChild(s("polygon", { class: "ghost-bad", points: pointsAttr(corners(this.hover[0], this.hover[1], R - 2)) }));
    }
  }

  _cellOf(e) {
    const tg = e.target;
    if (!tg || !tg.dataset || tg.dataset.x === undefined) return null;
    return [Number(tg.dataset.x), Number(tg.dataset.y)];
  }

  _over(e) {
    const c = this._cellOf(e);
    if (!c) return;
    if (this.placements) {
      if (e.pointerType === "touch") return;  // a touch previews on tap (see _click)
      if (this.hover && key(this.hover) === key(c) && this.current) return;
      const idx = this._pickAt(c);
      this.hover = c;
      this._setCurrent(idx, c);
      if (this.hooks.onGhost) this.hooks.onGhost(idx, (this.byCell.get(key(c)) || []).length);
    } else if (this.targets) {
      const b = this.buildingAt.get(key(c));
      this.svg.classList.toggle("over-target", !!(b && this._isTarget(b.id)));
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
      if (!at || !at.length) { this.hover = c; this.current = null; this._drawGhost(); return; }
      const inGhost = this.current && this.current.some((q) => key(q) === key(c));
      // touch: the first tap shows the preview, a tap inside the shown (or turned) preview places
      if (this.lastPointer === "touch" && (!inGhost || this.touchArmed !== setKey(this.current))) {
        if (!inGhost) this._setCurrent(this._pickAt(c), c);
        else this.hover = c;
        this._drawGhost();
        this.touchArmed = setKey(this.current);
        if (this.hooks.onGhost) this.hooks.onGhost(this.currentIndex(), at.length);
        return;
      }
      if (!inGhost) this._setCurrent(this._pickAt(c), c);
      if (this.current && this.hooks.onPlace) this.hooks.onPlace(this.current);
      return;
    }
    if (this.targets) {
      const b = this.buildingAt.get(key(c));
      if (b && this._isTarget(b.id) && this.hooks.onEnclosure) this.hooks.onEnclosure(b.id);
      return;
    }
    // no question about the map: a tap shows the details of a building or a bonus space
    const b = this.buildingAt.get(key(c));
    const next = b ? { building: b.id } : this.bonuses && this.bonuses.get(key(c)) ? { cell: c } : null;
    const same = next && this.detail && JSON.stringify(next) === JSON.stringify(this.detail);
    this.detail = same ? null : next;
    this._showDetail(c);
  }

  _sameDetail(player) {
    if (!this.detail || !this.detail.building) return this.detail;
    return (player.buildings || []).some((b) => b.id === this.detail.building) ? this.detail : null;
  }

  /** The details of a building (name, size, animals) or of a bonus space, over the map. */
  _showDetail(at) {
    const el = this.detailEl;
    if (!el) return;
    const d = this.placements || this.targets ? null : this.detail;
    if (!d) { el.hidden = true; clear(el); return; }
    const rows = [];
    let cell = d.cell;
    if (d.building !== undefined) {
      const b = (this.player.buildings || []).find((q) => q.id === d.building);
      if (!b) { el.hidden = true; return; }
      const spec = (this.ctx.buildings || {})[b.type] || (this.ctx.sponsorBuildings || {})[b.type] || {};
      const name = spec.name || tOr(`building.${b.type}`, cap(b.type));
      rows.push(h("strong", name), h("span", { class: "muted" }, t("zoo.detail_spaces", { count: b.cells.length })));
      const animals = (b.animals || []).map((cid) => {
        const card = this.ctx.byId && this.ctx.byId.get(cid);
        return h("li", card ? t("zoo.animal_chip", { name: card.name, size: card.size }) : cid);
      });
      if (animals.length) rows.push(h("ul", animals));
      else if ((b.kind || spec.kind) === "enclosure") rows.push(h("span", t("zoo.detail_empty")));
      cell = at || labelCell(b.cells);
    } else {
      const gain = this.bonuses.get(key(d.cell));
      rows.push(h("span", t("zoo.placement_bonus", { gain: gainText(gain) })));
    }
    clear(el).append(...rows, h("button", { class: "btn ghost small zoo-detail-close", type: "button", "aria-label": t("common.close"),
      onclick: (e) => { e.stopPropagation(); this.detail = null; this._showDetail(); } }, "×"));
    el.hidden = false;
    // next to the space, inside the map
    const ctm = this.svg.getScreenCTM();
    const box = this.host.getBoundingClientRect();
    if (ctm && cell) {
      const [cx, cy] = centre(cell[0], cell[1]);
      const px = ctm.a * cx + ctm.e - box.left;
      const py = ctm.d * cy + ctm.f - box.top;
      const wpx = el.offsetWidth || 200;
      el.style.left = `${Math.max(4, Math.min(box.width - wpx - 4, px - wpx / 2))}px`;
      el.style.top = `${Math.max(4, py + ctm.d * R * 0.9)}px`;
    }
  }
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
