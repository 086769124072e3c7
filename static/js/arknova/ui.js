// The zoo builder's table: score track, zoo maps, shared board, player row, log, final screen.
import { h, clear, cap } from "../dom.js";
import { t, tOr } from "../i18n.js";
import { icon, iconLabel } from "../icons.js";
import { seatChip, seatTag, seatName, seatColour } from "../seats.js";
import { renderCard, CONTINENTS, CLASSES, actionName } from "./cards.js";
import { ZooMapView } from "./zoomap.js";
import { logLine, makeNamer } from "./log.js";
import { BreakNote } from "./breaknote.js";
import { DecisionBar } from "./decision.js";
import { renderFinal } from "./final.js";
import { TableUI } from "../table.js";
import { applyHints, actionEffect, actionBothSides } from "./explain.js";
import { renderScoreTrack } from "./score.js";

const SHORT_ACTION = { association: t("action.short.association") };
/** A column head of the association table: its name; a phone shows the icon instead (the name its
 * tooltip and label), so the table fits the phone's panel. */
const assocHead = (kind, name) => h("th", { title: name, "aria-label": name },
  h("span", { class: "narrow-only" }, icon(kind, { size: 18 })), h("span", { class: "wide-only" }, name));
export const ACTION_ICON = { animals: "herbivore", build: "size", cards: "card", association: "partner", sponsors: "science" };

export class ArkNovaUI extends TableUI {
  constructor(st, hooks) {
    super(st, hooks);
    const cat = st.catalog || {};
    this.byId = st.byId;
    this.buildings = cat.buildings || {};
    this.maps = cat.maps || {};
    this.tables = cat.tables || {};
    this.sponsorBuildings = {};
    for (const c of this.byId.values()) {
      if (c.type === "sponsor" && c.building) {
        this.sponsorBuildings[c.building.id] = { ...c.building, kind: "sponsor", size: (c.building.shape || []).length };
      }
    }
    this.viewSeat = null;
    this.userPickedTab = false;
    this.zoo = new ZooMapView(this.els.zooMap, {
      onPlace: (cells) => this.bar.placeCells(cells),
      onEnclosure: (id) => this.bar.chooseEnclosure(id),
      onGhost: (idx, n) => this.bar.ghostMoved(idx, n),
    });
    this.bar = new DecisionBar(this);
    this.namerCtx = { byId: this.byId, buildings: this.buildings, sponsorBuildings: this.sponsorBuildings };
    this.namer = makeNamer(this.namerCtx);
    this.setupTable();
  }

  // ---------------------------------------------------------------- helpers
  player(seat) { return this.pub.players[seat]; }
  card(id) { return this.byId.get(id); }
  cardName(id) { const c = this.card(id); return c ? c.name : String(id); }
  buildingName(id) {
    const b = this.buildings[id] || this.sponsorBuildings[id];
    return b ? b.name : cap(id);
  }
  /** How many display folders a reputation reaches (the tables' reputation range). */
  reach(rep) {
    const range = (this.tables.reputation && this.tables.reputation.range) || [];
    let n = 1;
    for (const [at, folders] of range) if (rep >= at) n = folders;
    return n;
  }
  mySeat() { return this.st.seat; }
  focusSeat() {
    // whose hand/action row the bottom panel shows: mine, else the zoo being viewed
    return this.st.seat !== null && this.st.seat !== undefined ? this.st.seat : this.viewSeat ?? this.pub.active ?? 0;
  }

  /** On a phone (panels side by side), bring a panel into view. */
  showPanel(id) {
    const panels = this.els.panels;
    const target = document.getElementById(id);
    if (!panels || !target || panels.scrollWidth <= panels.clientWidth + 4) return;
    panels.scrollTo({ left: target.offsetLeft - panels.offsetLeft, behavior: "smooth" });
  }

