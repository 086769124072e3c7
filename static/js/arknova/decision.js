// The decision bar: what is asked now, in one sentence, and the legal answers as controls.
// The answers are exactly the dicts of GET /legal; grouping and labels are presentation only.
import { h, $$, cap, stableKey } from "../dom.js";
import { icon, iconLabel } from "../icons.js";
import { seatChip, seatName } from "../seats.js";
import { renderCard, gainIcons, actionName } from "./cards.js";
import { universityLabel } from "./words.js";
import { t, tOr } from "../i18n.js";
import { shapeIcon, shapeKey } from "./zoomap.js";
import { DecisionBar as TableBar } from "../decisionbar.js";

/** Turning and mirroring make sense only where the legal placements have more than one orientation (never for a kiosk). */
const turnable = (legal) => new Set(legal.filter((a) => a.type === "place").map((a) => shapeKey(a.cells))).size > 1;

const ACTION_NAMES = ["animals", "build", "cards", "association", "sponsors"];
// the verb on a card of a tray: bar.verb.<answer type>
const trayVerb = (type) => tOr(`bar.verb.${type}`, cap(type));
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

  // ---------------------------------------------------------------- render (decisionbar.js)
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
    return h("span", { class: "waiting-for" },
      others.length ? [`${mine ? t("bar.also_waiting_for") : t("bar.waiting_for")} `, others.map((q) => h("span", { class: "wf" }, seatChip(q, { small: true }), ` ${t("seat.aria", { n: q + 1 })}`))] : null,
      answered.length ? [` ${t("bar.answered")} `, answered.map((q) => h("span", { class: "wf done", title: t("bar.has_answered", { name: seatName(q) }) }, seatChip(q, { small: true }), " ✓"))] : null);
  }

  beforeControls(legal, mine) {
    const ui = this.ui;
    if (!mine || this.st.pending || !legal.some((a) => a.type === "place")) {
      if (ui.zoo.placements) ui.zoo.setPlacements(null);
    }
  }

  controls(legal, dec) {
    const rows = [];
    const types = [];
    const by = new Map();
    for (const a of legal) {
      if (!by.has(a.type)) { by.set(a.type, []); types.push(a.type); }
      by.get(a.type).push(a);
    }
    const handled = new Set();
    const take = (type) => { handled.add(type); return by.get(type) || []; };
    const ui = this.ui;

    if (this.sel.focus && this.sel.focus.length) {
      rows.push(this.row(t("bar.this_card"), ...this.sel.focus.map((a) => this.answer(this.label(a), a, { primary: true })),
        h("button", { class: "btn ghost", type: "button", onclick: () => { this.sel.focus = null; this.render(); } }, t("common.cancel"))));
    }

    // --- the main turn: action cards with X, or an X token
    if (by.has("action") || by.has("x_token")) {
      const acts = take("action");
      const xs = take("x_token");
      const me = ui.player(this.st.seat);
      const maxX = Math.max(0, ...acts.map((a) => a.x || 0));
      if (this.sel.x > maxX) this.sel.x = maxX;
      const slotOf = (card) => (me.slots || []).find((q) => q.card === card) || { strength: 0, side: 1 };
      const order = (me.slots || []).map((q) => q.card);
      const cards = [...new Set(acts.map((a) => a.card))].sort((a, b) => order.indexOf(a) - order.indexOf(b));
      const penalty = (ui.tables.interactions && ui.tables.interactions.constriction_penalty) || 0;
      const btns = cards.map((card) => {
        const sl = slotOf(card);
        const a = acts.find((q) => q.card === card && (q.x || 0) === this.sel.x) || acts.find((q) => q.card === card && !q.x);
        const strength = Math.max(0, sl.strength + (a ? a.x || 0 : 0) - (sl.constriction ? penalty : 0));
        return this.answer([icon(ACTION_ICON[card] || "card", { size: 20 }), " ", h("span", actionName(card)), sl.side === 2 ? h("sup", "II") : null,
          h("span", { class: "strength num", title: t("bar.strength") }, String(strength)),
          sl.venom ? icon("venom", { size: 14 }) : null, sl.constriction ? icon("constriction", { size: 14 }) : null], a, { primary: true, class: "use-card", title: t("bar.use_at_strength", { action: actionName(card), strength }) });
      });
      // the stepper's aria-labels are what tests and screen readers find it by (English: "more X tokens")
      const stepper = maxX > 0 ? h("span", { class: "stepper", role: "group", "aria-label": t("bar.x_to_spend") },
        icon("x", { size: 18 }),
        h("button", { class: "btn small x-less", type: "button", "aria-label": t("bar.fewer_x"), disabled: this.sel.x <= 0, onclick: () => { this.sel.x -= 1; this.render(); } }, "−"),
        h("output", { class: "num" }, `+${this.sel.x}`),
        h("button", { class: "btn small x-more", type: "button", "aria-label": t("bar.more_x"), disabled: this.sel.x >= maxX, onclick: () => { this.sel.x += 1; this.render(); } }, "+")) : null;
      if (btns.length) rows.push(this.row(h("span", { class: "wide-only" }, t("bar.use_action_card")), ...btns, stepper));
      if (xs.length) {
        rows.push(this.row(h("span", null, h("span", { class: "wide-only" }, t("bar.or_x_token")), h("span", { class: "narrow-only" }, t("bar.or_x_token_short"))),
          ...xs.sort((a, b) => order.indexOf(a.card) - order.indexOf(b.card))
            .map((a) => this.answer([icon(ACTION_ICON[a.card] || "card", { size: 18 }), h("span", { class: "xt-name" }, actionName(a.card))], a,
              { class: "small x-token", title: t("bar.x_token_title", { action: actionName(a.card) }) }))));
      }
    }

    // --- keep 4 of 8: toggles + confirm
    if (by.has("keep")) {
      const keeps = take("keep");
      const need = keeps[0].cards.length;
      const offer = (dec && dec.offer) || [...new Set(keeps.flatMap((a) => a.cards))];
      const chosen = this.sel.keep;
      const tray = h("div", { class: "tray", role: "group", "aria-label": t("bar.starting_cards") }, offer.map((cid) => {
        const on = chosen.has(cid);
        const b = h("button", {
          class: ["tray-card", on && "selected"], type: "button", "aria-pressed": String(on), dataset: { id: cid },
          onclick: () => { if (on) chosen.delete(cid); else if (chosen.size < need) chosen.add(cid); this.render(); },
        }, renderCard(ui.card(cid), { size: "mini", id: cid }));
        return b;
      }));
      const match = keeps.find((a) => a.cards.length === chosen.size && a.cards.every((c) => chosen.has(c)));
      rows.push(tray);
      rows.push(this.row(t("bar.chosen", { n: chosen.size, need }),
        match ? this.answer(t("bar.keep_these", { count: need }), match, { primary: true, class: "confirm" })
          : h("button", { class: "btn primary", type: "button", disabled: true }, t("bar.keep_n", { count: need }))));
    }

    // --- animals: card, then enclosure
    if (by.has("animal")) {
      const acts = take("animal");
      const keyOf = (a) => `${a.card}|${a.folder || 0}`;
      const groups = new Map();
      for (const a of acts) { if (!groups.has(keyOf(a))) groups.set(keyOf(a), []); groups.get(keyOf(a)).push(a); }
      if (this.sel.animal && !groups.has(this.sel.animal)) this.sel.animal = null;
      rows.push(h("div", { class: "tray", role: "group", "aria-label": t("bar.animals_you_can_play") }, [...groups.entries()].map(([k, list]) => {
        const a = list[0];
        const on = this.sel.animal === k;
        return h("button", {
          class: ["tray-card", on && "selected"], type: "button", "aria-pressed": String(on), dataset: { id: a.card, animal: k },
          onclick: () => this.selectAnimal(on ? null : k),
        }, renderCard(ui.card(a.card), { size: "mini", id: a.card }), a.folder ? h("span", { class: "tray-badge" }, t("bar.folder_plus", { folder: a.folder })) : null);
      })));
      if (this.sel.animal) {
        const list = groups.get(this.sel.animal);
        const me = ui.player(this.st.seat);
        rows.push(this.row(t("bar.where_lives", { card: ui.cardName(list[0].card) }), ...list.map((a) => {
          const b = (me.buildings || []).find((q) => q.id === a.enclosure);
          const label = a.enclosure === null || a.enclosure === undefined ? t("bar.no_own_enclosure")
            : b ? t("bar.enclosure_spaces", { building: ui.buildingName(b.type), count: b.cells.length }) : t("bar.enclosure_n", { n: a.enclosure });
          return this.answer(label, a, { primary: true, class: "enclosure" });
        }), h("button", { class: "btn ghost", type: "button", onclick: () => this.selectAnimal(null) }, t("common.cancel"))));
      } else {
        rows.push(this.row(null, h("span", { class: "hint" }, t("bar.pick_animal_hint"))));
      }
    }

    // --- build: which building
    if (by.has("building")) {
      const acts = take("building");
      const per = (ui.tables.build && ui.tables.build.cost_per_space) || 0;
      rows.push(this.row(t("bar.build"), ...acts.map((a) => {
        const b = ui.buildings[a.building] || ui.sponsorBuildings[a.building] || {};
        return this.answer([shapeIcon(b.shape, 26, b.kind === "enclosure" ? "#d9b77e" : b.kind === "special" ? "#a9d3c8" : b.kind === "kiosk" ? "#f3d9d3" : "#e2d3ef"),
          " ", b.name || cap(a.building), per && b.size ? h("span", { class: "cost num" }, icon("money", { size: 16, value: per * b.size })) : null], a, { primary: true, class: "building" });
      })));
    }

    // --- place: ghost on the map, browse, place
    if (by.has("place")) {
      const acts = take("place");
      const cellsList = acts.map((a) => a.cells);
      const zoo = ui.zoo;
      if (ui.viewSeat !== this.st.seat) { ui.viewSeat = this.st.seat; ui.renderZooTabs(); ui.renderZoo(); }
      if (this.shownZooFor !== this.st.version) { this.shownZooFor = this.st.version; ui.showPanel("panel-zoo"); }
      if (zoo.placements !== cellsList && stableKey(zoo.placements) !== stableKey(cellsList)) {
        zoo.setPlacements(cellsList);
        this.sel.placeIdx = 0;
        zoo.showPlacement(0);
      }
      const idx = Math.max(0, zoo.currentIndex());
      const current = acts[idx];
      const canTurn = turnable(acts);
      rows.push(this.row(t("bar.placement", { n: idx + 1, total: acts.length }),
        h("button", { class: "btn place-step", type: "button", onclick: () => { this.sel.placeIdx = zoo.showPlacement(idx - 1); this.render(); }, "aria-label": t("bar.prev_placement") }, "◀"),
        h("button", { class: "btn place-step", type: "button", onclick: () => { this.sel.placeIdx = zoo.showPlacement(idx + 1); this.render(); }, "aria-label": t("bar.next_placement") }, "▶"),
        canTurn ? h("button", { class: "btn turn-r", type: "button", title: "R", "aria-label": t("bar.turn"), onclick: () => { zoo.rotateAt(1); this.render(); } },
          h("span", { class: "wide-only" }, t("bar.turn_r")), h("span", { class: "narrow-only", "aria-hidden": "true" }, "↻")) : null,
        canTurn ? h("button", { class: "btn mirror-f", type: "button", title: "F", "aria-label": t("bar.mirror"), onclick: () => { zoo.mirrorAt(); this.render(); } },
          h("span", { class: "wide-only" }, t("bar.mirror_f")), h("span", { class: "narrow-only", "aria-hidden": "true" }, "⇋")) : null,
        current ? this.answer([h("span", { class: "wide-only" }, t("bar.place_here")), h("span", { class: "narrow-only" }, t("bar.place_short"))], current, { primary: true, class: "place-here" }) : null,
        h("span", { class: "hint" }, t("bar.or_hover"))));
      const label = rows[rows.length - 1].querySelector(".row-label");
      if (label) label.dataset.placement = "1";
    }

    // --- association: tasks, projects, donation
    if (by.has("task")) {
      const acts = take("task");
      const tIcon = { reputation: "reputation", partner: "partner", university: "university" };
      rows.push(this.row(t("bar.tasks"), ...acts.map((a) => {
        let label;
        if (a.task === "partner") label = [icon(a.continent, { size: 18 }), ` ${t("bar.partner_zoo", { continent: iconLabel(a.continent) })}`];
        else if (a.task === "university") label = [icon("university", { size: 18 }), ` ${universityLabel(a.university, ui.tables)}`];
        else if (a.task === "reputation") label = [icon("reputation", { size: 18 }), ` ${t("assoc.task.reputation")}`];
        else label = [icon(tIcon[a.task] || "partner", { size: 18 }), ` ${tOr(`assoc.task.${a.task}`, cap(a.task))}`];
        return this.answer(label, a, { primary: true });
      })));
    }
    if (by.has("support")) {
      const acts = take("support");
      const byProject = new Map();
      for (const a of acts) { if (!byProject.has(a.project)) byProject.set(a.project, []); byProject.get(a.project).push(a); }
      const projects = [...byProject.keys()];
      const focus = this.sel.project && byProject.has(this.sel.project) ? [this.sel.project] : projects;
      for (const pid of focus) {
        const c = ui.card(pid);
        rows.push(this.row(`${ui.cardName(pid)}:`, ...byProject.get(pid).map((a) => {
          const lvl = c && c.levels ? c.levels[a.level] : null;
          const bits = [t("bar.level_of", { n: a.level + 1, project: ui.cardName(pid) })];
          if (lvl) bits.push(`(${t("bar.level_needs", { need: c.kind === "release" ? t("filter.size_min", { n: lvl.need }) : lvl.need, cp: lvl.cp })})`);
          if (a.from === "hand") bits.push(t("bar.from_hand"));
          else if (typeof a.from === "number") bits.push(t("bar.from_folder_money", { folder: a.from }));
          if (a.release) bits.push(t("bar.release", { card: ui.cardName(a.release) }));
          return this.answer([icon("conservation", { size: 16 }), " ", bits.join(" ")], a, { primary: true, class: "support" });
        }), this.sel.project ? h("button", { class: "btn ghost", type: "button", onclick: () => { this.sel.project = null; this.render(); } }, t("bar.all_projects")) : null));
      }
    }
    if (by.has("donate")) {
      const a = take("donate")[0];
      const d = (ui.tables.association && ui.tables.association.donations) || [];
      const cost = ui.pub.donations < d.length ? d[ui.pub.donations] : ui.tables.association && ui.tables.association.donation_after;
      rows.push(this.row(null, this.answer([icon("conservation", { size: 16 }), ` ${cost ? t("bar.donate_cost", { cost }) : t("bar.donate")}`], a)));
    }

    // --- single cards (hand, offers): a tray of cards
    for (const type of types) {
      if (handled.has(type)) continue;
      const acts = by.get(type);
      const cardish = acts.every((a) => typeof a.card === "string" && ui.byId.has(a.card) && Object.keys(a).every((k) => ["type", "card", "folder"].includes(k)));
      if (!cardish) continue;
      handled.add(type);
      const verb = trayVerb(type);
      rows.push(h("div", { class: "tray", role: "group", "aria-label": t("bar.tray_aria", { verb }) }, acts.map((a) => h("button", {
        class: "tray-card answer", type: "button", disabled: this.st.pending, dataset: { answer: stableKey(a), type: a.type, id: a.card },
        title: `${verb}: ${ui.cardName(a.card)}`, onclick: () => this.send(a),
      }, renderCard(ui.card(a.card), { size: "mini", id: a.card }), h("span", { class: "tray-badge verb" }, `${verb}${a.folder ? ` · ${t("bar.folder", { n: a.folder })}` : ""}`)))));
    }

    // --- everything else: labelled buttons; finishing answers last
    const finishing = [];
    const other = [];
    for (const type of types) {
      if (handled.has(type)) continue;
      for (const a of by.get(type)) {
        if (["done", "back", "skip"].includes(a.type)) finishing.push(a);
        else other.push(a);
      }
    }
    const first = (a) => (a.type === "draw" && !a.folder) || (a.type === "pick" && a.from === "deck") ? 0 : 1;
    other.sort((a, b) => first(a) - first(b));
    if (other.length) rows.push(this.row(null, ...other.map((a) => this.answer(this.label(a), a, { primary: true }))));
    if (finishing.length) {
      rows.push(this.row(null, ...finishing.map((a) => this.answer(this.label(a), a, { secondary: true, class: `finish-${a.type}` }))));
    }
    return rows;
  }

  /** A readable label for any answer (the fallback for unknown ones shows its fields). */
  label(a) {
    const ui = this.ui;
    const name = (id) => ui.cardName(id);
    switch (a.type) {
      case "done": return t("answer.done");
      case "back": return [h("span", { class: "wide-only" }, t("answer.back")), h("span", { class: "narrow-only" }, t("answer.back_short"))];
      case "skip": return t("answer.skip");
      case "draw": return a.folder ? t("answer.draw_folder", { folder: a.folder, card: name(ui.pub.display[a.folder - 1]) }) : t("answer.draw_deck");
      case "snap": return t("answer.snap_folder", { folder: a.folder, card: name(ui.pub.display[a.folder - 1]) });
      case "pick": return a.from === "deck" ? t("answer.pick_deck") : t("answer.pick_folder", { folder: a.from, card: name(ui.pub.display[a.from - 1]) });
      case "dig": return a.folder ? t("answer.dig_folder", { folder: a.folder, card: name(ui.pub.display[a.folder - 1]) }) : t("answer.dig_hand", { card: name(a.card) });
      case "tile": { const c = ui.card(a.tile); return [c ? gainIcons(c.gain, { size: 16 }) : null, ` ${c ? c.name : a.tile}`]; }
      case "tile_money": {
        const dec = (ui.priv && ui.priv.decision) || {};
        const m = ui.tables.conservation && ui.tables.conservation.tile_money && ui.tables.conservation.tile_money[String(dec.space)];
        return [icon("money", { size: 16, value: m ?? "" }), ` ${m ? t("answer.tile_money", { money: m }) : t("answer.tile_money_any")}`];
      }
      case "bonus": return a.choice === "upgrade" ? [icon("upgrade", { size: 16 }), ` ${t("answer.bonus_upgrade")}`] : a.choice === "worker" ? [icon("worker", { size: 16 }), ` ${t("answer.bonus_worker")}`] : cap(a.choice);
      case "give": return a.what === "money" ? [icon("money", { size: 16, value: (ui.tables.interactions && ui.tables.interactions.pilfer_money) || "" }), ` ${t("answer.give_money")}`] : [icon("card", { size: 16 }), ` ${t("answer.give_card")}`];
      case "upgrade": return [icon("upgrade", { size: 16 }), ` ${t("answer.upgrade", { action: actionName(a.card) })}`];
      case "move_card": return t("answer.move_card", { action: actionName(a.card) });
      case "hypnotize": return t("answer.hypnotize", { action: actionName(a.card) });
      case "partner": return [icon(a.continent, { size: 16 }), ` ${t("bar.partner_zoo", { continent: iconLabel(a.continent) })}`];
      case "university": return [icon("university", { size: 16 }), ` ${universityLabel(a.university, ui.tables)}`];
      case "break_action": {
        const dec = (ui.priv && ui.priv.decision) || {};
        const f = ui.tables.sponsors && ui.tables.sponsors.break_money_factor && ui.tables.sponsors.break_money_factor[String(dec.side)];
        const n = dec.strength;
        return [icon("break", { size: 16 }), ` ${typeof n === "number" && f ? t("answer.break_action", { money: n * f, n }) : t("answer.break_action_any")}`];
      }
      case "discard": return t("answer.discard", { card: name(a.card) });
      default: {
        const bits = Object.entries(a).filter(([k]) => k !== "type").map(([k, v]) => {
          if (typeof v === "string" && ui.byId.has(v)) return name(v);
          if (typeof v === "string" && ACTION_NAMES.includes(v)) return actionName(v);
          return typeof v === "object" ? JSON.stringify(v) : `${k} ${v}`;
        });
        return `${cap(a.type)}${bits.length ? ": " + bits.join(", ") : ""}`;
      }
    }
  }

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

const ACTION_ICON = { animals: "herbivore", build: "size", cards: "card", association: "partner", sponsors: "science" };
