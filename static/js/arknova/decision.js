// The decision bar: what is asked now, in one sentence, and the legal answers as controls.
// The answers are exactly the dicts of GET /legal; grouping and labels are presentation only.
import { h, $$, cap, stableKey } from "../dom.js";
import { seatChip, seatName, seatTag } from "../seats.js";
import { t, tOr } from "../i18n.js";
import { TableBar } from "../tablebar.js";
import { answerLabel, controlsFor, turnable } from "./answers.js";

const SIMULTANEOUS = new Set(["keep", "hand_limit", "final_discard"]);

/** What the others are doing, by decision kind (doing.<kind>). */
function doing(kind) {
  return tOr(`doing.${kind}`, cap(kind || t("doing.deciding")).toLowerCase());
}

export class DecisionBar extends TableBar {
  constructor(ui) {
    // delegated clicks on cards and folders of the table
    super(ui, ["#player", "#board", "#zoo-info"]);
  }

  resetSel() {
    this.sel = { x: 0, animal: null, keep: new Set(), project: null, placeIdx: 0, focus: null };
  }

  beforeSend() {
    this.ui.zoo.setPlacements(null);
    this.ui.zoo.setTargets(null);
    // the player moves on: the break's note has been seen (the log keeps it)
    if (this.ui.breakNote) this.ui.breakNote.hide();
  }

  /** The one answer the player already gave: once the player drew the first card of a Cards
   * action, drawing on from the deck is the only thing left while it is the single legal answer
   * (no folder in reach), so the page draws the rest itself instead of asking for a click per
   * card. The first draw stays a click (until then the Cards action can be taken back); nothing
   * else is answered for the player. */
  forcedAnswer(legal, dec) {
    if (!dec || dec.kind !== "cards" || !dec.started || legal.length !== 1) return null;
    const a = legal[0];
    return a.type === "draw" && a.folder === undefined && Object.keys(a).length === 1 ? a : null;
  }

  render() {
    super.render();
    const st = this.st;
    const legal = this.legal;
    if (!legal.length || st.pending || this.autoFor === st.version) return;
    const dec = (this.ui.priv && this.ui.priv.decision) || this.ui.pub.decision;
    const forced = this.forcedAnswer(legal, dec);
    if (!forced) return;
    // answered in the same task as the answers arrived: the page never shows a click that
    // it then takes away
    this.autoFor = st.version;
    this.send(forced);
  }

  // ---------------------------------------------------------------- sentence
  sentence(dec, mine) {
    const ui = this.ui;
    if (!dec) return ui.pub.over ? t("bar.game_over") : t("bar.waiting");
    const k = dec.kind;
    if (!mine) return this.waitingSentence(dec, doing(k));
    switch (k) {
      case "turn": return [h("span", { class: "wide-only" }, t("ask.turn")), h("span", { class: "narrow-only" }, t("ask.turn_short"))];
      case "keep": return t("ask.keep", { keep: this.keepSize() || 4, count: (dec.offer || []).length || 8 });
      case "animals": return dec.left > 1 ? t("ask.animals_many", { count: dec.left }) : t("ask.animals_one");
      case "build": return t(dec.side === 2 ? "ask.build_side2" : "ask.build", { n: dec.left });
      case "place": {
        // R and F only where the building has more than one legal orientation
        // a phone speaks of taps (no R/F keys there)
        const building = ui.buildingName(dec.building);
        return [h("span", { class: "wide-only" }, t(turnable(this.legal) ? "ask.place" : "ask.place_fixed", { building })),
          h("span", { class: "narrow-only" }, t("ask.place_tap", { building }))];
      }
      case "cards": return dec.draw > 0
        ? t(dec.snap && !dec.started ? "ask.cards_draw_or_snap" : "ask.cards_draw", { count: dec.draw })
        : t("ask.cards_discard", { count: dec.discard });
      case "association": return t("ask.association", { n: dec.left });
      case "sponsors": return t("ask.sponsors", { n: dec.left });
      case "upgrade": return t("ask.upgrade");
      case "cp_choice": return t("ask.cp_choice");
      case "tile": return t("ask.tile", { space: dec.space });
      case "pick_card": return t("ask.pick_card");
      case "snap": return t(dec.anywhere ? "ask.snap_anywhere" : "ask.snap", { count: dec.left || 1 });
      case "final_discard": return t("ask.final_discard");
      case "choose_cards": return t("ask.choose_cards", { keep: dec.keep, count: (dec.offer || []).length || dec.count });
      case "digging": return t("ask.digging", { n: dec.left });
      case "hand_cards": return dec.mode === "sell"
        ? t("ask.hand_cards_sell", { each: dec.each, n: dec.left })
        : t("ask.hand_cards_tuck", { card: ui.cardName(dec.card), each: dec.each, n: dec.left });
      case "free_task": return dec.task === "partner" ? t("ask.free_partner") : t("ask.free_university");
      case "clever": return t("ask.clever");
      case "hypnosis": return t("ask.hypnosis", { name: seatName(dec.target) });
      case "grip": return t("ask.grip");
      case "mimic": return t("ask.mimic");
      case "pilfer": return t("ask.pilfer", { name: seatName(dec.actor) });
      case "hand_limit": return t("ask.hand_limit", { count: (dec.excess || {})[String(this.st.seat)] ?? 1 });
      case "relocate": return t("ask.relocate");
      default: return t("ask.default", { kind: cap(doing(k)) });
    }
  }

