// The replay viewer: any version of a game, drawn by the game table's own renderers.
// GET /api/games/{id}/history?version=V gives the view at V (public while the game runs; after the
// end also every seat's private part), the events of V and the versions where a break or round
// began. Step with the buttons, the slider or the keyboard (← → Home End, Page Up/Down for breaks).
import { api, ApiError } from "./api.js";
import { h, clear, $ } from "./dom.js";
import { injectSprite } from "./icons.js";
import { setSeats, seatTag, seatName } from "./seats.js";
import { mountTable } from "./mount.js";
import { t, tOr, setupPage, unfilled } from "./i18n.js";
import { AnalysisPanel, labelText } from "./analysis.js";
import { showSuggestion, clearSuggestion } from "./suggest.js";
import { toast } from "./toast.js";
import { expose } from "./hooks.js";

injectSprite();
setupPage();

const params = new URLSearchParams(location.search);
const gameId = params.get("id");

// the same shape as the game page's state: the table renderers read it
const st = {
  id: gameId,
  summary: null,
  gameName: null,
  catalog: null,
  byId: new Map(),
  version: -1,
  view: null,
  status: null,
  waitingFor: null,
  result: null,
  seat: null,
  legal: [],
  legalVersion: -1,
  pending: false,
  sentVersion: null,
  log: [],
  error: null,
};

const rp = {
  last: 0,
  marks: [],
  finished: false,
  privates: null,
  asSeat: null,      // whose private part is shown (after the end), null: the public view
  current: null,     // the history answer shown now
  want: null,        // the version asked for last
  loading: false,
  cache: new Map(),  // version -> history answer
  events: new Map(), // version -> events (the log)
  timer: null,
  suggest: null,     // {version, seat, action}: a mistake's better answer, drawn at its version
};
let panel = null;

const els = {
  title: $("#game-title"),
  status: $("#status-line"),
  where: $("#replay-where"),
  slider: $("#rp-slider"),
  marks: $("#rp-marks"),
  play: $("#rp-play"),
  as: $("#replay-as"),
  asLabel: $("#replay-as-label"),
};

let ui = null;

// ------------------------------------------------------------------ loading versions
async function fetchVersion(v) {
  if (rp.cache.has(v)) return rp.cache.get(v);
  const data = await api.get(`/api/games/${encodeURIComponent(st.id)}/history?version=${v}`);
  if (rp.cache.size > 300) rp.cache.delete(rp.cache.keys().next().value);
  rp.cache.set(v, data);
  return data;
}

/** Show version `v` (the latest request wins; requests never overlap). */
async function goTo(v) {
  if (!Number.isFinite(v)) return;
  v = Math.max(0, Math.min(rp.last, Math.round(v)));
  rp.want = v;
  if (rp.loading) return;
  rp.loading = true;
  document.body.dataset.loading = "1";
  try {
    while (rp.want !== null && (!rp.current || rp.current.version !== rp.want)) {
      const target = rp.want;
      let data;
      try {
        data = await fetchVersion(target);
      } catch (err) {
        toast(err.message);
        break;
      }
      if (rp.want === target) show(data);
    }
  } finally {
    rp.loading = false;
    delete document.body.dataset.loading;
  }
}

function show(data) {
  // arriving at the end (again) shows the table's final screen again
  if (ui && data.version === data.last && (!rp.current || rp.current.version !== data.version)) ui.finalDismissed = false;
  rp.current = data;
  rp.last = data.last;
  rp.marks = Array.isArray(data.marks) ? data.marks : [];
  rp.finished = data.status === "finished";
  rp.privates = data.privates || null;
  if (!rp.privates) rp.asSeat = null;
  st.version = data.version;
  st.seat = rp.privates && rp.asSeat !== null ? rp.asSeat : null;
  const priv = rp.privates && rp.asSeat !== null ? rp.privates[String(rp.asSeat)] || null : null;
  st.view = { public: data.view.public, private: priv };
  st.waitingFor = Array.isArray(data.waiting_for) ? data.waiting_for : [];
  st.status = rp.finished && data.version === data.last ? "finished" : "running";
  st.result = data.version === data.last ? data.result || null : null;
  if (data.version > 0) rp.events.set(data.version, Array.isArray(data.events) ? data.events : []);
  st.log = [...rp.events.entries()].filter(([ver]) => ver <= data.version).sort((a, b) => a[0] - b[0])
    .map(([version, events]) => ({ version, events }));
  if (ui) {
    ui.render();
    ui.renderBar();
  }
  renderHeader();
  renderControls();
  drawSuggestion();
  if (panel) panel.moved(data.version);
  document.body.dataset.version = String(data.version);
}

/** The better answer of the chosen mistake, on the board while its version is shown. */
function drawSuggestion() {
  const d = rp.current;
  if (!ui || !d) return;
  if (rp.suggest && rp.suggest.version === d.version) {
    document.body.dataset.suggested = String(showSuggestion(ui, rp.suggest.action, !rp.suggest.shown));
    rp.suggest.shown = true;
  } else {
    clearSuggestion(ui);
    delete document.body.dataset.suggested;
  }
}