  statusLine() {
    if (!this.st.view) return [];
    const p = this.pub;
    const out = [];
    const br = p.break || {};
    // one break counter (the token on the break track, as on the board) and the round
    // a solo game: the solo tile instead of the break track (a token per turn, fixed length);
    // a phone shows its numbers only (stat-short: the icon and the tooltip say what they count)
    const soloTitle = p.solo ? t("status.solo_tile_title", { pos: br.pos ?? 0, len: br.len ?? "?", count: br.count ?? 0, breaks: p.solo.breaks, left: p.solo.turns_left }) : null;
    out.push(h("span", { class: "stat break-stat", title: soloTitle || t("status.break_track_title", { pos: br.pos ?? 0, len: br.len ?? "?", count: br.count ?? 0 }) },
      icon("break", { size: 16 }), h("span", { class: "stat-long" }, ` ${t(p.solo ? "status.solo_tile" : "status.break_track", { pos: br.pos ?? 0, len: br.len ?? "?" })}`),
      h("span", { class: "stat-short" }, ` ${br.pos ?? 0}/${br.len ?? "?"}`)));
    out.push(h("span", { class: "stat rounds" }, t("status.round", { n: Math.floor((p.turn ?? 0) / Math.max(1, p.players.length)) + 1 })));
    const me = this.st.seat !== null && this.st.seat !== undefined ? p.players[this.st.seat] : null;
    if (me) out.push(h("span", { class: "stat money-stat", title: t("status.money_title") }, icon("money", { size: 16 }), h("span", { class: "num" }, ` ${me.money}`)));
    if (p.over) out.push(h("span", { class: "stat strong" }, t("status.game_over")));
    else {
      const waiting = this.st.waitingFor || (p.decision && p.decision.waiting) || [];
      if (waiting.length === 1) out.push(h("span", { class: "stat whose" }, seatChip(waiting[0], { small: true }), ` ${waiting[0] === this.st.seat ? t("status.your_move") : t("status.to_play", { name: seatName(waiting[0]) })}`));
      else if (waiting.length > 1) out.push(h("span", { class: "stat whose" }, t("status.waiting_n", { count: waiting.length })));
      if (p.end) out.push(h("span", { class: "stat warn" }, t("status.final_round")));
    }
    return out;
  }

  // ---------------------------------------------------------------- render everything (table.js)
  hasView(pub) { return Array.isArray(pub.players); }

  beforeRender() {
    const st = this.st;
    const n = this.pub.players.length;
    if (this.viewSeat === null || this.viewSeat >= n) {
      this.viewSeat = st.seat !== null && st.seat !== undefined ? st.seat : (this.pub.active ?? 0);
    }
  }

  // ---------------------------------------------------------------- score track
  renderScore() { renderScoreTrack(this); }

  // ---------------------------------------------------------------- zoo panel
  renderZooTabs() {
    const host = this.els.zooTabs;
    clear(host);
    this.pub.players.forEach((p, i) => {
      const b = h("button", {
        class: ["zoo-tab", i === this.viewSeat && "active"], role: "tab", "aria-selected": String(i === this.viewSeat),
        style: { "--seat": seatColour(i).fill },
        onclick: () => { this.viewSeat = i; this.userPickedTab = true; this.renderZooTabs(); this.renderZoo(); this.bar.applyHighlights(); if (this.st.seat === null) this.renderPlayer(); },
      }, seatChip(i, { small: true }), " ", h("span", { class: "tab-name", title: seatName(i) }, i === this.st.seat ? t("zoo.my_zoo") : seatName(i)));
      host.appendChild(b);
    });
  }

  /** The decision bar changed its height: keep a placement preview in sight. */
  revealFocus() {
    if (this.zoo) this.zoo.revealGhost();
  }

