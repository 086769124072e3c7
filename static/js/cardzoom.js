// The whole card, anywhere at the table (issue #30): hovering a card (mouse), tapping it or
// pressing it long (touch), or focusing it (keyboard) shows the card enlarged as the gallery draws
// it, every effect in words, its icons and keywords explained. Escape, a tap elsewhere or moving
// the mouse away closes it.
//
// A card is any element with `data-id` and the class `card` (hand, display, a zoo's sponsors and
// animals, projects, bonus tiles, final scoring, the decision bar's trays), a zoo map's animal chip
// (`.animal-chip[data-card]`) or a card named in the log (`[data-card-ref]`). A card inside a
// button (the trays of the decision bar) answers a tap; there a long press shows it instead.
import { h, clear } from "./dom.js";
import { t, tOr } from "./i18n.js";
import { iconLabel } from "./icons.js";
import { renderCard, abilityName, abilityText, requirementText, TYPE_LABEL } from "./arknova/cards.js";

const SOURCE = ".card[data-id], .animal-chip[data-card], [data-card-ref]";
const LONG_PRESS_MS = 450;
const HOVER_MS = 120;

/** The animal chip of a zoo map under a point: the map's hit layer lies over the chips. */
function chipAt(target, x, y) {
  const svg = target.closest("svg");
  if (!svg || svg.matches(".placing, .choosing")) return null;
  for (const chip of svg.querySelectorAll(".animal-chip[data-card]")) {
    const r = chip.getBoundingClientRect();
    if (x >= r.left && x <= r.right && y >= r.top && y <= r.bottom) return chip;
  }
  return null;
}

/** The card an event is on (a tray's button holds its card: the card takes no pointer). */
function sourceOf(target, e = null) {
  if (!target || !target.closest) return null;
  const src = target.closest(SOURCE);
  if (src) return src;
  if (e && target.closest(".hits")) return chipAt(target, e.clientX, e.clientY);
  const tray = target.closest(".tray-card");
  return tray ? tray.querySelector(".card[data-id]") : null;
}

/** The card id a source element names. */
function idOf(el) {
  return el.dataset.cardRef || el.dataset.card || el.dataset.id || null;
}

/** Words for the card's icons, requirements and keywords: the glossary under the enlarged card. */
export function glossary(c) {
  const rows = [];
  const row = (term, ...what) => rows.push(h("dt", term), h("dd", ...what));
  row(t("zoom.type"), TYPE_LABEL[c.type === "project" && c.base ? "base" : c.type] || c.type);
  if (c.type === "animal") row(t("zoom.size_cost"), t("card.title_animal", { size: c.size, cost: c.cost }));
  const icons = c.type === "animal" ? (c.icons || [c.continent, ...(c.classes || [])].filter(Boolean)) : (c.icons || []);
  if (icons.length) row(t("zoom.icons"), icons.map((i) => iconLabel(i)).join(", "));
  const req = requirementText(c.requires);
  if (req) row(t("zoom.needs"), req);
  const kws = [...(c.abilities || []), ...(c.effects || [])];
  const seen = new Set();
  for (const ab of kws) {
    if (seen.has(ab.keyword)) continue;
    seen.add(ab.keyword);
    row(abilityName(ab.keyword), abilityText(ab, ""));
  }
  for (const ab of c.solo || []) row(`${abilityName(ab.keyword)} · ${t("zoom.solo_only")}`, abilityText(ab, ""));
  if (c.appeal || c.conservation || c.reputation) {
    const v = [];
    if (c.appeal) v.push(t("card.plus_appeal", { n: c.appeal }));
    if (c.conservation) v.push(t("card.plus_conservation", { n: c.conservation }));
    if (c.reputation) v.push(t("card.plus_reputation", { n: c.reputation }));
    row(t("zoom.when_played"), v.join(", "));
  }
  return h("dl", { class: "zoom-glossary" }, rows);
}

