// The game page: loads a game, keeps it live over the WebSocket, renders it, sends answers.
// What is legal comes only from GET /legal; what is true only from the view.
import { api, auth, wsUrl, ApiError } from "./api.js";
import { h, clear, $ } from "./dom.js";
import { injectSprite } from "./icons.js";
import { setSeats, seatTag } from "./seats.js";
import { mountTable } from "./mount.js";
import { Chat } from "./chat.js";
import { HintButton } from "./hintbutton.js";
import { t, tOr, setupPage } from "./i18n.js";
import { awayBanner, clockChips, countMyTurns, notificationButton, setBadge, showNotification,
  titleWithCount, TurnFeed, turnNotice, undoButton } from "./asyncplay.js";

injectSprite();
setupPage();

const params = new URLSearchParams(location.search);
const gameId = params.get("id");

const st = {
  id: gameId,
  summary: null,      // GET /api/games/{id} minus the view
  gameName: null,
  catalog: null,
  byId: new Map(),
  version: -1,
  view: null,
  status: null,
  waitingFor: null,
  result: null,
  seat: null,         // my seat, or null for spectators
  legal: [],
  legalVersion: -1,
  pending: false,     // an answer is on its way
  sentVersion: null,
  log: [],            // [{version, events}]
  error: null,
  turns: 0,           // how many of my games wait for me (title, favicon badge)
};

const els = {
  title: $("#game-title"),
  status: $("#status-line"),
  conn: $("#conn"),
  me: $("#me"),
  bar: $("#decision"),
  waiting: $("#waiting-room"),
};

let ui = null;
const chat = new Chat({ gameId });
const hints = new HintButton(st, { ui: () => ui, rerender: () => renderBar(), toast });

// ------------------------------------------------------------------ connection indicator
function setConn(state, text) {
  els.conn.dataset.state = state;
  const label = { live: t("conn.live"), connecting: t("conn.connecting"), down: t("conn.down"), idle: t("conn.idle") }[state] || state;
  els.conn.querySelector(".conn-text").textContent = text || label;
  els.conn.title = text || label;
  document.body.classList.toggle("disconnected", state === "down");
}

// ------------------------------------------------------------------ live updates
class Live {
  constructor() {
    this.ws = null;
    this.attempt = 0;
    this.timer = null;
    this.stopped = false;
  }

  connect() {
    if (this.stopped) return;
    clearTimeout(this.timer);
    setConn("connecting");
    let ws;
    try {
      ws = new WebSocket(wsUrl(st.id));
    } catch {
      this.schedule();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      if (this.ws !== ws) return;
      this.attempt = 0;
      setConn("live");
      ws.send(JSON.stringify({ type: "sync", after: Math.max(st.version, 0) }));
    };
    ws.onmessage = (e) => {
      if (this.ws !== ws) return;
      let msg;
      try { msg = JSON.parse(e.data); } catch { return; }
      onMessage(msg);
    };
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (ev.code === 4404) { this.stopped = true; setConn("down", t("conn.no_such_game")); return; }
      this.schedule();
    };
    ws.onerror = () => { /* onclose follows */ };
  }

  schedule() {
    if (this.stopped) return;
    const hold = Math.max(0, (this.holdUntil || 0) - Date.now());
    const delay = Math.max(hold, Math.min(10000, 400 * 2 ** this.attempt) * (0.75 + Math.random() * 0.5));
    this.attempt += 1;
    setConn("down", t("conn.reconnecting", { s: Math.ceil(delay / 1000) }));
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.connect(), delay);
  }

  /** Reconnect now (browser came back online, user clicked the dot). */
  now() {
    if (this.ws && this.ws.readyState <= 1) return;
    this.attempt = 0;
    this.connect();
  }

  /** Close the socket (tests, or a user who wants a fresh one); reconnect after `hold` ms. */
  drop(hold = 0) {
    this.holdUntil = Date.now() + hold;
    if (this.ws) this.ws.close();
  }
}

const live = new Live();

function onMessage(msg) {
  if (msg.type === "state") {
    applyState(msg, { fromSocket: true });
  } else if (msg.type === "chat") {
    chat.receive(msg.message);
  } else if (msg.type === "hello") {
    chat.catchUp(); // lines sent while the socket was away
  } else if (msg.type === "seat") {
    // the user's seat in this game changed (joined, or gave an invitation back): the state
    // messages that follow are the new seat's view; redraw the page around it
    st.seat = Number.isInteger(msg.seat) ? msg.seat : null;
    resync();
  } else if (msg.type === "error") {
    const e = msg.error || msg;
    if (e.code === "signed_out") {
      // this login was revoked (logout elsewhere, "log out everywhere", a password change):
      // the server closes the socket; the reconnect watches as a spectator
      auth.clear();
      toast(t("game.signed_out"));
      st.seat = null;
      resync();
    } else if (e.code === "bad_token") {
      // the sign-in expired or was revoked: go on watching as a spectator
      auth.clear();
      toast(t("game.sign_in_expired"));
      st.seat = null;
      resync();
    } else if (e.code === "stale_version" || e.code === "conflict") resync();
    else toast(e.message || e.code || t("game.refused"));
  }
}

