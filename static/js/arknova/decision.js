// The decision bar: what is asked now, in one sentence, and the legal answers as controls.
// The answers are exactly the dicts of GET /legal; grouping and labels are presentation only.
import { h, clear, $, $$, cap, stableKey } from "../dom.js";
import { icon, iconLabel } from "../icons.js";
import { seatChip, seatName } from "../seats.js";
import { renderCard, gainIcons } from "./cards.js";
import { shapeIcon } from "./zoomap.js";

const ACTION_NAMES = ["animals", "build", "cards", "association", "sponsors"];
const CARD_TRAY_VERB = {
  discard: "Discard", sell: "Sell", pouch: "Tuck", keep_card: "Keep", dig: "Replace", discard_final: "Discard",
  relocate: "Move in", sponsor: "Play",
};
const FOLDER_VERB = { snap: "Take", draw: "Draw", pick: "Take", dig: "Replace" };
const SIMULTANEOUS = new Set(["keep", "hand_limit", "final_discard"]);

// the focus follows new questions only for people who use the keyboard
let keyboardUser = false;
document.addEventListener("keydown", (e) => { if (e.key === "Tab" || e.key === "Enter" || e.key === " ") keyboardUser = true; }, true);
document.addEventListener("pointerdown", () => { keyboardUser = false; }, true);

function doing(kind) {
  return {
    turn: "choosing an action", keep: "keeping starting cards", animals: "playing animals", build: "building",
    place: "placing a building", cards: "taking cards", association: "doing association tasks", sponsors: "playing sponsors",
    upgrade: "upgrading an action card", cp_choice: "choosing a conservation bonus", tile: "choosing a bonus tile",
    pick_card: "taking a card", snap: "taking display cards", final_discard: "discarding a final-scoring card",
    choose_cards: "choosing cards", digging: "digging", hand_cards: "using hand cards", free_task: "taking a free task",
    clever: "moving an action card", hypnosis: "using a hypnotised action", pilfer: "answering a pilfering",
    hand_limit: "discarding down to the hand limit", relocate: "moving animals",
  }[kind] || cap(kind || "deciding").toLowerCase();
}

export class DecisionBar {
  constructor(ui) {
    this.ui = ui;
    this.st = ui.st;
    this.host = $("#decision");
    this.selVersion = null;
    this.sel = null;
    this.resetSel();
    // delegated clicks on cards and folders of the table
    for (const host of [$("#player"), $("#board"), $("#zoo-info")]) {
      if (!host) continue;
      host.addEventListener("click", (e) => this.onTableClick(e));
      host.addEventListener("keydown", (e) => {
        if ((e.key === "Enter" || e.key === " ") && e.target.classList && e.target.classList.contains("legal")) {
          e.preventDefault();
          this.onTableClick(e);
        }
      });
    }
    const ro = new ResizeObserver(() => {
      document.documentElement.style.setProperty("--bar-h", `${this.host.offsetHeight}px`);
    });
    ro.observe(this.host);
  }

  resetSel() {
    this.sel = { x: 0, animal: null, keep: new Set(), project: null, placeIdx: 0, focus: null };
  }

  get legal() {
    return this.st.legalVersion === this.st.version ? this.st.legal : [];
  }

  send(action) {
    if (this.st.pending) return;
    this.ui.zoo.setPlacements(null);
    this.ui.zoo.setTargets(null);
    this.ui.send(action);
  }

