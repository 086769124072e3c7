// Quick match (issue #33): the lobby's box where a player posts a seek (game, players, time,
// rated or casual, the opponents' rating range, how long it waits), sees their own seeks and
// the open seeks of others (a two-player one can be accepted at once). The server pairs
// compatible seeks into a started game; this page hears it on the per-user socket (the
// lobby's TurnFeed re-sends its messages as "menagerie:notice" events) or on its next poll,
// and goes to the game. GET/POST /api/seeks, POST /api/seeks/{id}/accept, DELETE /api/seeks/{id}.
import { api, auth, request } from "./api.js";
import { h, clear, $, cap, timeAgo } from "./dom.js";
import { t, tOr } from "./i18n.js";
import { describeControl } from "./asyncplay.js";
import { toast } from "./toast.js";

const TIMES = { untimed: null, "move-600": { mode: "move", seconds: 600 },
  "move-86400": { mode: "move", seconds: 86400 }, "move-259200": { mode: "move", seconds: 259200 } };
const WAITS = [[15, () => t("seek.wait_15m")], [60, () => t("seek.wait_1h")], [24 * 60, () => t("seek.wait_1d")], [7 * 24 * 60, () => t("seek.wait_1w")]];
const STATUS = { open: () => t("seek.status_open"), paired: () => t("seek.status_paired"), expired: () => t("seek.status_expired"), cancelled: () => t("seek.status_cancelled") };
const RANGES = [0, 100, 200, 400];
const state = { catalog: [], form: { game: null, seats: 2, time: "move-86400", rated: true, range: 0, minutes: 60 }, waiting: new Set(), gone: false };

const titleOf = (name) => {
  const d = state.catalog.find((x) => x.name === name);
  return tOr(`game.${name}.title`, d ? d.title : cap(name || "game"));
};

function go(gameId) {
  if (state.gone) return;
  state.gone = true;
  location.href = `game.html?id=${encodeURIComponent(gameId)}`;
}

function describe(s) {
  const range = s.rating_min === null && s.rating_max === null ? t("seek.any_rating")
    : t("seek.range", { min: s.rating_min ?? "…", max: s.rating_max ?? "…" });
  return [t("newgame.n_players", { count: s.seats }), describeControl(s.time_control),
    s.rated ? t("seek.rated") : t("seek.casual"), range].join(" · ");
}

function mineItem(s) {
  const actions = [];
  if (s.status === "open") {
    actions.push(h("button", { class: "btn small", type: "button", dataset: { cancelSeek: s.id }, onclick: async () => {
      try { await request("DELETE", `/api/seeks/${encodeURIComponent(s.id)}`); } catch (err) { toast(err.message); }
      render();
    } }, t("seek.cancel")));
  } else if (s.status === "paired" && s.game_id) {
    actions.push(h("a", { class: "btn primary small", href: `game.html?id=${encodeURIComponent(s.game_id)}`, dataset: { seekGame: s.game_id } }, t("seek.to_game")));
  }
  return h("li", { class: "game-item seek-item", dataset: { seek: s.id, status: s.status } },
    h("span", { class: "gi-title" }, titleOf(s.game)),
    h("span", { class: "badge" }, (STATUS[s.status] || (() => s.status))()),
    h("span", { class: "small muted" }, describe(s)),
    s.status === "open" ? h("span", { class: "small muted" }, t("seek.until", { when: new Date(s.expires_at).toLocaleTimeString() })) : null,
    h("span", { class: "gi-actions" }, actions));
}

function otherItem(s) {
  return h("li", { class: "game-item seek-item", dataset: { seek: s.id } },
    h("span", { class: "gi-title" }, titleOf(s.game)),
    h("span", null, t("seek.by", { name: s.user.username, rating: s.rating })),
    h("span", { class: "small muted" }, describe(s)),
    h("span", { class: "small muted" }, timeAgo(s.created_at)),
    h("span", { class: "gi-actions" }, s.can_accept ? h("button", { class: "btn primary small", type: "button", dataset: { acceptSeek: s.id }, onclick: async (e) => {
      e.currentTarget.disabled = true;
      try {
        const made = await api.post(`/api/seeks/${encodeURIComponent(s.id)}/accept`);
        if (made.game) go(made.game.id);
      } catch (err) { toast(err.message); render(); }
    } }, t("seek.accept")) : null));
}

