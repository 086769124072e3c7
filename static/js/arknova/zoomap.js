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
import { R, HX, HY, PAD, key, setKey, centre, corners, pointsAttr, outlinePath, labelCell } from "./hexgrid.js";
import { textWidth, fitText, abbreviate, layoutLabels } from "./maplabels.js";
import { placementMode } from "./zooplace.js";

export { key, centre, rotateAbout, mirrorAbout, normalize, shapeKey, shapeIcon } from "./hexgrid.js";
export { textWidth, fitText } from "./maplabels.js";

const MIN_PX = 14;                  // the smallest text on screen, in CSS px

const BONUS_ICON = { money: "money", cards: "card", x: "x", reputation: "reputation", upgrade: "upgrade", worker: "worker", appeal: "appeal" };

const KIND_FILL = {
  enclosure: "#d9b77e", kiosk: "#f3d9d3", pavilion: "#e2d3ef", special: "#a9d3c8", sponsor: "#bcd3ee",
};

// the base sizes of the map's texts (user units; menagerie.css uses the same numbers)
const FONT = { bonus: 11, size: 17, name: 10, chip: 10 };

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
    // the markers labels keep off: water, rock, free bonus spaces, kiosk and pavilion icons
    const obstacles = [];
    const covered = new Set((player.buildings || []).flatMap((b) => (b.cells || []).map(key)));

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
      if (kind !== "land") obstacles.push({ x: cx, y: cy, hh: 9, hw: 14 });
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
          if (!covered.has(k) && name !== "money") {
            const right = cx + off + textWidth(String(gv), fsBonus, 800) / 2 + 2;
            const bottom = cy + 11 + 0.7 * fsBonus;
            obstacles.push({ x: (cx - 10 + right) / 2, y: (cy - 10 + bottom) / 2, hw: (right - cx + 10) / 2, hh: (bottom - cy + 10) / 2 });
          }
        }
        if (!covered.has(k)) obstacles.push({ x: cx, y: cy, hh: 10, hw: 10 });
        g.appendChild(bonus);
      }
      terrain.appendChild(g);
      const hit = s("polygon", { class: "hit", points: pointsAttr(corners(c[0], c[1], R)), dataset: { x: c[0], y: c[1] } });
      hits.appendChild(hit);
    }

    // buildings
    this.buildingAt = new Map();
    const want = [];   // the labels to lay out: {x, y, hh, hw, min, id, lg, draw(hw)}
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
      const animals = b.animals || [];
      const named = kind !== "enclosure" && kind !== "kiosk" && kind !== "pavilion";
      if (kind === "kiosk" || kind === "pavilion") {
        g.appendChild(useIcon(kind, lx - 13, ly - 13, 26));
        obstacles.push({ x: lx, y: ly, hh: 13, hw: 13, id: b.id });
      } else if (kind === "enclosure" && !occupied) {
        const fs = this.fs(FONT.size);
        const hw = textWidth(String(bc.length), fs, 800) / 2;
        want.push({ x: lx, y: ly, hh: 0.62 * fs, hw, min: hw, id: b.id, lg,
          draw: () => s("text", { class: "b-size", x: lx, y: ly, dy: "0.35em", "text-anchor": "middle" }, String(bc.length)) });
      }
      // the animals as card chips on the spaces nearest the label cell; a named building's name
      // keeps the label cell while a space is left (a full one says its name on hover and tap)
      const hgtChip = this._chipHeight();
      const dist = (p) => (centre(p[0], p[1])[0] - lx) ** 2 + (centre(p[0], p[1])[1] - ly) ** 2;
      const showName = named && animals.length < bc.length;
      const spots = bc.slice().sort((p, q) => dist(p) - dist(q)).slice(showName && animals.length ? 1 : 0);
      animals.forEach((cid, i) => {
        const cell = spots[i % spots.length];
        const [ax, ay] = centre(cell[0], cell[1]);
        const card = ctx.byId && ctx.byId.get(cid);
        const name = card ? card.name : String(cid);
        const fs = this.fs(FONT.chip);
        want.push({ x: ax, y: ay, hh: hgtChip / 2, hw: Math.min(HX - 2, (textWidth(name, fs) + 13) / 2),
          min: (textWidth(`${name.slice(-1)}…`, fs) + 14) / 2, shift: R / 2, id: b.id, lg, draw: (hw, x) => this._chip(cid, card, x, ay, 2 * hw) });
      });
      if (showName) {
        // the name, as wide as its neighbours allow: in two lines where the building is too
        // narrow and two lines stay clear of the neighbouring columns' labels, else in one
        const xs = bc.map((c) => c[0]);
        const room = Math.max(2 * HX - 4, Math.min(130, (Math.max(...xs) - Math.min(...xs)) * HX + 2 * R - 6));
        const words = String(bname).split(/\s+/);
        const lh = fsName * 1.1;
        const two = words.length > 1 && textWidth(bname, fsName) > room && lh / 2 + 0.62 * fsName + hgtChip / 2 + 2 < HY;
        const lines = two ? [words.slice(0, Math.ceil(words.length / 2)).join(" "), words.slice(Math.ceil(words.length / 2)).join(" ")] : [String(bname)];
        const hh = ((lines.length - 1) * lh) / 2 + 0.62 * fsName;
        const ny = ly;
        const full = Math.max(...lines.map((ln) => textWidth(ln, fsName)));
        want.push({ x: lx, y: ny, hh, hw: Math.min(room, full) / 2, min: textWidth(`${lines[0][0]}…`, fsName) / 2 + 1, shift: R, id: b.id, lg,
          draw: (hw, x) => {
            const tx = s("text", { class: "b-name", x, y: ny - ((lines.length - 1) * lh) / 2, "text-anchor": "middle" });
            lines.forEach((ln, j) => tx.appendChild(s("tspan", { x, dy: j === 0 ? "0.35em" : "1.1em" }, fitText(ln, 2 * hw, fsName))));
            return tx;
          } });
      }
      built.appendChild(g);
      labels.appendChild(lg);
    }
    // every label as wide as it may be without touching another label or a marker, then drawn
    layoutLabels(want, obstacles, w);
    for (const lb of want) lb.lg.appendChild(lb.draw(lb.hw, lb.x));
    for (const lg of [...labels.children]) if (!lg.childNodes.length) lg.remove();

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

  // low enough that chips of neighbouring columns (half a hex apart in height) never share a
  // line, so each may be as wide as its row allows
  _chipHeight() { return Math.max(20, Math.ceil(this.fs(FONT.chip) * 1.28)); }

  /** An animal's card chip centred at (x, y), at most `room` wide: the name shortened the way
   * a player reads it; the whole name is the chip's title and in the card zoom. */
  _chip(cid, card, x, y, room) {
    const fs = this.fs(FONT.chip);
    const name = card ? card.name : cid;
    const hgt = this._chipHeight();
    const text = abbreviate(name, room - 13, fs);
    const w = Math.min(room, Math.max(40, textWidth(text, fs) + 13));
    const g = s("g", { class: "animal-chip", dataset: { card: cid }, transform: `translate(${(x - w / 2).toFixed(1)} ${(y - hgt / 2).toFixed(1)})` });
    g.appendChild(s("title", card ? t("zoo.animal_chip", { name: card.name, size: card.size }) : cid));
    g.appendChild(s("rect", { width: w.toFixed(1), height: hgt, rx: 3, class: "chip-card" }));
    g.appendChild(s("rect", { width: 5, height: hgt, rx: 2, class: "chip-band" }));
    g.appendChild(s("text", { x: 8, y: hgt / 2, dy: "0.35em", class: "chip-text" }, text));
    return g;
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

export function seatStroke(seat) { return seatColour(seat).fill; }

Object.assign(ZooMapView.prototype, placementMode);