  // ---------------------------------------------------------------- sentence
  sentence(dec, mine) {
    const ui = this.ui;
    if (!dec) return ui.pub.over ? "The game is over." : "Waiting…";
    const k = dec.kind;
    if (!mine) {
      const all = this.st.waitingFor || dec.waiting || [];
      if (this.st.seat !== null && all.includes(this.st.seat) && !ui.pub.over) {
        return this.st.pending ? "Your answer is on its way…" : "Your move — getting your options…";
      }
      const waiting = all.filter((q) => q !== this.st.seat);
      if (!waiting.length) return `Waiting: ${doing(k)}.`;
      if (waiting.length === 1) return `Waiting for ${seatName(waiting[0])}: ${doing(k)}.`;
      return `Waiting for ${waiting.length} players: ${doing(k)}.`;
    }
    const n = (x, one, many) => `${x} ${x === 1 ? one : many || one + "s"}`;
    switch (k) {
      case "turn": return [h("span", { class: "wide-only" }, "Your turn: choose an action card, or move one to slot 1 and take an X token."), h("span", { class: "narrow-only" }, "Your turn: pick an action card.")];
      case "keep": return `Keep ${this.keepSize() || 4} of your ${(dec.offer || []).length || 8} starting cards.`;
      case "animals": return `Animals: play ${dec.left > 1 ? `up to ${dec.left} animals` : "an animal"} — pick a card, then its enclosure — or finish.`;
      case "build": return `Build: choose a building (size up to ${dec.left})${dec.side === 2 ? "; several different ones allowed" : ""}.`;
      case "place": return `Place the ${ui.buildingName(dec.building)}: hover a green space, R turns it, click places.`;
      case "cards": return dec.draw > 0
        ? `Cards: take ${n(dec.draw, "more card")}${dec.snap && !dec.started ? ", or snap one display card instead" : ""}.`
        : `Cards: discard ${n(dec.discard, "card")}.`;
      case "association": return `Association: choose a task (value up to ${dec.left}) or finish.`;
      case "sponsors": return `Sponsors: play sponsors (levels up to ${dec.left}) or take the break action.`;
      case "upgrade": return "Choose an action card to upgrade to side II.";
      case "cp_choice": return "Conservation bonus: take an action upgrade or an extra worker.";
      case "tile": return `Conservation ${dec.space}: take a bonus tile, or the money instead.`;
      case "pick_card": return "Take one card: from the deck, or from the display within your reach.";
      case "snap": return `Take ${n(dec.left || 1, "display card")}${dec.anywhere ? " from any folder" : ""}.`;
      case "final_discard": return "Discard one of your two final-scoring cards.";
      case "choose_cards": return `Keep ${dec.keep} of the ${(dec.offer || []).length || dec.count} cards shown.`;
      case "digging": return `Replace a display card or a hand card (${dec.left} left), or finish.`;
      case "hand_cards": return dec.mode === "sell"
        ? `Sell hand cards for ${dec.each} money each (${dec.left} left), or finish.`
        : `Tuck hand cards under ${ui.cardName(dec.card)} for ${dec.each} appeal each (${dec.left} left), or finish.`;
      case "free_task": return `Take a free ${dec.task === "partner" ? "partner zoo" : "university"}.`;
      case "clever": return "Move one of your action cards to slot 1.";
      case "hypnosis": return `Hypnosis: use one action card of ${seatName(dec.target)} at its strength.`;
      case "pilfer": return `${seatName(dec.actor)} is pilfering you: give 5 money or a random hand card.`;
      case "hand_limit": return `Break: discard down to your hand limit (${(dec.excess || {})[String(this.st.seat)] ?? 1} more).`;
      case "relocate": return "Move animals into the new special enclosure, or finish.";
      default: return `${cap(k)}: choose an answer.`;
    }
  }

  keepSize() {
    const a = this.legal.find((x) => x.type === "keep");
    return a ? a.cards.length : 0;
  }