  renderZoo() {
    const seat = this.viewSeat;
    const p = this.player(seat);
    const map = this.maps[p.map];
    if (map) {
      this.zoo.render(map, p, { byId: this.byId, buildings: this.buildings, sponsorBuildings: this.sponsorBuildings, seat });
    } else {
      clear(this.els.zooMap).append(h("p", { class: "muted" }, t("zoo.map_missing", { map: p.map })));
    }
    const info = [];
    info.push(h("div", { class: "zoo-head" },
      h("h3", map ? map.name : p.map, " ", h("span", { class: "muted small" }, seat === this.st.seat ? t("zoo.your_zoo") : `(${seatName(seat)})`)),
      map && map.description ? h("p", { class: "map-desc" }, map.description) : null));
    info.push(resourceStrip(p, this, false, seat));
    // icons of the zoo
    const ic = p.icons || {};
    const iconList = [...CONTINENTS, ...CLASSES, "science", "water", "rock"].filter((k) => ic[k]);
    info.push(h("div", { class: "zoo-icons", "aria-label": t("zoo.icons_aria") },
      iconList.length ? iconList.map((k) => h("span", { class: "icon-count", title: `${iconLabel(k)}: ${ic[k]}` }, icon(k, { size: 20 }), h("b", String(ic[k])))) : h("span", { class: "muted" }, t("zoo.no_icons"))));
    // action cards of this seat (compact): a tap or a click opens both sides' text
    info.push(h("div", { class: "mini-slots", "aria-label": t("zoo.action_cards") }, (p.slots || []).map((sl) => h("details", {
      class: ["mini-slot", sl.side === 2 && "side2"], dataset: { card: sl.card },
      title: `${actionName(sl.card)} ${sl.strength}\n${actionBothSides(sl.card, sl.strength, this.tables)}` },
    h("summary", h("b", String(sl.strength)), " ", actionName(sl.card), sl.side === 2 ? h("sup", "II") : null,
      sl.venom ? icon("venom", { size: 14 }) : null, sl.constriction ? icon("constriction", { size: 14 }) : null),
    h("p", { class: "slot-sides" }, [1, 2].map((side) => h("span", { class: ["slot-side-text", side === sl.side && "current"] },
      h("b", side === 2 ? "II " : "I "), actionEffect(sl.card, sl.strength, side, this.tables))))))));
    const flock = (p.animals || []).filter((a) => a.building === null || a.building === undefined);
    if (flock.length) info.push(h("p", { class: "flock" }, t("zoo.without_enclosure"), " ", flock.map((a) => this.cardName(a.card)).join(", ")));
    const tucked = Object.entries(p.tucked || {}).filter(([, n]) => n);
    if (tucked.length) info.push(h("p", { class: "tucked" }, t("zoo.tucked"), " ", tucked.map(([cid, n]) => t("zoo.tucked_under", { count: n, card: this.cardName(cid) })).join(", ")));
    if ((p.sponsors || []).length) {
      info.push(h("div", { class: "played" }, h("h4", t("zoo.sponsors", { n: p.sponsors.length })),
        h("div", { class: "card-row" }, p.sponsors.map((id) => renderCard(this.card(id), { size: "mini", id })))));
    }
    if ((p.animals || []).length) {
      info.push(h("details", { class: "played" }, h("summary", t("zoo.animals", { n: p.animals.length })),
        h("div", { class: "card-row" }, p.animals.map((a) => renderCard(this.card(a.card), { size: "mini", id: a.card })))));
    }
    clear(this.els.zooInfo).append(...info);
  }