// ------------------------------------------------------------------ state
function ownsDecision() {
  if (st.seat === null || st.seat === undefined) return false;
  if (st.status === "finished" || st.result) return false;
  if (Array.isArray(st.waitingFor)) return st.waitingFor.includes(st.seat);
  const d = st.view && st.view.public && st.view.public.decision;
  if (d && Array.isArray(d.waiting)) return d.waiting.includes(st.seat);
  return true; // unknown: ask the server
}

function deriveWaiting(view) {
  const d = view && view.public && view.public.decision;
  if (d && Array.isArray(d.waiting)) return d.waiting;
  return null;
}

/** A new version (WebSocket message, POST answer, or GET). */
function applyState(msg, opts = {}) {
  const v = typeof msg.version === "number" ? msg.version : st.version;
  if (v < st.version) return;
  const waitingBefore = JSON.stringify(st.waitingFor);
  const meta = () => {
    if (Array.isArray(msg.waiting_for)) st.waitingFor = msg.waiting_for;
    if (msg.status) st.status = msg.status;
    if (msg.result !== undefined && msg.result !== null) st.result = msg.result;
  };
  if (v === st.version && st.view) {
    // same version again (the socket after our POST): only the metadata may be new
    meta();
    if (opts.fromSocket && JSON.stringify(st.waitingFor) !== waitingBefore) { renderAll(); refreshLegal(); }
    return;
  }
  const before = st.version;
  st.version = v;
  if (msg.view) st.view = msg.view;
  st.waitingFor = Array.isArray(msg.waiting_for) ? msg.waiting_for : deriveWaiting(st.view);
  meta();
  if (st.view && st.view.private && Number.isInteger(st.view.private.seat)) st.seat = st.view.private.seat;
  if (st.view && st.view.public && st.view.public.over && st.status !== "finished") st.status = "finished";
  if (Array.isArray(msg.events) && !msg.full) {
    // each version's events once; a jump past versions we never saw fetches them from /log
    if (msg.events.length && !st.log.some((e) => e.version === v)) st.log.push({ version: v, events: msg.events, live: true });
    if (before >= 0 && v > before + 1) loadLog(before);
  } else if (msg.full && before >= 0) {
    loadLog(before);
  }
  if (msg.clock && st.summary) takeClock(msg.clock);
  if (st.pending && st.sentVersion !== null && v > st.sentVersion) {
    st.pending = false;
    st.sentVersion = null;
  }
  st.legal = [];
  st.legalVersion = -1;
  renderAll();
  refreshLegal();
}

let legalSeq = 0;
async function refreshLegal() {
  const seq = ++legalSeq;
  if (!ownsDecision()) {
    st.legal = [];
    st.hints = null;
    st.legalVersion = st.version;
    renderBar();
    return;
  }
  try {
    const res = await api.legal(st.id);
    if (seq !== legalSeq) return;
    const actions = Array.isArray(res) ? res : (res.actions || []);
    const version = typeof res.version === "number" ? res.version : st.version;
    if (version > st.version) { resync(); return; }
    if (version < st.version) return; // a newer version is on its way; its own request follows
    st.legal = actions;
    st.hints = res.hints || null; // the engine's why-not reasons and costs for my seat
    st.legalVersion = version;
  } catch (err) {
    if (seq !== legalSeq) return;
    st.legal = [];
    st.legalVersion = st.version;
    if (!(err instanceof ApiError && (err.status === 403 || err.status === 409))) toast(err.message);
  }
  renderBar();
}

let resyncing = null;
async function resync() {
  if (resyncing) return resyncing;
  resyncing = (async () => {
    try {
      const g = await api.game(st.id);
      takeSummary(g);
      if (typeof g.version === "number" && g.version >= st.version) {
        const before = st.version;
        st.version = -1; // force
        applyState({ ...g, full: true });
        if (before >= 0 && g.version > before) loadLog(before);
      } else {
        refreshLegal();
      }
    } catch (err) {
      toast(err.message);
    } finally {
      st.pending = false;
      st.sentVersion = null;
      resyncing = null;
      renderBar();
    }
  })();
  return resyncing;
}

