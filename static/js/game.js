// The game page: loads a game, keeps it live over the WebSocket, renders it, sends answers.
// What is legal comes only from GET /legal; what is true only from the view. Around it: the
// socket (live.js), the log's missed versions (gamelog.js), the header, waiting room, final
// buttons and toasts (gamechrome.js), the Hint button (hintbutton.js).
import { api, auth, ApiError } from "./api.js";
import { h, clear, $ } from "./dom.js";
import { injectSprite } from "./icons.js";
import { setSeats } from "./seats.js";
import { mountTable } from "./mount.js";
import { Chat } from "./chat.js";
import { HintButton } from "./hintbutton.js";
import { t, setupPage, unfilled } from "./i18n.js";
import { countMyTurns, setBadge, showNotification, titleWithCount, TurnFeed, turnNotice } from "./asyncplay.js";
import { Live, setConn } from "./live.js";
import { loadLog as readLog, loadPrivates } from "./gamelog.js";
import { renderHeader, renderWaitingRoom, watchFinalScreen } from "./gamechrome.js";
import { toast } from "./toast.js";
import { expose } from "./hooks.js";
import { heldOf, turnEnder, turnKeys } from "./turnend.js";

injectSprite();
setupPage();

const params = new URLSearchParams(location.search);
const gameId = params.get("id");

// the page state, owned by this page: the modules it uses get it as an argument (none imports it)
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
  held: null,         // the seat whose finished turn waits for its confirm (turnend.js)
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

const conn = (state, text) => setConn(els.conn, state, text);
const live = new Live(st, { onMessage: (msg) => onMessage(msg), conn });
// the page's parts drawn by gamechrome.js
const page = {
  st, els, ui: () => ui, conn,
  applyState: (...a) => applyState(...a), resync: () => resync(), refreshSummary: () => refreshSummary(), load: () => load(),
};

// ------------------------------------------------------------------ live updates
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
    const seat = Number.isInteger(msg.seat) ? msg.seat : null;
    if (seat === st.seat && seat === viewSeat()) return; // told the seat the page already shows
    st.seat = seat;
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
  if (st.seat === null || st.seat === undefined || st.status === "finished" || st.result) return false;
  if (Array.isArray(st.waitingFor)) return st.waitingFor.includes(st.seat);
  const d = st.view && st.view.public && st.view.public.decision;
  if (d && Array.isArray(d.waiting)) return d.waiting.includes(st.seat);
  return true; // unknown: ask the server
}

const viewSeat = () => (Number.isInteger(st.view?.private?.seat) ? st.view.private.seat : null);
function deriveWaiting(view) {
  const d = view && view.public && view.public.decision;
  return d && Array.isArray(d.waiting) ? d.waiting : null;
}

/** A new version (WebSocket message, POST answer, or GET). */
function applyState(msg, opts = {}) {
  const v = typeof msg.version === "number" ? msg.version : st.version;
  if (v < st.version) return;
  const waitingBefore = JSON.stringify(st.waitingFor);
  const meta = () => {
    if (Array.isArray(msg.waiting_for)) st.waitingFor = msg.waiting_for;
    st.held = heldOf(msg);
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
      const g = await api.game(st.id), waiting = JSON.stringify(st.waitingFor);
      takeSummary(g);
      // a newer version, or another seat's view: drawn again; the same version and seat keep
      // the bar as it is (a keep's picked cards, say), its answers asked again only if stale
      if (typeof g.version === "number" && (g.version > st.version || (g.version === st.version && viewSeat() !== st.seat))) {
        const before = st.version;
        st.version = -1; // force
        applyState({ ...g, full: true });
        if (before >= 0 && g.version > before) loadLog(before);
      } else if (st.legalVersion !== st.version || JSON.stringify(st.waitingFor) !== waiting) refreshLegal();
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
  const sent = st.sentVersion = st.version;
  renderBar();
  try {
    const res = await api.act(st.id, st.version, action, true);
    if (res && typeof res.version === "number" && res.version > st.version) {
      applyState(res);
    } else if (st.pending && st.sentVersion === sent) {
      // the version came already over the socket (and no confirm was sent since)
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

const endTurn = turnEnder(st, { applyState, resync, renderBar, toast });

// ------------------------------------------------------------------ log
const loadLog = (after) => readLog(st, after, () => { if (ui) ui.renderLog(); });

// ------------------------------------------------------------------ header, clocks
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

function renderAll() {
  renderHeader(page);
  chat.sync(st.seat, st.status);
  if (st.status === "open" || !st.view) {
    if (st.status === "open") renderWaitingRoom(page);
    renderBar();
    return;
  }
  els.waiting.hidden = true;
  document.body.classList.add("running");
  if (ui) ui.render();
  renderBar();
}

watchFinalScreen(st);

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
  // whose turn it is belongs to a version: a summary answered late (after the socket's newer
  // version) must not bring an older waiting list back (the page would wait for a seat for good)
  if (typeof g.version !== "number" || g.version >= st.version) {
    st.status = g.status || st.status;
    if (Array.isArray(g.waiting_for)) st.waitingFor = g.waiting_for;
    st.held = heldOf(g);
    if (g.result) st.result = g.result;
  }
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
let mounting = null;
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
  if (!st.catalog) { // (two loads at once mount one table)
    mounting ||= mountTable(st, g.game, { send, toast, endTurn, decorateBar: (bar) => hints.attach(bar), privates: () => loadPrivates(st.id) });
    ui = await mounting;
  }
  clearTimeout(pollTimer);
  if (g.status === "open") {
    renderAll();
    chat.catchUp(); // no socket before the start
    pollTimer = setTimeout(load, 2500);
    return;
  }
  const fresh = st.version < 0;
  // a load answered after another one (the waiting room's poll and Start) leaves a page that
  // shows the same version and seat as it is: drawing it again would drop the bar's answers
  if (g.view && (typeof g.version !== "number" || g.version > st.version || (g.version === st.version && viewSeat() !== st.seat))) {
    st.version = -1;
    applyState({ ...g, full: !fresh });
  } else if (!g.view || g.version !== st.version) renderAll();
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
  if (!here) toast(turnNotice(msg), { class: "turn-toast", role: "status", ms: 15000 });
  if (!here || document.hidden) showNotification(msg);
});
if (auth.user) { feed.start(); recount(); }
turnKeys(st, endTurn); // Enter confirms a held turn, Ctrl+Z takes back

expose({ state: st, live, send, endTurn, resync, refreshLegal, chat, feed, unfilled, get ui() { return ui; } }); // window.menagerie (hooks.js)

load();