  // ---------------------------------------------------------------- shared board
  renderBoard() {
    const p = this.pub;
    const out = [];
    // break track
    const br = p.break || { pos: 0, len: 0, count: 0, max: 0 };
    const cells = [];
    for (let i = 1; i <= br.len; i++) cells.push(h("span", { class: ["bt-cell", i <= br.pos && "filled", i === br.len && "last"] }, i === br.len ? icon("break", { size: 14 }) : ""));
    out.push(h("section", { class: "board-block break-block" },
      h("h3", p.solo ? t("board.solo_tile") : t("board.break_track"), " ", h("span", { class: "muted num" }, `${br.pos}/${br.len}`),
        h("span", { class: "muted small" }, ` · ${p.solo ? `${t("board.solo_left", { count: p.solo.turns_left, breaks: p.solo.breaks })} · ${t("board.solo_goal")}` : t("board.breaks_of", { count: br.count, max: br.max })}`)),
      h("div", { class: "break-track", role: "img", "aria-label": t("board.break_token_at", { pos: br.pos, len: br.len }) }, cells)));

    // display with reputation range
    const viewer = this.st.seat !== null && this.st.seat !== undefined ? this.st.seat : this.viewSeat;
    const reach = this.reach(this.player(viewer).reputation);
    const folders = (p.display || []).map((cid, i) => {
      const f = i + 1;
      return h("div", { class: ["folder", f <= reach && "in-range"], dataset: { folder: f } },
        h("div", { class: "folder-label" }, h("b", `${f}`), f <= reach ? h("span", { class: "small" }, ` ${t("board.in_reach")}`) : null),
        cid ? renderCard(this.card(cid), { size: "mini", id: cid }) : h("div", { class: "card empty mini" }, t("board.empty")));
    });
    out.push(h("section", { class: "board-block display-block" },
      h("h3", t("board.display"), " ", h("span", { class: "muted small" }, [
        reach > 1 ? t("board.reach_many", { name: seatName(viewer), rep: this.player(viewer).reputation, reach })
          : t("board.reach_one", { name: seatName(viewer), rep: this.player(viewer).reputation }),
        t("board.deck", { n: p.deck_size }), t("board.discard", { n: (p.discard || []).length })].join(" · "))),
      h("div", { class: "display", style: { "--reach": reach } }, folders)));

    // association board
    const tasks = (this.tables.association && this.tables.association.tasks) || {};
    const taskIcon = { reputation: "reputation", partner: "partner", university: "university", project: "project" };
    const donations = (this.tables.association && this.tables.association.donations) || [];
    const nextDonation = p.donations < donations.length ? donations[p.donations] : (this.tables.association && this.tables.association.donation_after);
    const rows = p.players.map((q, i) => {
      const active = q.workers - (q.placed || 0);
      const workers = [];
      for (let k = 0; k < q.workers; k++) workers.push(h("span", { class: ["worker", k >= active && "placed"], title: k >= active ? t("board.worker_placed") : t("board.worker_available") }, icon("worker", { size: 16 })));
      return h("tr", null,
        h("th", { scope: "row" }, seatTag(i, { small: true })),
        h("td", { class: "workers" }, workers, h("span", { class: "num small" }, ` ${active}/${q.workers}`)),
        h("td", null, (q.partners || []).length ? q.partners.map((c) => icon(c, { size: 18 })) : h("span", { class: "muted" }, "–")),
        h("td", null, (q.universities || []).length ? q.universities.map((u) => h("span", { class: "uni", title: tOr(`university.${u}`, cap(u)) }, icon("university", { size: 18 }), h("span", { class: "small" }, tOr(`university.${u}`, cap(u))))) : h("span", { class: "muted" }, "–")),
        h("td", { class: "num" }, String((q.supported || []).length)));
    });
    // the shared supply of partner zoos and universities (gone until the break refills it)
    const supItem = (n, label, ...content) => {
      const el = h("span", { class: ["supply-item", !n && "gone"], title: n ? label : t("board.supply_gone", { what: label }), style: n ? null : { opacity: "0.4" } }, ...content);
      return n ? el : h("s", null, el);
    };
    const supply = p.supply ? h("p", { class: "small supply" }, h("b", t("board.supply")), " ",
      Object.entries(p.supply.partners || {}).map(([c, n]) => supItem(n, iconLabel(c), icon(c, { size: 16 }), " ")), " · ",
      Object.entries(p.supply.universities || {}).map(([u, n]) => supItem(n, tOr(`university.${u}`, cap(u)), icon("university", { size: 16 }), h("span", { class: "small" }, `${tOr(`university.${u}`, cap(u))} `)))) : null;
    out.push(h("section", { class: "board-block assoc-block" },
      h("h3", t("action.association")),
      h("div", { class: "tasks" }, Object.entries(tasks).map(([task, v]) => h("span", { class: "task", title: t("board.task_value", { task: tOr(`assoc.task.${task}`, cap(task)), v }) }, icon(taskIcon[task] || "partner", { size: 18 }), ` ${tOr(`assoc.task.${task}`, cap(task))} `, h("b", String(v))))),
      supply,
      h("table", { class: "assoc" },
        h("thead", h("tr", h("th", t("board.zoo")), assocHead("worker", t("board.workers")), assocHead("partner", t("board.partner_zoos")),
          assocHead("university", t("board.universities")), assocHead("project", t("board.projects")))),
        h("tbody", rows)),
      h("p", { class: "small" }, icon("conservation", { size: 16 }), ` ${t("board.donations", { n: p.donations })}`, nextDonation ? ` · ${t("board.next_donation", { n: nextDonation })}` : "")));

    // projects with cubes
    const projectCard = (pid, where) => {
      const el = renderCard(this.card(pid), { size: "mini", id: pid, cubes: (p.cubes || {})[pid] || [], seatChip: (q) => seatChip(q, { small: true }) });
      el.dataset.where = where;
      return el;
    };
    out.push(h("section", { class: "board-block projects-block" },
      h("h3", t("board.projects_title")),
      h("div", { class: "card-row projects" },
        (p.base_projects || []).map((pid) => projectCard(pid, "base")),
        (p.project_row || []).length ? h("span", { class: "row-sep", "aria-hidden": "true" }) : null,
        (p.project_row || []).map((pid) => projectCard(pid, "row")))));

    // conservation bonus tiles
    const tiles = p.bonus_tiles || {};
    if (Object.keys(tiles).length) {
      out.push(h("section", { class: "board-block tiles-block" },
        h("h3", t("board.bonuses_title")),
        h("div", { class: "tiles" }, Object.entries(tiles).map(([space, list]) => h("div", { class: "tile-space" },
          h("span", { class: "tile-at" }, icon("conservation", { size: 20, value: space })),
          list.length ? list.map((tile) => renderCard(this.card(tile), { size: "mini", id: tile })) : h("span", { class: "muted" }, t("board.none_left")))))));
    }
    clear(this.els.board).append(...out);
  }