export class CardZoom {
  /** byId: () => Map of the catalog's cards (the page's state fills it when the catalog loads). */
  constructor(byId) {
    this.byId = byId;
    this.source = null;
    this.timer = null;
    this.pressed = null;
    this.swallowClick = false;
    this.keyboard = false;
    this.touchedAt = null;
    this.el = h("div", { id: "card-zoom", class: "card-zoom", role: "dialog", "aria-modal": "false", hidden: true, tabindex: "-1" });
    document.body.appendChild(this.el);
    this.listen();
  }

  card(id) { const m = this.byId(); return m && m.get(id); }

  /** A real mouse's event. Chromium sends a mouse "pointerover" where the layout moves under
   * the last pointer position (after a scroll, a re-render) also on a touch screen: on a
   * device whose main pointer cannot hover, or within 2 s of a touch, such events would open
   * a hover card nobody pointed at (a tap's card replaced by another one moments later). */
  mouseEvent(e) {
    if (e.pointerType !== "mouse") return false;
    if (this.touchedAt !== null && e.timeStamp - this.touchedAt < 2000) return false;
    return !window.matchMedia || window.matchMedia("(hover: hover)").matches;
  }

  listen() {
    const doc = document;
    doc.addEventListener("pointerover", (e) => {
      if (!this.mouseEvent(e)) return;
      const src = sourceOf(e.target, e);
      if (!src || this.el.contains(src)) return;
      if (src === this.source && !this.el.hidden) return;
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.show(src, { hover: true }), HOVER_MS);
    });
    // over a zoo map the pointer moves on its hit layer: a chip under it is found by position
    doc.addEventListener("pointermove", (e) => {
      if (!this.mouseEvent(e) || !e.target.closest || !e.target.closest(".hits")) return;
      const chip = chipAt(e.target, e.clientX, e.clientY);
      if (chip === this.source && !this.el.hidden) return;
      clearTimeout(this.timer);
      if (chip) this.timer = setTimeout(() => this.show(chip, { hover: true }), HOVER_MS);
      else if (this.hover && this.source && this.source.matches(".animal-chip")) this.hide();
    }, { passive: true });
    doc.addEventListener("pointerout", (e) => {
      if (!this.mouseEvent(e)) return;
      const to = e.relatedTarget;
      const chipShown = this.hover && this.source && this.source.matches(".animal-chip");
      if (chipShown && e.target.closest && e.target.closest(".hits") && !(to && to.closest && to.closest(".hits"))) { this.hide(); return; }
      const src = sourceOf(e.target, e);
      if (!src) return;
      const host = src.closest(".tray-card") || src;
      if (to && (host.contains(to) || this.el.contains(to))) return;
      if (to && to.closest && src.matches(".animal-chip") && to.closest(".hits")) return; // pointermove decides
      clearTimeout(this.timer);
      if (this.hover) this.hide();
    });
    doc.addEventListener("pointerdown", (e) => {
      if (e.pointerType === "mouse") return;
      this.touchedAt = e.timeStamp;
      clearTimeout(this.timer); // a hover that was about to show a card: the finger decides
      const src = sourceOf(e.target, e);
      clearTimeout(this.pressed);
      if (!src || this.el.contains(src)) return;
      // a long press shows the card, also where a tap answers (a card inside a button)
      this.pressed = setTimeout(() => { this.show(src, { touch: true }); this.swallowClick = true; }, LONG_PRESS_MS);
    }, { passive: true });
    const cancel = () => clearTimeout(this.pressed);
    doc.addEventListener("pointerup", cancel, { passive: true });
    doc.addEventListener("pointercancel", cancel, { passive: true });
    doc.addEventListener("contextmenu", (e) => {
      if (sourceOf(e.target, e) && !this.el.hidden) e.preventDefault();
    });
    // a tap: on a card that does not answer, show it; anywhere else (or on the open card), close
    doc.addEventListener("click", (e) => {
      if (this.swallowClick) {
        this.swallowClick = false;
        e.preventDefault();
        e.stopPropagation();
        return;
      }
      if (this.el.contains(e.target)) { if (e.target.closest(".zoom-close") || !this.hover) this.hide(); return; }
      const src = sourceOf(e.target, e);
      const answers = src && src.closest("button, a, .legal, [role=button]");
      if (!src || answers) { if (!this.el.hidden) this.hide(); return; }
      const mouse = e.pointerType === "mouse";
      if (src === this.source && !this.el.hidden) { if (!mouse) this.hide(); return; }
      this.show(src, { hover: mouse });
    }, true);
    // focus shows a card only when the keyboard moved it: Chromium can call the focus a tap
    // gives a card ":focus-visible" (seen with emulated touch under load), and that focus
    // opened the card as if hovered, so the tap's click then closed it again
    doc.addEventListener("pointerdown", () => { this.keyboard = false; }, { capture: true, passive: true });
    doc.addEventListener("keydown", (e) => {
      if (e.key === "Tab" || e.key.startsWith("Arrow")) this.keyboard = true;
      if (e.key === "Escape" && !this.el.hidden) {
        e.stopPropagation();
        this.hide();
      }
    }, true);
    doc.addEventListener("focusin", (e) => {
      const src = sourceOf(e.target, e);
      if (src && e.target === src && this.keyboard && src.matches(":focus-visible")) this.show(src, { hover: true });
    });
    // a scroll (a smooth one may still run when the pointer arrives) moves the card with its source
    window.addEventListener("scroll", () => {
      if (!this.hover || this.el.hidden) return;
      if (this.source && this.source.isConnected) this.place(this.source); else this.hide();
    }, { passive: true, capture: true });
  }

  show(src, { hover = false } = {}) {
    const id = idOf(src);
    const c = id && this.card(id);
    if (!c) return;
    this.source = src;
    this.hover = hover;
    const close = h("button", { class: "btn ghost small zoom-close", type: "button", "aria-label": t("zoom.close"), onclick: () => this.hide() }, "×");
    const full = renderCard(c, { size: "full", class: "zoom-card" });
    clear(this.el).append(close, full, glossary(c));
    this.el.dataset.id = id;
    this.el.setAttribute("aria-label", tOr("zoom.aria", c.name, { name: c.name }));
    this.el.classList.toggle("modal", !hover);
    this.el.hidden = false;
    this.place(src);
  }

  /** Beside the card it shows (mouse); centred (touch), inside the window either way. */
  place(src) {
    const el = this.el;
    el.style.left = ""; el.style.top = "";
    if (!this.hover) return;
    const r = src.getBoundingClientRect();
    const w = el.offsetWidth; const hgt = el.offsetHeight;
    const vw = window.innerWidth; const vh = window.innerHeight;
    let left = r.right + 10;
    if (left + w > vw - 6) left = r.left - w - 10;
    if (left < 6) left = Math.max(6, Math.min(vw - w - 6, r.left + r.width / 2 - w / 2));
    let top = Math.min(Math.max(6, r.top + r.height / 2 - hgt / 2), vh - hgt - 6);
    if (left + w > r.left && left < r.right && top < r.bottom && top + hgt > r.top) {
      // no room beside it: above or below the card
      top = r.top - hgt - 10 >= 6 ? r.top - hgt - 10 : Math.min(vh - hgt - 6, r.bottom + 10);
    }
    el.style.left = `${Math.round(left)}px`;
    el.style.top = `${Math.round(Math.max(6, top))}px`;
  }

  hide() {
    clearTimeout(this.timer);
    this.el.hidden = true;
    this.source = null;
    this.hover = false;
  }
}

let installed = null;

/** One zoom per page, over the page state's catalog. */
export function installCardZoom(st) {
  if (!installed) installed = new CardZoom(() => st.byId);
  return installed;
}
