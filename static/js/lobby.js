// The lobby: sign in or register in place, the game lists, and the "New game" form.
import { api, auth, asList, ApiError, request } from "./api.js";
import { h, clear, $, cap, timeAgo } from "./dom.js";
import { injectSprite } from "./icons.js";
import { seatColour, botLabel } from "./seats.js";
import { t, tOr, setupPage } from "./i18n.js";
import { renderPreferences } from "./notifyprefs.js";
import { renderDailyCard } from "./daily.js";
import { describeControl, glyph, notificationButton, setBadge, showNotification, timeControlFieldset,
  titleWithCount, TurnFeed } from "./asyncplay.js";

injectSprite();
setupPage();

const state = { catalog: [], bots: [], busy: false };

function seatBadge(seat) {
  const c = seatColour(seat);
  return h("span", { class: "seat-chip small", style: { background: c.fill, color: c.ink } }, String(seat + 1));
}

function toast(text) {
  const t = h("div", { class: "toast", role: "alert" }, text);
  $("#toasts").appendChild(t);
  setTimeout(() => t.remove(), 5000);
}

// ------------------------------------------------------------------ auth
function renderAuth() {
  const host = $("#auth");
  const user = auth.user;
  if (user) {
    clear(host).append(
      h("span", { class: "who" }, t("auth.signed_in_as", { name: user.username })),
      h("button", { class: "btn small", type: "button", id: "logout", onclick: logout }, t("auth.log_out")),
      h("button", { class: "btn small", type: "button", id: "logout-everywhere", title: t("auth.log_out_everywhere_hint"), onclick: logoutEverywhere }, t("auth.log_out_everywhere")),
      h("button", { class: "btn small", type: "button", id: "change-password", "aria-expanded": "false", onclick: (e) => togglePasswordForm(host, e.currentTarget) }, t("auth.change_password")));
    return;
  }
  const err = h("span", { class: "form-error", id: "auth-error", role: "alert" });
  const name = h("input", { id: "auth-user", name: "username", autocomplete: "username", placeholder: t("auth.name"), required: true, "aria-label": t("auth.user_name"), maxlength: 32 });
  const pass = h("input", { id: "auth-pass", name: "password", type: "password", autocomplete: "current-password", placeholder: t("auth.password"), required: true, "aria-label": t("auth.password") });
  const submit = async (mode) => {
    err.textContent = "";
    if (!name.value || !pass.value) { err.textContent = t("auth.enter_both"); return; }
    try {
      const res = mode === "register" ? await api.register(name.value.trim(), pass.value) : await api.login(name.value.trim(), pass.value);
      const u = res.user || { username: name.value.trim() };
      auth.save(typeof u === "string" ? { username: u } : u); // the login itself is the cookie
      renderAuth();
      refresh();
    } catch (e) {
      err.textContent = e.message || t("auth.failed");
    }
  };
  const form = h("form", { class: "auth", id: "auth-form", onsubmit: (e) => { e.preventDefault(); submit("login"); } },
    name, pass,
    h("button", { class: "btn primary small", type: "submit", id: "login-btn" }, t("auth.log_in")),
    h("button", { class: "btn small", type: "button", id: "register-btn", onclick: () => submit("register") }, t("auth.register")),
    err);
  clear(host).append(form);
}

async function logout() {
  try { await api.logout(); } catch { /* the cookie is dropped anyway */ }
  auth.clear();
  renderAuth();
  refresh();
}

async function logoutEverywhere() {
  try { await api.logoutEverywhere(); } catch (e) { if (e.status !== 401) { toast(e.message || t("auth.failed")); return; } }
  auth.clear();
  renderAuth();
  refresh();
}

/** The password change form (current and new password); every other login is signed out. */
function togglePasswordForm(host, button) {
  const open = host.querySelector("#password-form");
  if (open) { open.remove(); button.setAttribute("aria-expanded", "false"); return; }
  button.setAttribute("aria-expanded", "true");
  const err = h("span", { class: "form-error", id: "password-error", role: "alert" });
  const current = h("input", { id: "password-current", type: "password", autocomplete: "current-password", placeholder: t("auth.current_password"), "aria-label": t("auth.current_password"), required: true });
  const next = h("input", { id: "password-new", type: "password", autocomplete: "new-password", placeholder: t("auth.new_password"), "aria-label": t("auth.new_password"), required: true });
  const form = h("form", { class: "auth", id: "password-form", onsubmit: async (e) => {
    e.preventDefault();
    err.textContent = "";
    try {
      await api.changePassword(current.value, next.value);
      form.remove();
      button.setAttribute("aria-expanded", "false");
      toast(t("auth.password_changed"));
    } catch (ex) {
      err.textContent = ex.message || t("auth.failed");
    }
  } }, current, next, h("button", { class: "btn primary small", type: "submit", id: "password-save" }, t("auth.save_password")), err);
  host.append(form);
  current.focus();
}