  // ---------------------------------------------------------------- the player row
  renderPlayer() {
    const seat = this.focusSeat();
    const p = this.player(seat);
    const mine = seat === this.st.seat;
    const out = [];
    out.push(h("div", { class: "player-head" },
      h("h3", mine ? t("player.your_action_cards") : t("player.action_cards_of", { name: seatName(seat) })),
      resourceStrip(p, this, true, seat)));
    out.push(h("div", { class: "slots", role: "group", "aria-label": t("player.slots_aria") }, (p.slots || []).map((sl, i) => {
      const el = h("button", {
        class: ["slot", `slot-${sl.card}`, sl.side === 2 && "side2"], type: "button", disabled: true,
        dataset: { card: sl.card, slot: i + 1 },
        "aria-label": [t("player.slot_aria", { n: i + 1, action: actionName(sl.card), strength: sl.strength, side: sl.side === 2 ? "II" : "I" }),
          sl.venom ? t("player.venom_token") : null, sl.constriction ? t("player.constriction_token") : null].filter(Boolean).join(", "),
      },
      h("span", { class: "slot-inner" },
      h("span", { class: "slot-strength num" }, String(sl.strength)),
      h("span", { class: "slot-card" }, h("span", { class: "long" }, actionName(sl.card)), h("span", { class: "short", "aria-hidden": "true" }, SHORT_ACTION[sl.card] || actionName(sl.card))),
      h("span", { class: "slot-meta" }, icon(ACTION_ICON[sl.card] || "card", { size: 18 }),
        h("span", { class: "slot-no" }, t("player.slot", { n: i + 1 })),
        h("span", { class: ["slot-side", sl.side === 2 && "up"], title: sl.side === 2 ? t("player.side2") : t("player.side1") }, sl.side === 2 ? "II" : "I"),
        sl.venom ? icon("venom", { size: 18, label: t("player.venom_token") }) : null,
        sl.constriction ? icon("constriction", { size: 18, label: t("player.constriction_token") }) : null),
      h("span", { class: "slot-effect" }, actionEffect(sl.card, sl.strength, sl.side, this.tables))));
      el.title = `${actionName(sl.card)} ${sl.strength}\n${actionBothSides(sl.card, sl.strength, this.tables)}`;
      return el;
    })));
    if (mine && this.priv) {
      const hand = this.priv.hand || [];
      out.push(h("div", { class: "hand-head" }, h("h3", t("player.your_hand", { n: hand.length }))));
      out.push(h("div", { class: "hand card-row", id: "hand" }, hand.length ? hand.map((cid) => {
        const el = renderCard(this.card(cid), { size: "mini", id: cid });
        el.tabIndex = -1;
        return el;
      }) : h("p", { class: "muted" }, t("player.no_cards"))));
      const finals = this.priv.final || [];
      if (finals.length) {
        out.push(h("details", { class: "finals" }, h("summary", t("player.your_finals", { n: finals.length })),
          h("div", { class: "card-row" }, finals.map((cid) => renderCard(this.card(cid), { size: "mini", id: cid })))));
      }
    } else {
      out.push(h("p", { class: "muted" }, t("player.holds", { name: seatName(seat), cards: t("player.n_cards", { count: p.hand_size || 0 }), finals: t("player.n_finals", { count: p.final_count || 0 }) })));
    }
    clear(this.els.player).append(...out);
  }