  // ---------------------------------------------------------------- render
  render() {
    const st = this.st;
    const ui = this.ui;
    let fresh = false;
    if (this.selVersion !== st.version) {
      this.resetSel();
      this.selVersion = st.version;
      this.host.classList.remove("collapsed");
    }
    if (this.focusedFor !== st.version && this.legal.length) {
      this.focusedFor = st.version;
      fresh = true;
    }
    const legal = this.legal;
    const mine = legal.length > 0;
    const pub = ui.pub;
    const dec = mine ? ((ui.priv && ui.priv.decision) || pub.decision) : pub.decision;
    const line = h("div", { class: "bar-line" });
    const onlyFinish = mine && legal.every((a) => ["done", "back", "skip"].includes(a.type));
    const ask = h("p", { class: "ask", id: "ask", role: "status" }, this.sentence(dec, mine), onlyFinish ? h("span", { class: "hint" }, " Nothing else is possible now.") : null);
    line.appendChild(ask);
    if (st.pending) line.appendChild(h("span", { class: "sending", role: "status" }, h("span", { class: "spinner", "aria-hidden": "true" }), " Sending…"));
    const waiting = st.waitingFor || (pub.decision && pub.decision.waiting) || [];
    if (dec && (SIMULTANEOUS.has(dec.kind) || waiting.length > 1) && !pub.over) {
      const others = waiting.filter((q) => !(mine && q === st.seat));
      const answered = dec.kind === "keep" ? pub.players.map((_, i) => i).filter((q) => !waiting.includes(q) && q !== st.seat) : [];
      line.appendChild(h("span", { class: "waiting-for" },
        others.length ? [mine ? "also waiting for: " : "waiting for: ", others.map((q) => h("span", { class: "wf" }, seatChip(q, { small: true }), ` seat ${q + 1}`))] : null,
        answered.length ? [" answered: ", answered.map((q) => h("span", { class: "wf done", title: `${seatName(q)} has answered` }, seatChip(q, { small: true }), " ✓"))] : null));
    }
    const tools = h("span", { class: "bar-tools" });
    if (pub.over) tools.appendChild(h("button", { class: "btn", type: "button", onclick: () => ui.showFinal() }, "Final scores"));
    if (mine) {
      const collapsed = this.host.classList.contains("collapsed");
      tools.appendChild(h("button", { class: "btn ghost small bar-collapse", type: "button", "aria-expanded": String(!collapsed),
        "aria-label": collapsed ? "Show the answers" : "Hide the answers to see the table",
        onclick: () => { this.host.classList.toggle("collapsed"); this.render(); } }, collapsed ? "▲ Answers" : "▼ Hide"));
    }
    tools.appendChild(h("button", { class: "btn ghost log-toggle", type: "button", "aria-controls": "panel-log", onclick: () => document.body.classList.toggle("log-open") }, "Log"));
    line.appendChild(tools);

    const body = h("div", { class: "bar-controls" });
    if (!mine || st.pending || !legal.some((a) => a.type === "place")) {
      if (ui.zoo.placements) ui.zoo.setPlacements(null);
    }
    if (mine) body.append(...this.controls(legal, dec));
    clear(this.host).append(line, body);
    this.host.classList.toggle("mine", mine);
    this.host.classList.toggle("pending", !!st.pending);
    this.applyHighlights();
    // keyboard users: a new question puts the focus on its first answer (never steals it from
    // elsewhere on the page)
    const active = document.activeElement;
    if (fresh && mine && keyboardUser && (!active || active === document.body || this.host.contains(active) || !active.isConnected)) {
      const first = this.host.querySelector(".bar-controls button:not([disabled])");
      if (first) first.focus({ preventScroll: true });
    }
  }

  // ---------------------------------------------------------------- buttons
  answer(label, action, opts = {}) {
    return h("button", {
      class: ["btn", "answer", opts.primary && "primary", opts.secondary && "secondary", opts.class],
      type: "button", disabled: this.st.pending,
      dataset: { answer: stableKey(action), type: action.type },
      title: opts.title || null,
      onclick: () => this.send(action),
    }, label);
  }