// ------------------------------------------------------------------ game summaries
function seatEntries(g) {
  const seats = Array.isArray(g.seats) ? g.seats : [];
  const total = g.seat_count || g.seats_total || (typeof g.seats === "number" ? g.seats : seats.length);
  const out = [];
  for (let i = 0; i < Math.max(total, seats.length); i++) {
    const e = seats.find((x) => x && x.seat === i) || seats[i] || null;
    let name = null; let bot = false;
    if (e) {
      const u = e.user;
      name = e.username || e.name || (u && typeof u === "object" ? u.username : (typeof u === "string" ? u : null));
      if (e.bot) { bot = true; name = name || botLabel(e.bot); }
    }
    out.push({ seat: i, name, bot });
  }
  return out;
}

function isMine(g) {
  const u = auth.user;
  if (g.mine || g.your_seat !== undefined && g.your_seat !== null) return true;
  if (!u) return false;
  return seatEntries(g).some((e) => e.name === u.username && !e.bot);
}

function titleOf(name) {
  const d = state.catalog.find((x) => x.name === name);
  return tOr(`game.${name}.title`, d ? d.title : cap(name || "game"));
}

function gameItem(g, kind) {
  const seats = seatEntries(g);
  const filled = seats.filter((x) => x.name).length;
  const waiting = Array.isArray(g.waiting_for) ? g.waiting_for : [];
  const href = `game.html?id=${encodeURIComponent(g.id)}`;
  const actions = [];
  if (kind === "open") {
    actions.push(h("button", { class: "btn primary small", type: "button", dataset: { join: g.id }, disabled: !auth.signedIn, title: auth.signedIn ? "" : t("lobby.sign_in_to_join"), onclick: () => join(g) }, t("lobby.join")));
    actions.push(h("a", { class: "btn small", href }, t("lobby.view")));
  } else if (kind === "turn") {
    actions.push(h("a", { class: "btn primary small", href }, t("lobby.play")));
  } else if (kind === "mine") {
    const creator = g.created_by && auth.user && (g.created_by.username === auth.user.username || g.created_by.id === auth.user.id);
    if (g.status === "open" && creator) {
      actions.push(h("button", { class: "btn primary small", type: "button", dataset: { start: g.id }, disabled: filled < seats.length, onclick: () => start(g) }, filled < seats.length ? t("lobby.start_count", { filled, total: seats.length }) : t("lobby.start")));
    }
    actions.push(h("a", { class: "btn small", href }, g.status === "finished" ? t("lobby.results") : t("lobby.open")));
  } else if (kind === "watch") {
    actions.push(h("a", { class: "btn small", href }, t("lobby.watch_game")));
  } else {
    actions.push(h("a", { class: "btn small", href }, t("lobby.results")));
  }
  if (g.status === "finished") {
    actions.push(h("a", { class: "btn small", href: `replay.html?id=${encodeURIComponent(g.id)}`, dataset: { replay: g.id } }, t("lobby.replay")));
  }
  let extra = null;
  if (g.status === "finished" && g.result && g.result.scores && Object.keys(g.result.scores).length) {
    const scores = g.result.scores;
    const best = (g.result.ranking || [])[0];
    extra = h("span", { class: "small" }, t("lobby.scores"), " ", seats.map((e) => `${e.name || t("seat.name", { n: e.seat + 1 })} ${scores[e.seat] ?? scores[String(e.seat)] ?? "?"}`).join(" · "),
      best !== undefined ? ` — ${t("lobby.won_by", { name: (seats[best] && seats[best].name) || t("seat.name", { n: Number(best) + 1 }) })}` : "");
  } else if (g.status === "open") {
    // a joiner reads it before joining: the join is the agreement
    extra = h("span", { class: "small muted" }, t("lobby.seated", { filled, total: seats.length }),
      g.hints ? h("span", { class: "hints-note" }, ` · ${t("hints.join_agrees")}`) : null);
  } else if (waiting.length) {
    extra = h("span", { class: "small muted" }, t("lobby.to_play"), " ", waiting.map((q) => (seats[q] && seats[q].name) || t("seat.name", { n: q + 1 })).join(", "));
  }
  return h("li", { class: ["game-item", kind === "turn" && "your-turn"], dataset: { game: g.id } },
    h("a", { class: "gi-title", href }, `${titleOf(g.game)} #${g.id}`),
    kind === "turn" ? h("span", { class: "badge turn" }, t("lobby.your_turn")) : null,
    g.source === "daily" ? h("span", { class: "badge daily" }, t("daily.badge")) : null,
    g.hints ? h("span", { class: "badge hints", title: t("hints.badge_help") }, t("hints.badge")) : null,
    h("span", { class: "gi-seats" }, seats.map((e) => h("span", { class: "seat-tag" },
      seatBadge(e.seat),
      h("span", { class: e.name ? "" : "muted" }, e.name || t("lobby.free"))))),
    extra,
    g.time_control ? h("span", { class: "small muted gi-time" }, glyph("clock"), " ", describeControl(g.time_control)) : null,
    g.updated_at || g.created_at ? h("span", { class: "small muted" }, timeAgo(g.updated_at || g.created_at)) : null,
    h("span", { class: "gi-actions" }, actions));
}