// ------------------------------------------------------------------ sending answers
async function send(action) {
  if (st.pending) return;
  if (!st.legal.length || st.legalVersion !== st.version) return;
  st.pending = true;
  st.sentVersion = st.version;
  renderBar();
  try {
    const res = await api.act(st.id, st.version, action);
    if (res && typeof res.version === "number" && res.version > st.version) {
      applyState(res);
    } else if (st.pending) {
      // the version came already over the socket
      st.pending = false;
      renderBar();
    }
  } catch (err) {
    st.pending = false;
    st.sentVersion = null;
    if (err instanceof ApiError && (err.status === 409 || err.status === 403)) {
      // the answers on the bar are out of date: none is offered until the game is read again
      st.legal = [];
      st.legalVersion = -1;
      renderBar();
      toast(err.status === 409 ? t("game.moved_on") : err.message);
      await resync();
    } else {
      renderBar();  // the same answers, usable again
      toast(err.message);
      refreshLegal();
    }
  }
}

// ------------------------------------------------------------------ log
function normaliseLog(data) {
  const list = Array.isArray(data) ? data : (data && (data.log || data.entries || data.versions || data.events)) || [];
  const out = [];
  for (const item of list) {
    if (!item || typeof item !== "object") continue;
    if (Array.isArray(item.events)) out.push({ version: item.version, events: item.events });
    else if (item.kind) {
      const last = out[out.length - 1];
      if (last && last.version === item.version) last.events.push(item);
      else out.push({ version: item.version, events: [item] });
    }
  }
  return out;
}

async function loadLog(after) {
  try {
    let from = Math.max(0, after);
    const entries = [];
    for (let page = 0; page < 40; page++) {
      const data = await api.log(st.id, from);
      const got = normaliseLog(data).filter((e) => typeof e.version !== "number" || e.version > after);
      entries.push(...got);
      const last = got.length ? got[got.length - 1].version : null;
      if (!data || !data.more || typeof last !== "number") break;
      from = last;
    }
    const known = new Set(st.log.map((e) => e.version));
    for (const e of entries) if (!known.has(e.version)) st.log.push(e);
    st.log.sort((a, b) => (a.version ?? 0) - (b.version ?? 0));
    if (ui) ui.renderLog();
  } catch {
    /* the log is a nicety */
  }
}

// ------------------------------------------------------------------ toasts
function toast(text) {
  const host = $("#toasts");
  const t = h("div", { class: "toast", role: "alert" }, text);
  host.appendChild(t);
  setTimeout(() => t.remove(), 5000);
}

// ------------------------------------------------------------------ header, waiting room
function renderHeader() {
  const g = st.summary || {};
  const title = tOr(`game.${st.gameName || g.game}.title`, (st.catalogInfo && st.catalogInfo.title) || g.title || g.game || t("game.game"));
  els.title.textContent = `${title} · #${st.id}`;
  document.title = t("game.doc_title", { title, id: st.id });
  const u = auth.user;
  clear(els.me).append(u ? h("span", { class: "who" }, t("auth.signed_in_as", { name: u.username })) : h("a", { href: "./" }, t("game.sign_in")),
    st.seat === null ? h("span", { class: "badge spectator" }, t("game.spectator")) : h("span", { class: "badge" }, t("game.you_are"), " ", seatTag(st.seat, { small: true })));
  const line = [];
  if (st.status === "open") { line.push(t("game.waiting_for_players")); setConn("idle", t("conn.not_started")); }
  else if (ui && ui.statusLine) line.push(...ui.statusLine());
  if (st.status === "running" || st.status === "finished") {
    const clocks = clockChips(g, g.clock);
    if (clocks) line.push(clocks);
  }
  if (g.hints) line.push(h("span", { class: "badge hints", title: t("hints.badge_help") }, t("hints.badge")));
  const undo = st.seat !== null ? undoButton(st, { applyState, resync, toast }) : null;
  if (undo) line.push(undo);
  const bell = auth.user ? notificationButton() : null;
  if (bell) line.push(bell);
  clear(els.status).append(...line);
  const away = awayBanner(st, { reload: () => refreshSummary(), toast });
  const old = document.getElementById("away-banner");
  if (old) old.remove();
  if (away) document.body.insertBefore(away, document.getElementById("decision"));
  document.title = titleWithCount(document.title, st.turns);
  const name = encodeURIComponent(st.gameName || g.game || "arknova");
  for (const a of document.querySelectorAll(".top-links a")) {
    if (/rules\.html/.test(a.getAttribute("href"))) a.href = `rules.html?game=${name}`;
    if (/cards\.html/.test(a.getAttribute("href"))) a.href = `cards.html?game=${name}`;
  }
}