/** A mistake was clicked: its seat's view (hand, zoo) at its version, the better answer drawn. */
function selectMistake(m) {
  togglePlay(false);
  // the better answer and the seat's own follow-ups after it (the folder a Cards action draws)
  rp.suggest = { version: m.version, seat: m.seat, action: [m.best, ...(Array.isArray(m.best_line) ? m.best_line : [])],
    label: labelText(m.text && m.text.best, ui), chosen: labelText(m.text && m.text.chosen, ui) };
  if (rp.privates || rp.finished) rp.asSeat = m.seat;
  if (ui) ui.viewSeat = m.seat;
  if (rp.current && rp.current.version === m.version) show(rp.current);
  else goTo(m.version);
}

async function loadLog() {
  // the events of every version up to now (as this viewer may see them), for the log panel
  let after = 0;
  for (let page = 0; page < 100; page++) {
    let data;
    try {
      data = await api.log(st.id, after);
    } catch {
      return;
    }
    const entries = (data && data.entries) || [];
    for (const e of entries) {
      if (typeof e.version === "number" && !rp.events.has(e.version)) rp.events.set(e.version, e.events || []);
    }
    if (!data || !data.more || !entries.length) break;
    after = entries[entries.length - 1].version;
  }
  if (rp.current) show(rp.current);
}

// ------------------------------------------------------------------ drawing the controls
const KIND = { move: () => t("replay.kind.move"), auto: () => t("replay.kind.auto"), undo: () => t("replay.kind.undo"),
  resign: () => t("replay.kind.resign"), abort: () => t("replay.kind.abort"), confirm: () => t("replay.kind.confirm") };

function renderHeader() {
  const g = st.summary || {};
  const title = tOr(`game.${st.gameName || g.game}.title`, (st.catalogInfo && st.catalogInfo.title) || g.title || g.game || t("game.game"));
  els.title.textContent = t("replay.title", { title, id: st.id });
  document.title = t("replay.doc_title", { title, id: st.id });
  const line = ui && ui.statusLine && st.view ? ui.statusLine() : [];
  clear(els.status).append(...line);
}

function markLabel(m) {
  const n = m.number ?? "?";
  return m.kind === "break" ? t("replay.mark.break", { n, v: m.version }) : t("replay.mark.round", { n, v: m.version });
}

function renderControls() {
  const d = rp.current;
  if (!d) return;
  els.slider.max = String(rp.last);
  els.slider.value = String(d.version);
  els.slider.setAttribute("aria-valuetext", t("replay.where", { v: d.version, last: rp.last }));
  // at a mistake of the analysis: the seat that decides here, what it chose, what was better
  // (not who made the move that led here)
  const atMistake = rp.suggest && rp.suggest.version === d.version && rp.suggest.label;
  const who = atMistake ? [" · ", seatTag(rp.suggest.seat, { small: true }), " ", t("analysis.decides_here", { chosen: rp.suggest.chosen || "?" })]
    : d.seat !== null && d.seat !== undefined
      ? [" · ", seatTag(d.seat, { small: true }), " ", (KIND[d.kind] || KIND.move)()] : [" · ", t("replay.start")];
  const parts = [h("span", { class: "num", id: "replay-version" }, t("replay.where", { v: d.version, last: rp.last })), ...who];
  if (!rp.finished) parts.push(h("span", { class: "muted small" }, ` · ${t("replay.running")}`));
  if (atMistake) {
    parts.push(h("span", { class: "an-better", id: "an-better" }, ` · ${t("analysis.better", { label: rp.suggest.label })}`));
  }
  clear(els.where).append(...parts);
  $("#rp-first").disabled = d.version <= 0;
  $("#rp-prev").disabled = d.version <= 0;
  $("#rp-next").disabled = d.version >= rp.last;
  $("#rp-last").disabled = d.version >= rp.last;
  $("#rp-prev-mark").disabled = !rp.marks.some((m) => m.version < d.version);
  $("#rp-next-mark").disabled = !rp.marks.some((m) => m.version > d.version);
  // the list of breaks / rounds
  const key = rp.marks.map((m) => m.version).join(",");
  if (els.marks.dataset.key !== key) {
    els.marks.dataset.key = key;
    clear(els.marks).append(h("option", { value: "" }, rp.marks.length ? t("replay.choose_mark") : t("replay.no_marks")),
      ...rp.marks.map((m) => h("option", { value: String(m.version) }, markLabel(m))));
    els.marks.disabled = !rp.marks.length;
  }
  const at = [...rp.marks].reverse().find((m) => m.version <= d.version);
  els.marks.value = at ? String(at.version) : "";
  // whose hand to show (after the end only)
  els.asLabel.hidden = !rp.privates;
  if (rp.privates && !els.as.options.length) {
    els.as.append(h("option", { value: "" }, t("replay.as_spectator")),
      ...Object.keys(rp.privates).map((q) => h("option", { value: q }, seatName(Number(q)))));
  }
  els.as.value = rp.asSeat === null ? "" : String(rp.asSeat);
  els.play.textContent = rp.timer ? t("replay.pause") : t("replay.play");
  els.play.setAttribute("aria-pressed", String(!!rp.timer));
}

