// The zoo map's placement mode (mixed into ZooMapView): the legal placements of a building,
// a preview of one at the hovered or tapped cell which R turns and F mirrors among the legal
// orientations, browsing them from the decision bar, and keeping the preview in sight; and
// the enclosure choice's highlighting.
import { s, clear } from "../dom.js";
import { t } from "../i18n.js";
import { R, key, setKey, shapeKey, labelCell, rotateAbout, mirrorAbout, corners, pointsAttr, outlinePath, centre } from "./hexgrid.js";

export const placementMode = {
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
  },

  setTargets(targets) {
    this.targets = targets && targets.size ? targets : null;
    if (this.targets) this.detail = null;
    this._paintModes();
    this._showDetail();
  },

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
  },

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
  },

  _setCurrent(idx, hover) {
    this.current = idx === null || idx === undefined || idx < 0 ? null : this.placements[idx];
    if (hover) this.hover = hover;
    this.note = null;
    this._drawGhost();
    this._showNote();
  },

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
  },

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
  },

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
  },

  /** Kept for older callers: R (step 1) and shift-R (step -1) turn the preview. */
  cycleAt(step = 1) { return this.rotateAt(step); },

  _changed(idx) {
    this._setCurrent(idx, null);
    this.touchArmed = setKey(this.current);
    if (this.hooks.onGhost) this.hooks.onGhost(idx, this.placements.length);
  },

  _say(msg) {
    this.note = msg;
    this._showNote();
    // it says what just did not happen; after a while it stops covering the map
    clearTimeout(this.noteTimer);
    this.noteTimer = setTimeout(() => { if (this.note === msg) { this.note = null; this._showNote(); } }, 6000);
  },

  _showNote() {
    if (!this.noteEl) return;
    const on = !!(this.note && this.placements);
    this.noteEl.hidden = !on;
    this.noteEl.dataset.note = on ? this.note : "";
    this.noteEl.textContent = on ? t(this.note) : "";
  },

  currentIndex() {
    if (!this.current || !this.placements) return -1;
    return this.placements.indexOf(this.current);
  },

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
  },

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
  },

  _cellOf(e) {
    const tg = e.target;
    if (!tg || !tg.dataset || tg.dataset.x === undefined) return null;
    return [Number(tg.dataset.x), Number(tg.dataset.y)];
  },

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
  },

  _isTarget(id) {
    return this.targets && [...this.targets.keys()].some((k) => String(k) === String(id));
  },
};