/** A new clock (with a state message): a seat newly played by the platform may have been
 * handed to a bot, so the seats are read again then. */
function takeClock(clock) {
  const before = (st.summary && st.summary.clock) || null;
  st.summary = { ...st.summary, clock };
  const autos = (c) => JSON.stringify(Object.values((c && c.seats) || {}).map((e) => e.auto));
  if (before && autos(before) !== autos(clock)) refreshSummary();
}

async function refreshSummary() {
  try {
    const g = await api.game(st.id);
    takeSummary(g);
    renderAll();
    refreshLegal();
  } catch { /* the next message tries again */ }
}

function renderWaitingRoom() {
  const g = st.summary || {};
  const seats = Array.isArray(g.seats) ? g.seats : [];
  const total = g.seat_count || g.seats_total || (typeof g.seats === "number" ? g.seats : seats.length);
  const me = auth.user;
  const mine = seats.some((x) => x && me && (x.username === me.username || (x.user && (x.user.username === me.username || x.user === me.username))));
  const filled = seats.filter((x) => x && (x.user || x.username || x.bot)).length;
  const rows = [];
  for (let i = 0; i < Math.max(total, seats.length); i++) {
    const entry = seats.find((x) => x && x.seat === i) || seats[i];
    const taken = entry && (entry.user || entry.username || entry.bot);
    rows.push(h("li", null, seatTag(i), " ", taken ? (entry.bot ? h("em", t("seat.bot")) : "") : h("em", { class: "muted" }, t("game.free_seat"))));
  }
  const buttons = [];
  if (!me) buttons.push(h("a", { class: "btn", href: "./" }, t("lobby.sign_in_to_join")));
  else if (!mine) buttons.push(h("button", { class: "btn primary", id: "join-btn", onclick: async (e) => { e.target.disabled = true; try { await api.join(st.id); } catch (err) { toast(err.message); } load(); } }, t("game.join_this_game")));
  const creator = g.created_by && me && (g.created_by.username === me.username || g.created_by.id === me.id);
  if (mine && !creator) buttons.push(h("p", { class: "muted" }, (g.created_by && g.created_by.username) ? t("game.creator_starts", { name: g.created_by.username }) : t("game.the_creator_starts")));
  if (mine && creator) buttons.push(h("button", { class: "btn primary", id: "start-btn", disabled: filled < total, onclick: async (e) => { e.target.disabled = true; try { await api.start(st.id); } catch (err) { toast(err.message); } load(); } }, filled < total ? t("game.start_count", { filled, total }) : t("game.start_the_game")));
  const link = h("input", { readonly: true, value: location.href, "aria-label": t("game.link_aria"), onfocus: (e) => e.target.select() });
  clear(els.waiting).append(...[h("h2", t("game.waiting_for_players")), h("ul", { class: "seat-list" }, rows),
    filled < total ? h("p", { class: "invite" }, h("span", t("game.invite")), link) : null,
    // a joiner reads it before joining: the join is the agreement
    g.hints ? h("p", { class: "hints-note", id: "hints-note" }, h("span", { class: "badge hints" }, t("hints.badge")), " ", t("hints.badge_help")) : null,
    h("div", { class: "row" }, buttons)].filter(Boolean));
  els.waiting.hidden = false;
}

function renderAll() {
  renderHeader();
  chat.sync(st.seat, st.status);
  if (st.status === "open" || !st.view) {
    if (st.status === "open") renderWaitingRoom();
    renderBar();
    return;
  }
  els.waiting.hidden = true;
  document.body.classList.add("running");
  if (ui) ui.render();
  renderBar();
}

// ------------------------------------------------------------------ final screen: replay, rematch
// The table draws the final screen; these two buttons join it each time it is drawn.
function finalButtons() {
  const card = document.querySelector("#final-screen .final-card");
  if (!card || card.querySelector(".final-extra")) return;
  const buttons = [h("a", { class: "btn", id: "replay-link", href: `replay.html?id=${encodeURIComponent(st.id)}` }, t("final.replay"))];
  if (st.seat !== null && st.seat !== undefined && auth.user) {
    buttons.push(h("button", {
      class: "btn primary", type: "button", id: "rematch-btn",
      onclick: async (e) => {
        e.currentTarget.disabled = true;
        const btn = e.currentTarget;
        try {
          const g = await api.post(`/api/games/${encodeURIComponent(st.id)}/rematch`);
          // someone asked first and we are invited: clicking "Rematch" says yes
          if ((g.invited || []).includes(g.your_seat)) await api.post(`/api/games/${encodeURIComponent(g.id)}/rematch/accept`);
          location.href = `game.html?id=${encodeURIComponent(g.id)}`;
        } catch (err) {
          btn.disabled = false;
          toast(err.message);
        }
      },
    }, t("final.rematch")));
  }
  card.appendChild(h("p", { class: "final-extra row" }, buttons));
}
new MutationObserver(finalButtons).observe($("#final-screen"), { childList: true });