// ------------------------------------------------------------------ moving
const here = () => (rp.want ?? (rp.current ? rp.current.version : 0));

function step(by) { goTo(here() + by); }

function jumpMark(dir) {
  const v = here();
  const list = rp.marks.map((m) => m.version);
  const target = dir < 0 ? [...list].reverse().find((x) => x < v) : list.find((x) => x > v);
  if (target !== undefined) goTo(target);
}

function togglePlay(force) {
  const on = force ?? !rp.timer;
  clearInterval(rp.timer);
  rp.timer = null;
  if (on) {
    if (here() >= rp.last) goTo(0);
    rp.timer = setInterval(() => {
      if (here() >= rp.last) { togglePlay(false); return; }
      if (!rp.loading) step(1);
    }, 700);
  }
  renderControls();
}

$("#rp-first").addEventListener("click", () => goTo(0));
$("#rp-last").addEventListener("click", () => goTo(rp.last));
$("#rp-prev").addEventListener("click", () => step(-1));
$("#rp-next").addEventListener("click", () => step(1));
$("#rp-prev-mark").addEventListener("click", () => jumpMark(-1));
$("#rp-next-mark").addEventListener("click", () => jumpMark(1));
els.play.addEventListener("click", () => togglePlay());
els.slider.addEventListener("input", () => goTo(Number(els.slider.value)));
els.marks.addEventListener("change", () => { if (els.marks.value !== "") goTo(Number(els.marks.value)); });
els.as.addEventListener("change", () => {
  rp.asSeat = els.as.value === "" ? null : Number(els.as.value);
  if (ui) ui.viewSeat = rp.asSeat ?? ui.viewSeat;
  if (rp.current) show(rp.current);
});

document.addEventListener("keydown", (e) => {
  const tag = e.target && e.target.tagName;
  if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA" || (e.target && e.target.isContentEditable)) return;
  if (e.altKey || e.ctrlKey || e.metaKey) return;
  const keys = {
    ArrowLeft: () => step(-1), ArrowRight: () => step(1), Home: () => goTo(0), End: () => goTo(rp.last),
    PageUp: () => jumpMark(-1), PageDown: () => jumpMark(1),
  };
  const fn = keys[e.key];
  if (fn) { e.preventDefault(); fn(); }
});

// ------------------------------------------------------------------ start
async function load() {
  if (!st.id) {
    els.where.textContent = t("game.no_id");
    return;
  }
  $("#table-link").href = `game.html?id=${encodeURIComponent(st.id)}`;
  let g;
  try {
    g = await api.game(st.id);
  } catch (err) {
    els.where.textContent = err.status === 404 ? t("game.no_such_game") : err.message;
    return;
  }
  const { view, ...summary } = g;
  st.summary = summary;
  st.gameName = g.game;
  setSeats(Array.isArray(g.seats) ? g.seats : []);
  for (const a of document.querySelectorAll(".top-links a[href^='rules.html']")) a.href = `rules.html?game=${encodeURIComponent(g.game)}`;
  if (g.status === "open") {
    els.where.textContent = t("replay.not_started");
    renderHeader();
    return;
  }
  ui = await mountTable(st, g.game, { send: () => {}, toast, privates: async () => rp.privates });
  document.body.classList.add("running"); // the table's full-window layout
  const asked = params.get("v");
  let first;
  try {
    first = await fetchVersion(asked !== null && /^\d+$/.test(asked) ? Math.min(Number(asked), g.version) : g.version);
  } catch (err) {
    els.where.textContent = err instanceof ApiError ? err.message : String(err);
    return;
  }
  rp.last = first.last;
  show(first);
  loadLog();
  if (g.status === "finished") {
    const host = $("#analysis");
    panel = new AnalysisPanel(host, { gameId: st.id, last: () => rp.last, here, goTo, select: selectMistake, ui: () => ui });
    host.hidden = false;
    panel.load();
    finalAnalysisButton();
  }
}

// the end's final screen covers the analysis box: a button on it leads there
function finalAnalysisButton() {
  const card = document.querySelector("#final-screen .final-card");
  if (!panel || !card || card.querySelector("#final-analysis")) return;
  card.appendChild(h("p", { class: "final-extra row" }, h("button", {
    class: "btn", type: "button", id: "final-analysis",
    onclick: () => {
      if (ui) ui.finalDismissed = true;
      $("#final-screen").hidden = true;
      const box = $("#analysis");
      box.open = true;
      box.scrollIntoView({ block: "start" });
    },
  }, t("analysis.show"))));
}
new MutationObserver(finalAnalysisButton).observe($("#final-screen"), { childList: true });

// the page keeps room for the replay bar (set on <body>: the table's hidden decision bar
// measures itself on <html>)
const replayBar = $("#replay-bar");
new ResizeObserver(() => document.body.style.setProperty("--bar-h", `${replayBar.offsetHeight}px`)).observe(replayBar);

// window.menagerie, for tests and outside tools (hooks.js)
expose({ state: st, replay: rp, goTo, unfilled, get ui() { return ui; }, get analysis() { return panel; } });

load();