  // ---------------------------------------------------------------- log
  renderLog() {
    const ctx = { ...this.namerCtx, namer: this.namer, you: this.st.seat };
    // a gain of nothing says nothing
    this.renderLogLines((ev, version) => logLine(ev, ctx, version), {
      show: (ev) => !(ev.kind === "gain" && ev.data && ev.data.gains && Object.keys(ev.data.gains).length === 0),
      max: 400,
    });
    // a break that ends while the page is open: its summary as a note (breaknote.js)
    (this.breakNote ||= new BreakNote()).update(this.st.log, ctx, !!this.pub.over);
  }

  // ---------------------------------------------------------------- final screen
  finalScreen(onClose) { return renderFinal(this, onClose); }

  /** The bar, then the engine's hints on the hand, the display and the action buttons. */
  renderBar() {
    super.renderBar();
    if (this.st.view && this.hasView(this.st.view.public)) applyHints(this);
  }
}

/** Money, X, workers, reputation, hand: the numbers that matter, tabular. */
export function resourceStrip(p, ui, big = false, seat = null) {
  const sz = big ? 22 : 18;
  const active = p.workers - (p.placed || 0);
  const k = (f) => (seat === null ? null : `${seat}:${f}:${big ? "b" : "s"}`);
  const val = (f, text) => h("b", { class: "num", dataset: k(f) ? { k: k(f) } : null }, text);
  return h("div", { class: ["resources", big && "big"] },
    h("span", { class: "res", title: t("icon.money") }, icon("money", { size: sz }), val("money", String(p.money))),
    h("span", { class: "res", title: t("res.x_tokens") }, icon("x", { size: sz }), val("x", String(p.x))),
    h("span", { class: "res", title: t("res.workers") }, icon("worker", { size: sz }), val("workers", `${active}/${p.workers}`)),
    h("span", { class: "res", title: t("icon.reputation") }, icon("reputation", { size: sz }), val("rep", String(p.reputation))),
    h("span", { class: "res", title: t("icon.appeal") }, icon("appeal", { size: sz }), val("appeal", String(p.appeal))),
    h("span", { class: "res", title: t("icon.conservation") }, icon("conservation", { size: sz }), val("cp", String(p.conservation))),
    h("span", { class: "res", title: t("res.hand") }, icon("card", { size: sz }), val("hand", String(p.hand_size ?? 0))));
}