  row(label, ...kids) {
    return h("div", { class: "bar-row" }, label ? h("span", { class: "row-label" }, label) : null, ...kids);
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
    const take = (t) => { handled.add(t); return by.get(t) || []; };
    const ui = this.ui;

    if (this.sel.focus && this.sel.focus.length) {
      rows.push(this.row("This card:", ...this.sel.focus.map((a) => this.answer(this.label(a), a, { primary: true })),
        h("button", { class: "btn ghost", type: "button", onclick: () => { this.sel.focus = null; this.render(); } }, "Cancel")));
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
        return this.answer([icon(ACTION_ICON[card] || "card", { size: 20 }), " ", h("span", cap(card)), sl.side === 2 ? h("sup", "II") : null,
          h("span", { class: "strength num", title: "strength" }, String(strength)),
          sl.venom ? icon("venom", { size: 14 }) : null, sl.constriction ? icon("constriction", { size: 14 }) : null], a, { primary: true, class: "use-card", title: `Use ${cap(card)} at strength ${strength}` });
      });
      const stepper = maxX > 0 ? h("span", { class: "stepper", role: "group", "aria-label": "X tokens to spend" },
        icon("x", { size: 18 }),
        h("button", { class: "btn small", type: "button", "aria-label": "fewer X tokens", disabled: this.sel.x <= 0, onclick: () => { this.sel.x -= 1; this.render(); } }, "−"),
        h("output", { class: "num" }, `+${this.sel.x}`),
        h("button", { class: "btn small", type: "button", "aria-label": "more X tokens", disabled: this.sel.x >= maxX, onclick: () => { this.sel.x += 1; this.render(); } }, "+")) : null;
      if (btns.length) rows.push(this.row(h("span", { class: "wide-only" }, "Use an action card:"), ...btns, stepper));
      if (xs.length) {
        rows.push(this.row(h("span", null, h("span", { class: "wide-only" }, "Or take an X token, moving this card to slot 1:"), h("span", { class: "narrow-only" }, "Or X token:")),
          ...xs.sort((a, b) => order.indexOf(a.card) - order.indexOf(b.card))
            .map((a) => this.answer([icon(ACTION_ICON[a.card] || "card", { size: 18 }), h("span", { class: "xt-name" }, cap(a.card))], a,
              { class: "small x-token", title: `Move ${cap(a.card)} to slot 1 and take an X token` }))));
      }
    }

    // --- keep 4 of 8: toggles + confirm
    if (by.has("keep")) {
      const keeps = take("keep");
      const need = keeps[0].cards.length;
      const offer = (dec && dec.offer) || [...new Set(keeps.flatMap((a) => a.cards))];
      const chosen = this.sel.keep;
      const tray = h("div", { class: "tray", role: "group", "aria-label": "Starting cards" }, offer.map((cid) => {
        const on = chosen.has(cid);
        const b = h("button", {
          class: ["tray-card", on && "selected"], type: "button", "aria-pressed": String(on), dataset: { id: cid },
          onclick: () => { if (on) chosen.delete(cid); else if (chosen.size < need) chosen.add(cid); this.render(); },
        }, renderCard(ui.card(cid), { size: "mini", id: cid }));
        return b;
      }));
      const match = keeps.find((a) => a.cards.length === chosen.size && a.cards.every((c) => chosen.has(c)));
      rows.push(tray);
      rows.push(this.row(`${chosen.size} of ${need} chosen`,
        match ? this.answer(`Keep these ${need}`, match, { primary: true, class: "confirm" })
          : h("button", { class: "btn primary", type: "button", disabled: true }, `Keep ${need} cards`)));
    }

    // --- animals: card, then enclosure
    if (by.has("animal")) {
      const acts = take("animal");
      const keyOf = (a) => `${a.card}|${a.folder || 0}`;
      const groups = new Map();
      for (const a of acts) { if (!groups.has(keyOf(a))) groups.set(keyOf(a), []); groups.get(keyOf(a)).push(a); }
      if (this.sel.animal && !groups.has(this.sel.animal)) this.sel.animal = null;
      rows.push(h("div", { class: "tray", role: "group", "aria-label": "Animals you can play" }, [...groups.entries()].map(([k, list]) => {
        const a = list[0];
        const on = this.sel.animal === k;
        return h("button", {
          class: ["tray-card", on && "selected"], type: "button", "aria-pressed": String(on), dataset: { id: a.card, animal: k },
          onclick: () => this.selectAnimal(on ? null : k),
        }, renderCard(ui.card(a.card), { size: "mini", id: a.card }), a.folder ? h("span", { class: "tray-badge" }, `folder ${a.folder} +${a.folder}`) : null);
      })));
      if (this.sel.animal) {
        const list = groups.get(this.sel.animal);
        const me = ui.player(this.st.seat);
        rows.push(this.row(`Where does ${ui.cardName(list[0].card)} live?`, ...list.map((a) => {
          const b = (me.buildings || []).find((q) => q.id === a.enclosure);
          const label = a.enclosure === null || a.enclosure === undefined ? "No own enclosure (flock)"
            : b ? `${ui.buildingName(b.type)}${b.kind === "enclosure" ? "" : ""} · ${b.cells.length} spaces` : `Enclosure ${a.enclosure}`;
          return this.answer(label, a, { primary: true, class: "enclosure" });
        }), h("button", { class: "btn ghost", type: "button", onclick: () => this.selectAnimal(null) }, "Cancel")));
      } else {
        rows.push(this.row(null, h("span", { class: "hint" }, "Pick an animal above (or in your hand), then click its enclosure on the map.")));
      }
    }

    // --- build: which building
    if (by.has("building")) {
      const acts = take("building");
      const per = (ui.tables.build && ui.tables.build.cost_per_space) || 0;
      rows.push(this.row("Build:", ...acts.map((a) => {
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
      rows.push(this.row(`Placement ${idx + 1} of ${acts.length}:`,
        h("button", { class: "btn", type: "button", onclick: () => { this.sel.placeIdx = zoo.showPlacement(idx - 1); this.render(); }, "aria-label": "previous placement" }, "◀"),
        h("button", { class: "btn", type: "button", onclick: () => { this.sel.placeIdx = zoo.showPlacement(idx + 1); this.render(); }, "aria-label": "next placement" }, "▶"),
        h("button", { class: "btn", type: "button", title: "R", onclick: () => { zoo.cycleAt(1); this.render(); } }, "Turn (R)"),
        current ? this.answer("Place here", current, { primary: true, class: "place-here" }) : null,
        h("span", { class: "hint" }, "or hover the map and click")));
    }

    // --- association: tasks, projects, donation
    if (by.has("task")) {
      const acts = take("task");
      const tIcon = { reputation: "reputation", partner: "partner", university: "university" };
      rows.push(this.row("Tasks:", ...acts.map((a) => {
        let label;
        if (a.task === "partner") label = [icon(a.continent, { size: 18 }), ` Partner zoo: ${iconLabel(a.continent)}`];
        else if (a.task === "university") label = [icon("university", { size: 18 }), ` University: ${cap(a.university)}`];
        else if (a.task === "reputation") label = [icon("reputation", { size: 18 }), " Reputation"];
        else label = [icon(tIcon[a.task] || "partner", { size: 18 }), ` ${cap(a.task)}`];
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
          const bits = [`Level ${a.level + 1}`];
          if (lvl) bits.push(`(${c.kind === "release" ? "size " + lvl.need + "+" : lvl.need} → ${lvl.cp} CP)`);
          if (a.from === "hand") bits.push("from hand");
          else if (typeof a.from === "number") bits.push(`from folder ${a.from}, +${a.from} money`);
          if (a.release) bits.push(`release ${ui.cardName(a.release)}`);
          return this.answer([icon("conservation", { size: 16 }), " ", bits.join(" ")], a, { primary: true, class: "support" });
        }), this.sel.project ? h("button", { class: "btn ghost", type: "button", onclick: () => { this.sel.project = null; this.render(); } }, "All projects") : null));
      }
    }
    if (by.has("donate")) {
      const a = take("donate")[0];
      const d = (ui.tables.association && ui.tables.association.donations) || [];
      const cost = ui.pub.donations < d.length ? d[ui.pub.donations] : ui.tables.association && ui.tables.association.donation_after;
      rows.push(this.row(null, this.answer([icon("conservation", { size: 16 }), ` Donate${cost ? " " + cost + " money" : ""} for 1 conservation`], a)));
    }

    // --- single cards (hand, offers): a tray of cards
    for (const t of types) {
      if (handled.has(t)) continue;
      const acts = by.get(t);
      const cardish = acts.every((a) => typeof a.card === "string" && ui.byId.has(a.card) && Object.keys(a).every((k) => ["type", "card", "folder"].includes(k)));
      if (!cardish) continue;
      handled.add(t);
      const verb = CARD_TRAY_VERB[t] || cap(t);
      rows.push(h("div", { class: "tray", role: "group", "aria-label": `${verb} a card` }, acts.map((a) => h("button", {
        class: "tray-card answer", type: "button", disabled: this.st.pending, dataset: { answer: stableKey(a), type: a.type, id: a.card },
        title: `${verb} ${ui.cardName(a.card)}`, onclick: () => this.send(a),
      }, renderCard(ui.card(a.card), { size: "mini", id: a.card }), h("span", { class: "tray-badge verb" }, `${verb}${a.folder ? ` · folder ${a.folder}` : ""}`)))));
    }

    // --- everything else: labelled buttons; finishing answers last
    const finishing = [];
    const other = [];
    for (const t of types) {
      if (handled.has(t)) continue;
      for (const a of by.get(t)) {
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
      case "done": return "Done";
      case "back": return "Back (Esc)";
      case "skip": return "Skip";
      case "draw": return a.folder ? `Draw folder ${a.folder}: ${name(ui.pub.display[a.folder - 1])}` : "Draw from the deck";
      case "snap": return `Snap folder ${a.folder}: ${name(ui.pub.display[a.folder - 1])}`;
      case "pick": return a.from === "deck" ? "Top card of the deck" : `Folder ${a.from}: ${name(ui.pub.display[a.from - 1])}`;
      case "dig": return a.folder ? `Replace folder ${a.folder}: ${name(ui.pub.display[a.folder - 1])}` : `Replace ${name(a.card)} from hand`;
      case "tile": { const c = ui.card(a.tile); return [c ? gainIcons(c.gain, { size: 16 }) : null, ` ${c ? c.name : a.tile}`]; }
      case "tile_money": {
        const dec = (ui.priv && ui.priv.decision) || {};
        const m = ui.tables.conservation && ui.tables.conservation.tile_money && ui.tables.conservation.tile_money[String(dec.space)];
        return [icon("money", { size: 16, value: m ?? "" }), m ? ` Take ${m} money instead` : " Take the money instead"];
      }
      case "bonus": return a.choice === "upgrade" ? [icon("upgrade", { size: 16 }), " Upgrade an action"] : a.choice === "worker" ? [icon("worker", { size: 16 }), " Extra worker"] : cap(a.choice);
      case "give": return a.what === "money" ? [icon("money", { size: 16, value: (ui.tables.interactions && ui.tables.interactions.pilfer_money) || "" }), " Give money"] : [icon("card", { size: 16 }), " Give a random hand card"];
      case "upgrade": return [icon("upgrade", { size: 16 }), ` Upgrade ${cap(a.card)}`];
      case "move_card": return `Move ${cap(a.card)} to slot 1`;
      case "hypnotize": return `Use ${cap(a.card)}`;
      case "partner": return [icon(a.continent, { size: 16 }), ` Partner zoo: ${iconLabel(a.continent)}`];
      case "university": return [icon("university", { size: 16 }), ` University: ${cap(a.university)}`];
      case "break_action": {
        const dec = (ui.priv && ui.priv.decision) || {};
        const f = ui.tables.sponsors && ui.tables.sponsors.break_money_factor && ui.tables.sponsors.break_money_factor[String(dec.side)];
        const n = dec.strength;
        return [icon("break", { size: 16 }), typeof n === "number" && f ? ` Break action: +${n * f} money, break token +${n}` : " Break action: money, advance the break"];
      }
      case "discard": return `Discard ${name(a.card)}`;
      default: {
        const bits = Object.entries(a).filter(([k]) => k !== "type").map(([k, v]) => {
          if (typeof v === "string" && ui.byId.has(v)) return name(v);
          if (typeof v === "string" && ACTION_NAMES.includes(v)) return cap(v);
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
    if (row && zoo.placements && /^Placement/.test(row.textContent)) {
      const idx = zoo.currentIndex();
      row.textContent = idx >= 0 ? `Placement ${idx + 1} of ${zoo.placements.length}:` : `No placement there (${zoo.placements.length} legal):`;
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
      if (e.key === "r" || e.key === "R") { zoo.cycleAt(1); this.ghostMoved(); return true; }
      if (e.key === "f" || e.key === "F") { zoo.cycleAt(-1); this.ghostMoved(); return true; }
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
