// The answers of the decision bar as controls (split from decision.js): the main turn's action
// cards and X tokens, the starting cards, animals and their enclosures, buildings and their
// placement, the association's tasks, trays of cards and labelled buttons; and the label of
// any answer. Functions over the bar (its selection, row(), answer(), send(), render()); the
// answers with rows of their own are a table (ROWS: answer types -> a small function).
import { h, cap, stableKey } from "../dom.js";
import { icon, iconLabel } from "../icons.js";
import { renderCard, gainIcons, actionName } from "./cards.js";
import { universityLabel } from "./words.js";
import { t, tOr } from "../i18n.js";
import { shapeIcon, shapeKey } from "./zoomap.js";

/** Turning and mirroring make sense only where the legal placements have more than one orientation (never for a kiosk). */
export const turnable = (legal) => new Set(legal.filter((a) => a.type === "place").map((a) => shapeKey(a.cells))).size > 1;

const ACTION_NAMES = ["animals", "build", "cards", "association", "sponsors"];
// the verb on a card of a tray: bar.verb.<answer type>
const trayVerb = (type) => tOr(`bar.verb.${type}`, cap(type));
const ACTION_ICON = { animals: "herbivore", build: "size", cards: "card", association: "partner", sponsors: "science" };

/** The answers with rows of their own, in the bar's order: (their answer types, the rows for
 * them: (bar, the legal answers of each type, the decision) => rows). The other answers become a
 * tray of cards or labelled buttons (controlsFor). */
const ROWS = [
  [["action", "x_token"], actionRows],
  [["keep"], keepRows],
  [["animal"], animalRows],
  [["building"], buildingRows],
  [["place"], placeRows],
  [["task"], taskRows],
  [["support"], supportRows],
  [["donate"], donateRows],
];