function renderBar() {
  if (st.status === "open") {
    clear(els.bar).append(h("div", { class: "bar-line" }, h("span", { class: "ask" }, t("game.not_started_yet"))));
    return;
  }
  if (!st.view) {
    clear(els.bar).append(h("div", { class: "bar-line" }, h("span", { class: "ask" }, st.error || t("common.loading"))));
    return;
  }
  if (ui) ui.renderBar(); // its every drawing ends with hints.attach (decorateBar)
  document.body.classList.toggle("my-turn", st.legal.length > 0 && !st.pending);
  document.body.dataset.version = String(st.version);
}

// ------------------------------------------------------------------ loading
function takeSummary(g) {
  const { view, ...rest } = g;
  st.summary = rest;
  st.status = g.status || st.status;
  if (Array.isArray(g.waiting_for)) st.waitingFor = g.waiting_for;
  if (g.result) st.result = g.result;
  setSeats(Array.isArray(g.seats) ? g.seats : []);
  const me = auth.user;
  if (view && view.private && Number.isInteger(view.private.seat)) st.seat = view.private.seat;
  else if (Number.isInteger(g.your_seat)) st.seat = g.your_seat;
  else if (me && Array.isArray(g.seats)) {
    const found = g.seats.find((x) => x && (x.username === me.username || (x.user && (x.user.username === me.username || x.user === me.username))));
    st.seat = found && Number.isInteger(found.seat) ? found.seat : null;
    if (view && !view.private) st.seat = null;
  }
}

let pollTimer = null;
async function load() {
  if (!st.id) {
    st.error = t("game.no_id");
    renderBar();
    return;
  }
  let g;
  try {
    g = await api.game(st.id);
  } catch (err) {
    st.error = err.status === 404 ? t("game.no_such_game") : err.message;
    clear(els.bar).append(h("div", { class: "bar-line" }, h("span", { class: "ask" }, st.error)));
    return;
  }
  takeSummary(g);
  st.gameName = g.game;
  if (!st.catalog) {
    ui = await mountTable(st, g.game, { send, toast, decorateBar: (bar) => hints.attach(bar) });
    window.menagerie.ui = ui;
  }
  clearTimeout(pollTimer);
  if (g.status === "open") {
    renderAll();
    chat.catchUp(); // no socket before the start
    pollTimer = setTimeout(load, 2500);
    return;
  }
  const fresh = st.version < 0;
  if (g.view && (typeof g.version !== "number" || g.version >= st.version)) {
    st.version = -1;
    applyState({ ...g, full: !fresh });
  } else {
    renderAll();
  }
  if (fresh) {
    loadLog(0);
    live.connect();
  }
}

// ------------------------------------------------------------------ keyboard, misc
document.addEventListener("keydown", (e) => {
  if (e.target && (e.target.tagName === "INPUT" || e.target.tagName === "TEXTAREA" || e.target.isContentEditable)) return;
  if (ui && ui.onKey && ui.onKey(e)) e.preventDefault();
});

els.conn.addEventListener("click", () => live.now());
window.addEventListener("online", () => live.now());

// ------------------------------------------------------------------ your turn (all my games)
async function recount() {
  st.turns = await countMyTurns();
  setBadge(st.turns);
  document.title = titleWithCount(document.title, st.turns);
}

const feed = new TurnFeed((msg) => {
  recount();
  if (msg.type !== "your_turn") return;
  const here = String(msg.game) === String(st.id);
  if (!here) {
    const host = $("#toasts");
    const note = h("div", { class: "toast turn-toast", role: "status" }, turnNotice(msg));
    host.appendChild(note);
    setTimeout(() => note.remove(), 15000);
  }
  if (!here || document.hidden) showNotification(msg);
});
if (auth.user) { feed.start(); recount(); }
document.addEventListener("keydown", (e) => {
  if ((e.ctrlKey || e.metaKey) && !e.shiftKey && e.key.toLowerCase() === "z") {
    const btn = document.getElementById("undo-btn");
    if (btn && !btn.disabled) { e.preventDefault(); btn.click(); }
  }
});

// hooks for tests and the curious
window.menagerie = { state: st, live, send, resync, refreshLegal, ui: null, chat, feed };

load();
export { st, send, toast };