function fill(id, items, empty) {
  const host = $(id);
  clear(host).append(...(items.length ? items : [h("li", { class: "empty-note" }, empty)]));
}

async function join(g) {
  try {
    await api.join(g.id);
    location.href = `game.html?id=${encodeURIComponent(g.id)}`;
  } catch (e) {
    toast(e.message);
    refresh();
  }
}

async function start(g) {
  try {
    await api.start(g.id);
    location.href = `game.html?id=${encodeURIComponent(g.id)}`;
  } catch (e) {
    toast(e.message);
    refresh();
  }
}

// ------------------------------------------------------------------ rematch invitations
async function answerInvite(g, how) {
  try {
    const res = await api.post(`/api/games/${encodeURIComponent(g.id)}/rematch/${how}`);
    if (how === "accept") location.href = `game.html?id=${encodeURIComponent(res.id ?? g.id)}`;
    else refresh();
  } catch (e) {
    toast(e.message);
    refresh();
  }
}

async function renderInvites(signedIn) {
  const box = $("#invites");
  if (!box) return;
  let list = [];
  if (signedIn) {
    try { list = asList(await api.get("/api/rematch/invitations")); } catch { list = []; }
  }
  box.hidden = !list.length;
  clear($("#list-invites")).append(...list.map((g) => {
    const item = gameItem(g, "invite");
    const host = item.querySelector(".gi-actions");
    clear(host).append(
      h("button", { class: "btn primary small", type: "button", dataset: { accept: g.id }, onclick: () => answerInvite(g, "accept") }, t("lobby.accept")),
      h("button", { class: "btn small", type: "button", dataset: { decline: g.id }, onclick: () => answerInvite(g, "decline") }, t("lobby.decline")),
      h("a", { class: "btn small", href: `game.html?id=${encodeURIComponent(g.rematch_of ?? g.id)}` }, t("lobby.last_game")));
    return item;
  }));
}

let refreshing = false;
async function refresh() {
  if (refreshing) return;
  refreshing = true;
  try {
    const signedIn = auth.signedIn;
    const [mine, open, running, finished] = await Promise.all([
      signedIn ? api.games({ mine: 1 }).then((d) => asList(d)).catch((e) => { if (!(e instanceof ApiError)) throw e; return []; }) : Promise.resolve([]),
      api.games({ status: "open" }).then((d) => asList(d)).catch(() => []),
      api.games({ status: "running" }).then((d) => asList(d)).catch(() => []),
      api.games({ status: "finished" }).then((d) => asList(d)).catch(() => []),
    ]);
    const mineIds = new Set(mine.map((g) => g.id));
    for (const g of [...open, ...running, ...finished]) if (isMine(g)) mineIds.add(g.id);
    const turn = mine.filter((g) => g.your_turn && g.status !== "finished");
    const other = mine.filter((g) => !g.your_turn && g.status !== "finished");
    for (const g of [...open, ...running]) {
      if (isMine(g) && !mine.some((m) => m.id === g.id)) other.push(g);
    }
    fill("#list-turn", turn.map((g) => gameItem(g, "turn")), signedIn ? t("lobby.empty.turn") : t("lobby.empty.turn_guest"));
    fill("#list-mine", other.map((g) => gameItem(g, "mine")), signedIn ? t("lobby.empty.mine") : t("lobby.empty.mine_guest"));
    fill("#list-open", open.filter((g) => !mineIds.has(g.id)).map((g) => gameItem(g, "open")), t("lobby.empty.open"));
    fill("#list-watch", running.filter((g) => !mineIds.has(g.id)).map((g) => gameItem(g, "watch")), t("lobby.empty.watch"));
    fill("#list-done", finished.slice(0, 30).map((g) => gameItem(g, "done")), t("lobby.empty.done"));
    renderInvites(signedIn);
    const badge = $("#turn-count");
    badge.textContent = String(turn.length);
    badge.classList.toggle("zero", turn.length === 0);
    document.title = titleWithCount(t("lobby.page_title"), turn.length);
    setBadge(turn.length);
  } catch (e) {
    toast(e.message || t("lobby.load_failed"));
  } finally {
    refreshing = false;
  }
}