  keepSize() {
    const a = this.legal.find((x) => x.type === "keep");
    return a ? a.cards.length : 0;
  }

  // ---------------------------------------------------------------- render (tablebar.js)
  askHint(legal, mine) {
    const onlyFinish = mine && legal.every((a) => ["done", "back", "skip"].includes(a.type));
    return onlyFinish ? h("span", { class: "hint" }, ` ${t("bar.nothing_else")}`) : null;
  }

  waitingLine(dec, mine) {
    const st = this.st;
    const pub = this.ui.pub;
    const waiting = st.waitingFor || (pub.decision && pub.decision.waiting) || [];
    if (!(dec && (SIMULTANEOUS.has(dec.kind) || waiting.length > 1) && !pub.over)) return null;
    const others = waiting.filter((q) => !(mine && q === st.seat));
    const answered = dec.kind === "keep" ? pub.players.map((_, i) => i).filter((q) => !waiting.includes(q) && q !== st.seat) : [];
    // the others by their names beside their chips (a long name ends in "…", its tooltip whole);
    // who has answered: a chip and ✓ (the name in words for a screen reader, in the tooltip)
    return h("span", { class: "waiting-for" },
      others.length ? [`${mine ? t("bar.also_waiting_for") : t("bar.waiting_for")} `, others.map((q) => h("span", { class: "wf" }, seatTag(q, { small: true })))] : null,
      answered.length ? [` ${t("bar.answered")} `, answered.map((q) => h("span", { class: "wf done", title: t("bar.has_answered", { name: seatName(q) }) },
        seatChip(q, { small: true }), h("span", { class: "visually-hidden" }, ` ${seatName(q)}`), " ✓"))] : null);
  }

  beforeControls(legal, mine) {
    const ui = this.ui;
    if (!mine || this.st.pending || !legal.some((a) => a.type === "place")) {
      if (ui.zoo.placements) ui.zoo.setPlacements(null);
    }
  }

  controls(legal, dec) { return controlsFor(this, legal, dec); }

  /** A readable label for any answer (answers.js). */
  label(a) { return answerLabel(this, a); }

  // ---------------------------------------------------------------- selections
  selectAnimal(k) {
    this.sel.animal = k;
    const ui = this.ui;
    if (k && ui.viewSeat !== this.st.seat) { ui.viewSeat = this.st.seat; ui.renderZooTabs(); ui.renderZoo(); }
    if (k) ui.showPanel("panel-zoo");
    this.render();
  }

  chooseEnclosure(id) {
    if (!this.sel.animal) return;
    const [card, folder] = this.sel.animal.split("|");
    const a = this.legal.find((q) => q.type === "animal" && q.card === card && String(q.folder || 0) === folder && String(q.enclosure) === String(id));
    if (a) this.send(a);
  }

  placeCells(cells) {
    const k = stableKey(cells.map((c) => [c[0], c[1]]));
    const a = this.legal.find((q) => q.type === "place" && stableKey(q.cells.map((c) => [c[0], c[1]])) === k);
    if (a) this.send(a);
  }

  ghostMoved() {
    // keep the counter of the bar in step with the map
    const row = this.host.querySelector(".bar-row .row-label");
    const zoo = this.ui.zoo;
    if (row && zoo.placements && row.dataset.placement) {
      const idx = zoo.currentIndex();
      row.textContent = idx >= 0 ? t("bar.placement", { n: idx + 1, total: zoo.placements.length }) : t("bar.no_placement_there", { count: zoo.placements.length });
      const place = this.host.querySelector(".place-here");
      if (place && idx >= 0) {
        const a = this.legal.filter((q) => q.type === "place")[idx];
        if (a) {
          place.dataset.answer = stableKey(a);
          place.onclick = (e) => { e.stopImmediatePropagation(); this.send(a); };
        }
      }
    }
  }