export function controlsFor(bar, legal, dec) {
  const rows = [];
  const types = [];
  const by = new Map();
  for (const a of legal) {
    if (!by.has(a.type)) { by.set(a.type, []); types.push(a.type); }
    by.get(a.type).push(a);
  }
  const handled = new Set();
  const take = (type) => { handled.add(type); return by.get(type) || []; };
  const ui = bar.ui;

  if (bar.sel.focus && bar.sel.focus.length) {
    rows.push(bar.row(t("bar.this_card"), ...bar.sel.focus.map((a) => bar.answer(bar.label(a), a, { primary: true })),
      h("button", { class: "btn ghost", type: "button", onclick: () => { bar.sel.focus = null; bar.render(); } }, t("common.cancel"))));
  }

  for (const [kinds, draw] of ROWS) {
    if (kinds.some((k) => by.has(k))) rows.push(...draw(bar, kinds.map(take), dec));
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
      class: "tray-card answer", type: "button", disabled: bar.st.pending, dataset: { answer: stableKey(a), type: a.type, id: a.card },
      title: `${verb}: ${ui.cardName(a.card)}`, onclick: () => bar.send(a),
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
  if (other.length) rows.push(bar.row(null, ...other.map((a) => bar.answer(bar.label(a), a, { primary: true }))));
  if (finishing.length) {
    rows.push(bar.row(null, ...finishing.map((a) => bar.answer(bar.label(a), a, { secondary: true, class: `finish-${a.type}` }))));
  }
  return rows;
}

/** The main turn: action cards with X (a stepper), or an X token. */
function actionRows(bar, [acts, xs]) {
  const ui = bar.ui;
  const rows = [];
  const me = ui.player(bar.st.seat);
  const maxX = Math.max(0, ...acts.map((a) => a.x || 0));
  if (bar.sel.x > maxX) bar.sel.x = maxX;
  const slotOf = (card) => (me.slots || []).find((q) => q.card === card) || { strength: 0, side: 1 };
  const order = (me.slots || []).map((q) => q.card);
  const cards = [...new Set(acts.map((a) => a.card))].sort((a, b) => order.indexOf(a) - order.indexOf(b));
  const penalty = (ui.tables.interactions && ui.tables.interactions.constriction_penalty) || 0;
  const btns = cards.map((card) => {
    const sl = slotOf(card);
    const a = acts.find((q) => q.card === card && (q.x || 0) === bar.sel.x) || acts.find((q) => q.card === card && !q.x);
    const strength = Math.max(0, sl.strength + (a ? a.x || 0 : 0) - (sl.constriction ? penalty : 0));
    return bar.answer([icon(ACTION_ICON[card] || "card", { size: 20 }), " ", h("span", actionName(card)), sl.side === 2 ? h("sup", "II") : null,
      h("span", { class: "strength num", title: t("bar.strength") }, String(strength)),
      sl.venom ? icon("venom", { size: 14 }) : null, sl.constriction ? icon("constriction", { size: 14 }) : null], a, { primary: true, class: "use-card", title: t("bar.use_at_strength", { action: actionName(card), strength }) });
  });
  // the stepper's aria-labels are what tests and screen readers find it by (English: "more X tokens")
  const stepper = maxX > 0 ? h("span", { class: "stepper", role: "group", "aria-label": t("bar.x_to_spend") },
    icon("x", { size: 18 }),
    h("button", { class: "btn small x-less", type: "button", "aria-label": t("bar.fewer_x"), disabled: bar.sel.x <= 0, onclick: () => { bar.sel.x -= 1; bar.render(); } }, "−"),
    h("output", { class: "num" }, `+${bar.sel.x}`),
    h("button", { class: "btn small x-more", type: "button", "aria-label": t("bar.more_x"), disabled: bar.sel.x >= maxX, onclick: () => { bar.sel.x += 1; bar.render(); } }, "+")) : null;
  if (btns.length) rows.push(bar.row(h("span", { class: "wide-only" }, t("bar.use_action_card")), ...btns, stepper));
  if (xs.length) {
    rows.push(bar.row(h("span", null, h("span", { class: "wide-only" }, t("bar.or_x_token")), h("span", { class: "narrow-only" }, t("bar.or_x_token_short"))),
      ...xs.sort((a, b) => order.indexOf(a.card) - order.indexOf(b.card))
        .map((a) => bar.answer([icon(ACTION_ICON[a.card] || "card", { size: 18 }), h("span", { class: "xt-name" }, actionName(a.card))], a,
          { class: "small x-token", title: t("bar.x_token_title", { action: actionName(a.card) }) }))));
  }
  return rows;
}

/** Keep 4 of 8: toggles and a confirm. */
function keepRows(bar, [keeps], dec) {
  const ui = bar.ui;
  const rows = [];
  const need = keeps[0].cards.length;
  const offer = (dec && dec.offer) || [...new Set(keeps.flatMap((a) => a.cards))];
  const chosen = bar.sel.keep;
  const tray = h("div", { class: "tray", role: "group", "aria-label": t("bar.starting_cards") }, offer.map((cid) => {
    const on = chosen.has(cid);
    const b = h("button", {
      class: ["tray-card", on && "selected"], type: "button", "aria-pressed": String(on), dataset: { id: cid },
      onclick: () => { if (on) chosen.delete(cid); else if (chosen.size < need) chosen.add(cid); bar.render(); },
    }, renderCard(ui.card(cid), { size: "mini", id: cid }));
    return b;
  }));
  const match = keeps.find((a) => a.cards.length === chosen.size && a.cards.every((c) => chosen.has(c)));
  rows.push(tray);
  rows.push(bar.row(t("bar.chosen", { n: chosen.size, need }),
    match ? bar.answer(t("bar.keep_these", { count: need }), match, { primary: true, class: "confirm" })
      : h("button", { class: "btn primary", type: "button", disabled: true }, t("bar.keep_n", { count: need }))));
  return rows;
}

/** Animals: the card, then its enclosure. */
function animalRows(bar, [acts]) {
  const ui = bar.ui;
  const rows = [];
  const keyOf = (a) => `${a.card}|${a.folder || 0}`;
  const groups = new Map();
  for (const a of acts) { if (!groups.has(keyOf(a))) groups.set(keyOf(a), []); groups.get(keyOf(a)).push(a); }
  if (bar.sel.animal && !groups.has(bar.sel.animal)) bar.sel.animal = null;
  rows.push(h("div", { class: "tray", role: "group", "aria-label": t("bar.animals_you_can_play") }, [...groups.entries()].map(([k, list]) => {
    const a = list[0];
    const on = bar.sel.animal === k;
    return h("button", {
      class: ["tray-card", on && "selected"], type: "button", "aria-pressed": String(on), dataset: { id: a.card, animal: k },
      onclick: () => bar.selectAnimal(on ? null : k),
    }, renderCard(ui.card(a.card), { size: "mini", id: a.card }), a.folder ? h("span", { class: "tray-badge" }, t("bar.folder_plus", { folder: a.folder })) : null);
  })));
  if (bar.sel.animal) {
    const list = groups.get(bar.sel.animal);
    const me = ui.player(bar.st.seat);
    rows.push(bar.row(t("bar.where_lives", { card: ui.cardName(list[0].card) }), ...list.map((a) => {
      const b = (me.buildings || []).find((q) => q.id === a.enclosure);
      const label = a.enclosure === null || a.enclosure === undefined ? t("bar.no_own_enclosure")
        : b ? t("bar.enclosure_spaces", { building: ui.buildingName(b.type), count: b.cells.length }) : t("bar.enclosure_n", { n: a.enclosure });
      return bar.answer(label, a, { primary: true, class: "enclosure" });
    }), h("button", { class: "btn ghost", type: "button", onclick: () => bar.selectAnimal(null) }, t("common.cancel"))));
  } else {
    rows.push(bar.row(null, h("span", { class: "hint" }, t("bar.pick_animal_hint"))));
  }
  return rows;
}

/** Build: which building. */
function buildingRows(bar, [acts]) {
  const ui = bar.ui;
  const rows = [];
  const per = (ui.tables.build && ui.tables.build.cost_per_space) || 0;
  rows.push(bar.row(t("bar.build"), ...acts.map((a) => {
    const b = ui.buildings[a.building] || ui.sponsorBuildings[a.building] || {};
    return bar.answer([shapeIcon(b.shape, 26, b.kind === "enclosure" ? "#d9b77e" : b.kind === "special" ? "#a9d3c8" : b.kind === "kiosk" ? "#f3d9d3" : "#e2d3ef"),
      " ", b.name || cap(a.building), per && b.size ? h("span", { class: "cost num" }, icon("money", { size: 16, value: per * b.size })) : null], a, { primary: true, class: "building" });
  })));
  return rows;
}

/** Place: a ghost on the map, browse the placements, place. */
function placeRows(bar, [acts]) {
  const ui = bar.ui;
  const rows = [];
  const cellsList = acts.map((a) => a.cells);
  const zoo = ui.zoo;
  if (ui.viewSeat !== bar.st.seat) { ui.viewSeat = bar.st.seat; ui.renderZooTabs(); ui.renderZoo(); }
  if (bar.shownZooFor !== bar.st.version) { bar.shownZooFor = bar.st.version; ui.showPanel("panel-zoo"); }
  if (zoo.placements !== cellsList && stableKey(zoo.placements) !== stableKey(cellsList)) {
    zoo.setPlacements(cellsList);
    bar.sel.placeIdx = 0;
    zoo.showPlacement(0);
  }
  const idx = Math.max(0, zoo.currentIndex());
  const current = acts[idx];
  const canTurn = turnable(acts);
  rows.push(bar.row(t("bar.placement", { n: idx + 1, total: acts.length }),
    h("button", { class: "btn place-step", type: "button", onclick: () => { bar.sel.placeIdx = zoo.showPlacement(idx - 1); bar.render(); }, "aria-label": t("bar.prev_placement") }, "◀"),
    h("button", { class: "btn place-step", type: "button", onclick: () => { bar.sel.placeIdx = zoo.showPlacement(idx + 1); bar.render(); }, "aria-label": t("bar.next_placement") }, "▶"),
    canTurn ? h("button", { class: "btn turn-r", type: "button", title: "R", "aria-label": t("bar.turn"), onclick: () => { zoo.rotateAt(1); bar.render(); } },
      h("span", { class: "wide-only" }, t("bar.turn_r")), h("span", { class: "narrow-only", "aria-hidden": "true" }, "↻")) : null,
    canTurn ? h("button", { class: "btn mirror-f", type: "button", title: "F", "aria-label": t("bar.mirror"), onclick: () => { zoo.mirrorAt(); bar.render(); } },
      h("span", { class: "wide-only" }, t("bar.mirror_f")), h("span", { class: "narrow-only", "aria-hidden": "true" }, "⇋")) : null,
    current ? bar.answer([h("span", { class: "wide-only" }, t("bar.place_here")), h("span", { class: "narrow-only" }, t("bar.place_short"))], current, { primary: true, class: "place-here" }) : null,
    h("span", { class: "hint" }, t("bar.or_hover"))));
  const label = rows[rows.length - 1].querySelector(".row-label");
  if (label) label.dataset.placement = "1";
  return rows;
}

/** The association's tasks. */
function taskRows(bar, [acts]) {
  const ui = bar.ui;
  const rows = [];
  const tIcon = { reputation: "reputation", partner: "partner", university: "university" };
  rows.push(bar.row(t("bar.tasks"), ...acts.map((a) => {
    let label;
    if (a.task === "partner") label = [icon(a.continent, { size: 18 }), ` ${t("bar.partner_zoo", { continent: iconLabel(a.continent) })}`];
    else if (a.task === "university") label = [icon("university", { size: 18 }), ` ${universityLabel(a.university, ui.tables)}`];
    else if (a.task === "reputation") label = [icon("reputation", { size: 18 }), ` ${t("assoc.task.reputation")}`];
    else label = [icon(tIcon[a.task] || "partner", { size: 18 }), ` ${tOr(`assoc.task.${a.task}`, cap(a.task))}`];
    return bar.answer(label, a, { primary: true });
  })));
  return rows;
}

/** The association's projects (their levels). */
function supportRows(bar, [acts]) {
  const ui = bar.ui;
  const rows = [];
  const byProject = new Map();
  for (const a of acts) { if (!byProject.has(a.project)) byProject.set(a.project, []); byProject.get(a.project).push(a); }
  const projects = [...byProject.keys()];
  const focus = bar.sel.project && byProject.has(bar.sel.project) ? [bar.sel.project] : projects;
  for (const pid of focus) {
    const c = ui.card(pid);
    rows.push(bar.row(`${ui.cardName(pid)}:`, ...byProject.get(pid).map((a) => {
      const lvl = c && c.levels ? c.levels[a.level] : null;
      const bits = [t("bar.level_of", { n: a.level + 1, project: ui.cardName(pid) })];
      if (lvl) bits.push(`(${t("bar.level_needs", { need: c.kind === "release" ? t("filter.size_min", { n: lvl.need }) : lvl.need, cp: lvl.cp })})`);
      if (a.from === "hand") bits.push(t("bar.from_hand"));
      else if (typeof a.from === "number") bits.push(t("bar.from_folder_money", { folder: a.from }));
      if (a.release) bits.push(t("bar.release", { card: ui.cardName(a.release) }));
      return bar.answer([icon("conservation", { size: 16 }), " ", bits.join(" ")], a, { primary: true, class: "support" });
    }), bar.sel.project ? h("button", { class: "btn ghost", type: "button", onclick: () => { bar.sel.project = null; bar.render(); } }, t("bar.all_projects")) : null));
  }
  return rows;
}

/** The association's donation. */
function donateRows(bar, [acts]) {
  const ui = bar.ui;
  const rows = [];
  const a = acts[0];
  const d = (ui.tables.association && ui.tables.association.donations) || [];
  const cost = ui.pub.donations < d.length ? d[ui.pub.donations] : ui.tables.association && ui.tables.association.donation_after;
  rows.push(bar.row(null, bar.answer([icon("conservation", { size: 16 }), ` ${cost ? t("bar.donate_cost", { cost }) : t("bar.donate")}`], a)));
  return rows;
}

/** A readable label for any answer (the fallback for unknown ones shows its fields). */
export function answerLabel(bar, a) {
  const ui = bar.ui;
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