// ------------------------------------------------------------------ notifications (webhooks)
// "Your turn" as a signed POST to the user's own URLs (docs/webhooks.md); the secret that signs
// them is shown once, when the URL is added.
async function renderNotifications(shown) {
  const box = $("#notifications");
  const host = $("#notify-body");
  if (!box || !host) return;
  if (!auth.signedIn) { box.hidden = true; clear(host); return; }
  let data;
  try {
    data = await request("GET", "/api/me/webhooks");
  } catch {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  const hooks = (data && data.webhooks) || [];
  const lastText = { delivered: t("notify.last_delivered"), pending: t("notify.last_pending"), failed: t("notify.last_failed") };
  const err = h("p", { class: "form-error", role: "alert" });
  const items = hooks.map((w) => h("li", { class: "notify-item", dataset: { webhook: w.id } },
    h("span", { class: "notify-url" }, w.url),
    w.last_delivery ? h("span", { class: "small muted" }, lastText[w.last_delivery.status] || w.last_delivery.status) : null,
    h("button", { class: "btn small danger", type: "button", dataset: { removeWebhook: w.id }, onclick: async () => {
      try { await request("DELETE", `/api/me/webhooks/${encodeURIComponent(w.id)}`); } catch (e) { toast(e.message); }
      renderNotifications();
    } }, t("notify.remove"))));
  const url = h("input", { type: "url", id: "notify-url", required: true, maxlength: 2000, placeholder: "https://…", "aria-label": t("notify.url") });
  const form = h("form", { class: "notify-form", onsubmit: async (e) => {
    e.preventDefault();
    err.textContent = "";
    try {
      const made = await request("POST", "/api/me/webhooks", { url: url.value.trim() });
      renderNotifications(made);
    } catch (e2) {
      err.textContent = e2.message;
    }
  } }, url, h("button", { class: "btn primary small", type: "submit", id: "notify-add" }, t("notify.add")));
  const secret = shown && shown.secret ? h("div", { class: "notify-secret", role: "status", id: "notify-secret" },
    h("strong", t("notify.secret", { url: shown.url })),
    h("code", shown.secret),
    h("p", { class: "small" }, t("notify.secret_once")),
    h("button", { class: "btn small", type: "button", onclick: () => renderNotifications() }, t("notify.done"))) : null;
  clear(host).append(...[
    h("p", { class: "small muted" }, t("notify.help")),
    hooks.length ? h("ul", { class: "notify-list" }, items) : h("p", { class: "empty-note" }, t("notify.empty")),
    hooks.length < ((data && data.limit) || 5) ? form : h("p", { class: "small muted" }, t("notify.full")),
    err, secret].filter(Boolean));
  let prefs = $("#notify-prefs");
  if (!prefs) {
    prefs = h("div", { id: "notify-prefs", class: "notify-prefs" });
    box.append(prefs);
  }
  renderPreferences(prefs, toast);
}

// ------------------------------------------------------------------ new game form
let timeBox = null;
let hintsTick = false;

function renderNewGame() {
  const host = $("#new-game");
  if (!state.catalog.length) { clear(host).append(h("p", t("newgame.no_games"))); return; }
  const gameSel = h("select", { id: "ng-game", name: "game", "aria-label": t("newgame.game") },
    state.catalog.map((d) => h("option", { value: d.name }, titleOf(d.name))));
  const body = h("div", { class: "ng-body" });
  const err = h("p", { class: "form-error", role: "alert" });
  const draw = () => {
    const d = state.catalog.find((x) => x.name === gameSel.value) || state.catalog[0];
    const min = (d.seats && d.seats.min) || 2; const max = (d.seats && d.seats.max) || min;
    const seatsSel = h("select", { id: "ng-seats", name: "seats" });
    // two players first (a 1-seat solo game is there to choose, not the default)
    const usual = Math.min(max, Math.max(min, 2));
    for (let n = min; n <= max; n++) seatsSel.appendChild(h("option", { value: n, selected: n === usual }, t("newgame.n_players", { count: n })));
    const opts = (d.options || []).map((o) => {
      let input;
      if (o.type === "bool" || typeof o.default === "boolean") {
        input = h("input", { type: "checkbox", name: `opt-${o.name}`, dataset: { option: o.name, kind: "bool" }, checked: !!o.default });
      } else if (Array.isArray(o.choices) && o.choices.length) {
        input = h("select", { name: `opt-${o.name}`, dataset: { option: o.name } }, o.choices.map((c) => h("option", { value: JSON.stringify(c), selected: c === o.default }, tOr(`option.${d.name}.${o.name}.${c}`, cap(String(c))))));
      } else if (typeof o.default === "number") {
        input = h("input", { type: "number", name: `opt-${o.name}`, dataset: { option: o.name, kind: "number" }, value: o.default });
      } else {
        input = h("input", { name: `opt-${o.name}`, dataset: { option: o.name, kind: "text" }, value: o.default ?? "" });
      }
      // an option for some seat counts only (the solo mode's starting appeal) shows with those
      return h("label", { dataset: o.seats ? { seats: o.seats.join(",") } : {} }, tOr(`option.${d.name}.${o.name}`, cap(o.name)), input,
        o.description ? h("span", { class: "option-help" }, tOr(`option.${d.name}.${o.name}.help`, o.description)) : null);
    });
    const showOptions = () => {
      const n = String(seatsSel.value);
      for (const label of opts) {
        if (label.dataset.seats) label.hidden = !label.dataset.seats.split(",").includes(n);
      }
    };
    const bots = h("fieldset", { id: "ng-bots" }, h("legend", t("newgame.bots")));
    const drawBots = () => {
      clear(bots).append(h("legend", t("newgame.seats")));
      const n = Number(seatsSel.value);
      bots.appendChild(h("span", { class: "seat-you" }, seatBadge(0), " ", t("newgame.seat_you")));
      for (let s = 1; s < n; s++) {
        // the ticks stay as the player set them when the player count or the game changes
        bots.appendChild(h("label", null, h("input", { type: "checkbox", name: "bot", value: s, dataset: { botSeat: s }, checked: botTicks.has(s),
          onchange: (e) => { if (e.target.checked) botTicks.add(s); else botTicks.delete(s); } }), seatBadge(s), " ", t("seat.bot")));
      }
      if (state.bots.length) {
        // the list comes weakest first (docs/bots.md, the ladder); the learned fast level is the
        // default (it beats greedy there)
        const pref = state.bots.includes("fast") ? "fast" : state.bots[0];
        bots.appendChild(h("label", null, t("newgame.bots_play"), h("select", { id: "ng-bot", name: "bot-kind" },
          state.bots.map((b) => h("option", { value: b, selected: b === pref }, tOr(`bot.${b}`, cap(b)))))));
      }
      bots.appendChild(h("p", { class: "option-help" }, t("newgame.open_seats_help")));
    };
    seatsSel.addEventListener("change", drawBots);
    seatsSel.addEventListener("change", showOptions);
    drawBots();
    showOptions();
    timeBox = timeControlFieldset();
    // a lobby flag, not an engine option: the players agree that the bot may propose answers
    const hints = h("label", { class: "ng-hints" }, t("newgame.hints"),
      h("input", { type: "checkbox", id: "ng-hints", name: "hints", checked: hintsTick,
        onchange: (e) => { hintsTick = e.target.checked; } }),
      h("span", { class: "option-help" }, t("newgame.hints_help")));
    clear(body).append(
      h("fieldset", null, h("legend", t("newgame.table")), h("label", null, t("newgame.players"), seatsSel), ...opts, hints),
      bots, timeBox.el);
  };
  gameSel.addEventListener("change", draw);
  draw();
  const form = h("form", {
    onsubmit: async (e) => {
      e.preventDefault();
      err.textContent = "";
      if (!auth.signedIn) { err.textContent = t("newgame.sign_in_first"); return; }
      const options = {};
      for (const el of form.querySelectorAll("[data-option]")) {
        const name = el.dataset.option;
        if (el.dataset.kind === "bool") options[name] = el.checked;
        else if (el.dataset.kind === "number") options[name] = Number(el.value);
        else if (el.dataset.kind === "text") options[name] = el.value;
        else options[name] = JSON.parse(el.value);
      }
      const bots = [...form.querySelectorAll("input[name=bot]:checked")].map((x) => Number(x.value));
      try {
        const body = { game: gameSel.value, seats: Number(form.querySelector("#ng-seats").value), options, bots };
        const kind = form.querySelector("#ng-bot");
        if (kind && bots.length) body.bot = kind.value;
        const tc = timeBox && timeBox.read();
        if (tc) body.time_control = tc;
        if (form.querySelector("#ng-hints")?.checked) body.hints = true;
        const g = await api.createGame(body);
        const id = g.id ?? (g.game && g.game.id);
        location.href = `game.html?id=${encodeURIComponent(id)}`;
      } catch (e2) {
        err.textContent = e2.message;
      }
    },
  },
  state.catalog.length > 1 ? h("label", null, t("newgame.game"), gameSel) : h("p", h("strong", titleOf(state.catalog[0].name))),
  body,
  h("div", { class: "row" }, h("button", { class: "btn primary", type: "submit", id: "create-game" }, t("newgame.create")),
    h("button", { class: "btn ghost", type: "button", onclick: () => toggleNew(false) }, t("common.cancel"))),
  err);
  if (state.catalog.length <= 1) form.appendChild(h("input", { type: "hidden", value: state.catalog[0].name }));
  clear(host).append(h("h2", t("lobby.new_game")), form);
}

/** The seats the player ticked as bots in the new-game form (kept while the form is redrawn). */
const botTicks = new Set();

function toggleNew(show) {
  const host = $("#new-game");
  const btn = $("#new-game-btn");
  const open = show ?? host.hidden;
  host.hidden = !open;
  btn.setAttribute("aria-expanded", String(open));
  if (!open) return;
  if (!auth.signedIn) {
    // signed out: a game needs an account first; the sign-in fields are right above
    clear(host).append(h("h2", t("lobby.new_game")), h("p", { class: "sign-in-first", role: "alert" }, t("newgame.sign_in_first")));
    const user = $("#auth-user");
    if (user) user.focus();
    return;
  }
  renderNewGame();
}

async function init() {
  renderAuth();
  $("#new-game-btn").addEventListener("click", () => toggleNew());
  try {
    const cat = await api.catalog();
    state.catalog = asList(cat, "games", "catalog");
    if (!state.catalog.length && cat && typeof cat === "object") state.catalog = Object.values(cat).filter((x) => x && x.name);
  } catch (e) {
    toast(e.message);
  }
  try {
    const bots = await api.get("/api/bots");
    state.bots = Array.isArray(bots) ? bots.map((b) => (typeof b === "string" ? b : b.name)).filter(Boolean) : [];
  } catch { state.bots = []; }
  refresh();
  const daily = () => renderDailyCard($("#daily"), { toast });
  daily();
  setInterval(() => { if (!document.hidden) refresh(); }, 8000);
  window.addEventListener("focus", refresh);
  window.addEventListener("focus", daily);
  window.addEventListener("menagerie:auth", daily);
  window.addEventListener("menagerie:auth", renderAuth);
  window.addEventListener("menagerie:auth", () => { if (!$("#new-game").hidden) toggleNew(true); });
  window.addEventListener("menagerie:auth", () => renderNotifications());
  renderNotifications();
  // the verification link of a mail lands here (GET /api/email/verify)
  if (new URLSearchParams(location.search).get("email") === "verified") toast(t("prefs.email_confirmed"));
  // "your turn" from the per-user socket: the lists move at once, the browser may notify
  const feed = new TurnFeed((msg) => {
    refresh();
    if (msg.type === "your_turn") showNotification(msg);
  });
  window.menagerie = { ...(window.menagerie || {}), feed, refresh };
  if (auth.user) feed.start();
  window.addEventListener("menagerie:auth", () => { if (auth.user) { feed.stopped = false; feed.connect(); } else feed.stop(); });
  const bell = notificationButton();
  const host = document.querySelector(".topbar") || document.body;
  if (bell && auth.user) host.appendChild(bell);
}

init();
