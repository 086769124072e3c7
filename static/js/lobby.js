// The lobby: sign in or register in place, the game lists and the notification settings. The
// game items are gameitem.js's, the "New game" form newgame.js's, invitations and friends
// friends.js's.
import { api, auth, asList, ApiError, request } from "./api.js";
import { h, clear, $ } from "./dom.js";
import { injectSprite } from "./icons.js";
import { t, setupPage, unfilled } from "./i18n.js";
import { renderPreferences } from "./notifyprefs.js";
import { renderDailyCard } from "./daily.js";
import { notificationButton, setBadge, showNotification, titleWithCount, TurnFeed } from "./asyncplay.js";
import { fill, gameItem, isMine, state, titleOf } from "./gameitem.js";
import { toast } from "./toast.js";
import { expose } from "./hooks.js";
import { toggleNew } from "./newgame.js";
import { renderFriends, renderInvites } from "./friends.js";

injectSprite();
setupPage();

// ------------------------------------------------------------------ auth
function renderAuth() {
  const host = $("#auth");
  const user = auth.user;
  if (user) {
    clear(host).append(
      h("a", { class: "who", id: "my-profile", href: `player.html?name=${encodeURIComponent(user.username)}` }, t("auth.signed_in_as", { name: user.username })),
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
    renderFriends();
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
  state.refresh = refresh;
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
    const title = msg.name ? titleOf(msg.name) : msg.title || "";
    if (msg.about === "invitation") toast(t("invite.toast", { name: msg.by || "?", title }));
    else if (msg.about === "declined") toast(t("invite.declined_toast", { name: msg.by || "?", title }));
    if (msg.type === "your_turn") showNotification(msg);
  });
  expose({ feed, refresh, unfilled }); // window.menagerie, for tests and outside tools (hooks.js)
  if (auth.user) feed.start();
  window.addEventListener("menagerie:auth", () => { if (auth.user) { feed.stopped = false; feed.connect(); } else feed.stop(); });
  const bell = notificationButton();
  const host = document.querySelector(".topbar") || document.body;
  if (bell && auth.user) host.appendChild(bell);
}

init();