  /** Cards, folders, slots and projects on the table that answer the decision. */
  applyHighlights() {
    const legal = this.legal;
    const ui = this.ui;
    const handIds = new Set();
    const folderSet = new Set();
    const projectIds = new Set();
    for (const a of legal) {
      if (a.type === "keep" || a.type === "choose_cards") continue;
      if (typeof a.card === "string" && a.folder === undefined && ui.byId.has(a.card)) handIds.add(a.card);
      if (typeof a.folder === "number") folderSet.add(a.folder);
      if (a.type === "pick" && typeof a.from === "number") folderSet.add(a.from);
      if (a.type === "support") {
        if (a.from === "hand") handIds.add(a.project);
        else if (typeof a.from === "number") folderSet.add(a.from);
        else projectIds.add(a.project);
      }
    }
    for (const el of $$("#hand .card")) {
      const on = handIds.has(el.dataset.id);
      el.classList.toggle("legal", on);
      el.classList.toggle("selected", !!this.sel.animal && this.sel.animal === `${el.dataset.id}|0`);
      el.tabIndex = on ? 0 : -1;
      if (on) el.setAttribute("role", "button"); else el.removeAttribute("role");
    }
    for (const el of $$("#board .folder")) {
      const f = Number(el.dataset.folder);
      const on = folderSet.has(f);
      el.classList.toggle("legal", on);
      el.tabIndex = on ? 0 : -1;
      if (on) el.setAttribute("role", "button"); else el.removeAttribute("role");
    }
    for (const el of $$("#board .projects .card")) {
      const on = projectIds.has(el.dataset.id);
      el.classList.toggle("legal", on);
      el.tabIndex = on ? 0 : -1;
    }
    const slotActs = legal.filter((a) => (a.type === "action" || a.type === "upgrade" || a.type === "move_card") && typeof a.card === "string");
    for (const el of $$("#player .slot")) {
      const on = ui.focusSeat() === this.st.seat && slotActs.some((a) => a.card === el.dataset.card);
      el.disabled = !on;
      el.classList.toggle("legal", on);
    }
    // the map: enclosures for the chosen animal
    if (this.sel.animal && ui.viewSeat === this.st.seat) {
      const [card, folder] = this.sel.animal.split("|");
      const targets = new Map();
      for (const a of legal) {
        if (a.type === "animal" && a.card === card && String(a.folder || 0) === folder && a.enclosure !== null && a.enclosure !== undefined) targets.set(a.enclosure, a);
      }
      ui.zoo.setTargets(targets);
    } else {
      ui.zoo.setTargets(null);
    }
  }

  onTableClick(e) {
    const legal = this.legal;
    if (!legal.length) return;
    const slot = e.target.closest && e.target.closest(".slot");
    if (slot && !slot.disabled) {
      const card = slot.dataset.card;
      const a = legal.find((q) => q.type === "action" && q.card === card && (q.x || 0) === this.sel.x)
        || legal.find((q) => q.type === "action" && q.card === card && !q.x)
        || legal.find((q) => (q.type === "upgrade" || q.type === "move_card") && q.card === card);
      if (a) this.send(a);
      return;
    }
    const folderEl = e.target.closest && e.target.closest(".folder.legal");
    if (folderEl) {
      const f = Number(folderEl.dataset.folder);
      const acts = legal.filter((q) => q.folder === f || (q.type === "pick" && q.from === f) || (q.type === "support" && q.from === f));
      this.resolveClick(acts, f);
      return;
    }
    const cardEl = e.target.closest && e.target.closest(".card.legal");
    if (cardEl) {
      const id = cardEl.dataset.id;
      const inHand = !!cardEl.closest("#hand");
      const acts = legal.filter((q) => (q.card === id && q.folder === undefined && q.type !== "keep")
        || (q.type === "support" && q.project === id && (inHand ? q.from === "hand" : q.from === undefined)));
      this.resolveClick(acts, 0);
    }
  }

  resolveClick(acts, folder) {
    if (!acts.length) return;
    const animal = acts.find((a) => a.type === "animal");
    if (animal) { this.selectAnimal(`${animal.card}|${folder || 0}`); return; }
    const support = acts.find((a) => a.type === "support");
    if (support) { this.sel.project = support.project; this.render(); return; }
    if (acts.length === 1) { this.send(acts[0]); return; }
    this.sel.focus = acts;
    this.render();
  }

  onKey(e) {
    const zoo = this.ui.zoo;
    if (zoo.placements) {
      if (e.key === "r" || e.key === "R") { zoo.rotateAt(e.shiftKey ? -1 : 1); this.ghostMoved(); return true; }
      if (e.key === "f" || e.key === "F") { zoo.mirrorAt(); this.ghostMoved(); return true; }
    }
    if (e.key === "Escape") {
      const back = this.legal.find((a) => a.type === "back");
      if (zoo.placements && back) { this.send(back); return true; }
      if (this.sel.animal || this.sel.focus || this.sel.project) { this.sel.animal = null; this.sel.focus = null; this.sel.project = null; this.render(); return true; }
      if (document.body.classList.contains("log-open")) { document.body.classList.remove("log-open"); return true; }
    }
    return false;
  }
}