function form(data) {
  const f = state.form;
  const games = state.catalog.filter((d) => ((d.seats && d.seats.max) || 2) >= 2);
  if (!games.length) return null;
  if (!games.some((d) => d.name === f.game)) f.game = games[0].name;
  const d = games.find((x) => x.name === f.game);
  const lo = Math.max(2, (d.seats && d.seats.min) || 2); const hi = (d.seats && d.seats.max) || lo;
  f.seats = Math.min(hi, Math.max(lo, f.seats));
  const rating = (data.ratings || {})[f.game] ?? 1500;
  const sel = (id, value, options, onchange) => h("select", { id, onchange: (e) => { onchange(e.target.value); draw(data); } },
    options.map(([v, label]) => h("option", { value: v, selected: String(v) === String(value) }, label)));
  return h("div", { class: "seek-form" },
    h("label", null, t("newgame.game"), " ", sel("seek-game", f.game, games.map((x) => [x.name, titleOf(x.name)]), (v) => { f.game = v; })),
    h("label", null, t("newgame.players"), " ", sel("seek-seats", f.seats, Array.from({ length: hi - lo + 1 }, (_, i) => [lo + i, String(lo + i)]), (v) => { f.seats = Number(v); })),
    h("label", null, t("seek.time"), " ", sel("seek-time", f.time, Object.keys(TIMES).map((k) => [k, describeControl(TIMES[k])]), (v) => { f.time = v; })),
    h("label", null, t("seek.opponents"), " ", sel("seek-range", f.range, RANGES.map((r) => [r, r ? t("seek.within", { n: r, rating }) : t("seek.any_rating")]), (v) => { f.range = Number(v); })),
    h("label", null, t("seek.wait"), " ", sel("seek-wait", f.minutes, WAITS.map(([m, label]) => [m, label()]), (v) => { f.minutes = Number(v); })),
    h("label", { class: "seek-rated" }, h("input", { type: "checkbox", id: "seek-rated", checked: f.rated, onchange: (e) => { f.rated = e.target.checked; } }), " ", t("seek.rated")),
    h("button", { class: "btn primary small", type: "button", id: "seek-post", onclick: async (e) => {
      e.currentTarget.disabled = true;
      const body = { game: f.game, seats: f.seats, rated: f.rated, minutes: f.minutes };
      if (TIMES[f.time]) body.time_control = TIMES[f.time];
      if (f.range) { body.rating_min = Math.max(0, rating - f.range); body.rating_max = rating + f.range; }
      try {
        const made = await api.post("/api/seeks", body);
        if (made.game) { go(made.game.id); return; }
        state.waiting.add(made.seek.id);
      } catch (err) { toast(err.message); }
      render();
    } }, t("seek.post")));
}

function draw(data) {
  const mine = data.mine || [];
  const others = (data.seeks || []).filter((s) => !s.mine);
  clear($("#seeks-body")).append(...[
    h("p", { class: "muted small" }, t("seek.intro")),
    auth.user ? form(data) : h("p", { class: "muted" }, t("seek.sign_in")),
    mine.length ? h("h3", null, t("seek.yours")) : null,
    mine.length ? h("ul", { class: "game-list", id: "my-seeks" }, mine.map(mineItem)) : null,
    h("h3", null, t("seek.others")),
    h("ul", { class: "game-list", id: "list-seeks" }, others.length ? others.map(otherItem) : [h("li", { class: "empty-note" }, t("seek.none"))]),
  ].filter(Boolean));
}

let rendering = false;
async function render() {
  const box = $("#seeks");
  if (!box || rendering) return;
  rendering = true;
  try {
    if (!state.catalog.length) {
      try { state.catalog = await api.catalog(); } catch { state.catalog = []; }
      if (!Array.isArray(state.catalog)) state.catalog = [];
    }
    let data;
    try { data = await api.get("/api/seeks"); } catch { box.hidden = true; return; }
    // a seek of this page paired while the socket was away: the game
    const done = (data.mine || []).find((s) => s.status === "paired" && state.waiting.has(s.id));
    if (done) { go(done.game_id); return; }
    for (const s of data.mine || []) if (s.status === "open") state.waiting.add(s.id);
    draw(data);
    box.hidden = false;
  } finally {
    rendering = false;
  }
}

if ($("#seeks")) {
  render();
  window.addEventListener("menagerie:auth", () => render());
  window.addEventListener("focus", () => render());
  setInterval(() => { if (!document.hidden) render(); }, 8000);
  // the per-user socket (the lobby's TurnFeed): paired -> the game; expired -> the list
  window.addEventListener("menagerie:notice", (e) => {
    const msg = e.detail || {};
    if (msg.type !== "seek") return;
    if (msg.status === "paired" && msg.game) { toast(t("seek.matched", { title: titleOf(msg.name) })); go(msg.game); return; }
    if (msg.status === "expired") toast(t("seek.expired"));
    render();
  });
}
