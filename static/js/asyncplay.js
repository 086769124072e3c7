// Asynchronous play in the browser: time controls (form, clocks), take-backs, reclaiming a
// seat, and "your turn" notices from the per-user socket (WS /api/me/ws) shown as a browser
// Notification, a badge on the favicon and a count in the page title.
import { api, auth, ApiError, pushChoice, socketUrl, worker } from "./api.js";
import { h, clear } from "./dom.js";
import { seatTag } from "./seats.js";
import { t } from "./i18n.js";

// ------------------------------------------------------------------ glyphs (no emoji font needed)
const GLYPHS = {
  clock: "M12 3a9 9 0 1 0 0 18a9 9 0 1 0 0-18zM12 7v5l3 2",
  bell: "M6 16v-5a6 6 0 0 1 12 0v5l2 2H4zM10 20a2 2 0 0 0 4 0",
  bot: "M5 9h14v10H5zM12 5v4M9 13h.01M15 13h.01M9 16h6M3 12v4M21 12v4",
  warn: "M12 3 22 20H2zM12 10v4M12 17h.01",
};

export function glyph(name) {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("width", "1em");
  svg.setAttribute("height", "1em");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("class", `glyph glyph-${name}`);
  const path = document.createElementNS(ns, "path");
  path.setAttribute("d", GLYPHS[name]);
  path.setAttribute("fill", "none");
  path.setAttribute("stroke", "currentColor");
  path.setAttribute("stroke-width", "2");
  path.setAttribute("stroke-linecap", "round");
  path.setAttribute("stroke-linejoin", "round");
  svg.appendChild(path);
  return svg;
}

// ------------------------------------------------------------------ time controls
const PRESETS = [
  { key: "none", label: "time.preset.none" },
  { key: "move_2m", label: "time.preset.move_2m", tc: { mode: "move", seconds: 120 } },
  { key: "move_10m", label: "time.preset.move_10m", tc: { mode: "move", seconds: 600 } },
  { key: "move_1h", label: "time.preset.move_1h", tc: { mode: "move", seconds: 3600 } },
  { key: "move_1d", label: "time.preset.move_1d", tc: { mode: "move", seconds: 86400 } },
  { key: "move_3d", label: "time.preset.move_3d", tc: { mode: "move", seconds: 259200 } },
  { key: "bank_10m", label: "time.preset.bank_10m", tc: { mode: "bank", seconds: 600, increment: 20 } },
  { key: "bank_1h", label: "time.preset.bank_1h", tc: { mode: "bank", seconds: 3600, increment: 60 } },
  { key: "bank_3d", label: "time.preset.bank_3d", tc: { mode: "bank", seconds: 259200, increment: 86400 } },
  { key: "custom", label: "time.preset.custom" },
];

/** The new-game form's "Time" fieldset; `read()` gives the time control or null. */
export function timeControlFieldset() {
  const preset = h("select", { id: "ng-time", name: "time" },
    PRESETS.map((p) => h("option", { value: p.key }, t(p.label))));
  const mode = h("select", { id: "ng-time-mode" },
    h("option", { value: "move" }, t("time.mode.move")), h("option", { value: "bank" }, t("time.mode.bank")));
  const seconds = h("input", { id: "ng-time-seconds", type: "number", min: 10, max: 2592000, value: 3600 });
  const increment = h("input", { id: "ng-time-increment", type: "number", min: 0, max: 604800, value: 0 });
  const custom = h("div", { class: "time-custom", hidden: true },
    h("label", null, t("time.mode"), mode), h("label", null, t("time.seconds"), seconds),
    h("label", null, t("time.increment"), increment));
  const abandon = h("input", { id: "ng-abandon", type: "number", min: 1, max: 50, value: 3 });
  const abandonRow = h("label", { hidden: true }, t("time.abandon_after"), abandon);
  const sync = () => {
    custom.hidden = preset.value !== "custom";
    abandonRow.hidden = preset.value === "none";
  };
  preset.addEventListener("change", sync);
  const el = h("fieldset", { id: "ng-time-box" }, h("legend", t("time.legend")),
    h("label", null, t("time.limit"), preset), custom, abandonRow,
    h("p", { class: "option-help" }, t("time.help")));
  const read = () => {
    if (preset.value === "none") return null;
    let tc;
    if (preset.value === "custom") {
      tc = { mode: mode.value, seconds: Number(seconds.value) };
      if (mode.value === "bank") tc.increment = Number(increment.value);
    } else {
      tc = { ...PRESETS.find((p) => p.key === preset.value).tc };
    }
    tc.abandon_after = Number(abandon.value) || 3;
    return tc;
  };
  return { el, read };
}

/** "1 d per decision", "bank 10 min + 20 s". */
export function describeControl(tc) {
  if (!tc) return t("time.untimed");
  if (tc.mode === "count") return t("time.describe.count");
  if (tc.mode === "bank") return t("time.describe.bank", { bank: span(tc.seconds), inc: span(tc.increment || 0) });
  return t("time.describe.move", { limit: span(tc.seconds) });
}

/** A duration in seconds as "2 d 3 h", "1 h 5 min", "4:05". */
export function span(total) {
  const s = Math.max(0, Math.round(total));
  const d = Math.floor(s / 86400); const hh = Math.floor((s % 86400) / 3600);
  const mm = Math.floor((s % 3600) / 60); const ss = s % 60;
  if (d) return t("time.span.days", { d, h: hh });
  if (hh) return t("time.span.hours", { h: hh, m: mm });
  if (mm >= 10) return t("time.span.minutes", { m: mm });
  return `${mm}:${String(ss).padStart(2, "0")}`;
}

/** Seconds a counting clock (the daily challenge's games) has used for a seat up to now. */
function secondsUsed(entry) {
  const used = (entry && entry.used) || 0;
  return entry && entry.since ? used + (Date.now() - Date.parse(entry.since)) / 1000 : used;
}

/** Seconds left for a seat now (its deadline while it owes a decision, else its bank). */
function secondsLeft(entry) {
  if (entry && entry.deadline) return (Date.parse(entry.deadline) - Date.now()) / 1000;
  if (entry && typeof entry.bank === "number") return entry.bank;
  return null;
}

/** The clocks of a timed game: one chip per seat (time left, timeouts, "a bot plays"). */
export function clockChips(summary, clock) {
  const tc = (clock && clock.control) || (summary && summary.time_control);
  if (!tc) return null;
  const seats = (summary && Array.isArray(summary.seats)) ? summary.seats : [];
  const chips = [h("span", { class: "clock-control", title: t("time.legend") }, glyph("clock"), " ", describeControl(tc))];
  const entries = (clock && clock.seats) || {};
  for (const key of Object.keys(entries).sort((a, b) => a - b)) {
    const e = entries[key];
    const seat = Number(key);
    const info = seats.find((x) => x && x.seat === seat) || {};
    if (info.bot) continue;
    if (tc.mode === "count") {
      // no limit: the time the seat has used, counting up while it owes a decision
      chips.push(h("span", {
        class: `clock-chip${e && e.since ? " running counting" : ""}`, title: t("time.used_title"),
        dataset: { seat: key, since: (e && e.since) || "", used: String((e && e.used) || 0) },
      }, seatTag(seat, { small: true }), " ", h("span", { class: "clock-left" }, span(secondsUsed(e)))));
      continue;
    }
    const left = secondsLeft(e);
    const running = !!(e && e.deadline);
    const chip = h("span", {
      class: `clock-chip${running ? " running" : ""}${left !== null && left < 60 && running ? " low" : ""}${info.away ? " away" : ""}`,
      dataset: { seat: key, deadline: (e && e.deadline) || "", bank: e && typeof e.bank === "number" ? String(e.bank) : "" },
    }, seatTag(seat, { small: true }), " ",
    h("span", { class: "clock-left" }, left === null ? "—" : (left <= 0 && running ? t("clock.time_is_up") : span(left))));
    if (e && e.timeouts) chip.appendChild(h("span", { class: "clock-timeouts", title: t("time.timeouts_title") }, " ", glyph("warn"), String(e.timeouts)));
    if (info.away) chip.appendChild(h("span", { class: "clock-away" }, " ", glyph("bot"), " ", t("time.bot_plays")));
    chips.push(chip);
  }
  return h("span", { class: "clocks", id: "clocks" }, chips);
}

// the running chips count down every second
setInterval(() => {
  for (const chip of document.querySelectorAll(".clock-chip.counting")) {
    const out = chip.querySelector(".clock-left");
    if (out) out.textContent = span(secondsUsed({ used: Number(chip.dataset.used), since: chip.dataset.since }));
  }
  for (const chip of document.querySelectorAll(".clock-chip.running:not(.counting)")) {
    const left = (Date.parse(chip.dataset.deadline) - Date.now()) / 1000;
    const out = chip.querySelector(".clock-left");
    if (out) out.textContent = left <= 0 ? t("clock.time_is_up") : span(left);
    chip.classList.toggle("low", left < 60);
  }
}, 1000);

// ------------------------------------------------------------------ take-backs, reclaiming
/** The "take back" button when the seat may take back its last decision (else null). */
export function undoButton(st, { applyState, resync, toast }) {
  const can = st.view && st.view.private && st.view.private.can_undo && st.status === "running";
  if (!can) return null;
  return h("button", {
    class: "btn small undo-btn", type: "button", id: "undo-btn", title: t("undo.title"),
    onclick: async (e) => {
      e.currentTarget.disabled = true;
      try {
        const res = await api.post(`/api/games/${encodeURIComponent(st.id)}/undo`, { version: st.version });
        applyState(res);
      } catch (err) {
        toast(err instanceof ApiError && err.code === "cannot_undo" ? t("undo.refused") : err.message);
        resync();
      }
    },
  }, h("span", { "aria-hidden": "true" }, "↶"), " ", h("span", { class: "undo-text" }, t("undo.button")));
}

/** A banner for a player whose seat a bot plays (after timeouts), with "take it back". */
export function awayBanner(st, { reload, toast }) {
  const seats = (st.summary && st.summary.seats) || [];
  const mine = seats.find((x) => x && x.seat === st.seat);
  if (!mine || !mine.away || mine.resigned || st.status !== "running") return null;
  return h("div", { class: "away-banner", role: "alert", id: "away-banner" },
    h("span", null, glyph("bot"), " ", t("away.text")),
    h("button", {
      class: "btn primary small", type: "button", id: "reclaim-btn",
      onclick: async (e) => {
        e.currentTarget.disabled = true;
        try { await api.post(`/api/games/${encodeURIComponent(st.id)}/reclaim`); } catch (err) { toast(err.message); }
        reload();
      },
    }, t("away.reclaim")));
}

// ------------------------------------------------------------------ "your turn" notices
const FAVICON = "favicon.svg";

let faviconImage = null;

/** The favicon with a red badge counting the games that wait for you (0: plain). */
export function setBadge(count) {
  let link = document.querySelector("link[rel~='icon']");
  if (!link) {
    link = h("link", { rel: "icon", type: "image/svg+xml" });
    document.head.appendChild(link);
  }
  document.documentElement.dataset.turns = String(count);
  if (!count) { link.type = "image/svg+xml"; link.href = FAVICON; return; }
  const draw = () => {
    const canvas = document.createElement("canvas");
    canvas.width = canvas.height = 64;
    const ctx = canvas.getContext("2d");
    if (faviconImage.complete && faviconImage.naturalWidth) ctx.drawImage(faviconImage, 0, 0, 64, 64);
    const label = count > 9 ? "9+" : String(count);
    ctx.beginPath();
    ctx.arc(44, 20, 19, 0, 2 * Math.PI);
    ctx.fillStyle = "#d62828";
    ctx.fill();
    ctx.lineWidth = 3;
    ctx.strokeStyle = "#fff";
    ctx.stroke();
    ctx.fillStyle = "#fff";
    ctx.font = `bold ${label.length > 1 ? 20 : 26}px sans-serif`;
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    ctx.fillText(label, 44, 21);
    link.type = "image/png";
    link.href = canvas.toDataURL("image/png");
  };
  if (!faviconImage) {
    faviconImage = new Image();
    faviconImage.src = FAVICON;
  }
  if (faviconImage.complete) draw();
  else faviconImage.addEventListener("load", draw, { once: true });
}

/** "(2) title": the page title with the number of games waiting for you. */
export function titleWithCount(title, count) {
  const base = title.replace(/^\(\d+\+?\)\s*/, "");
  return count ? `(${count}) ${base}` : base;
}

/** A small button asking for the browser's permission to show notifications; where the
 * server offers Web Push (GET /api/push/key) it also subscribes this browser, so the turn
 * notices arrive with no page open (see pushSubscribe). */
export function notificationButton() {
  if (typeof Notification === "undefined" || Notification.permission === "denied") return null;
  if (Notification.permission === "granted") {
    if (!auth.user) return null;
    if (pushChoice.wanted) {
      pushSubscribe().catch(() => {}); // keep the server's copy of this browser's subscription
      return null;
    }
    // notices are allowed, but push was never asked for in this browser: offer it
    if (!("serviceWorker" in navigator) || typeof PushManager === "undefined") return null;
  }
  const btn = h("button", {
    class: "btn ghost small", type: "button", id: "notify-btn", title: t("notify.enable_title"),
    onclick: async () => {
      let permission = "default";
      try { permission = await Notification.requestPermission(); } catch { /* refused */ }
      btn.remove();
      if (permission === "granted" && auth.user) {
        pushChoice.wanted = await pushSubscribe().catch(() => false);
      }
    },
  }, glyph("bell"), " ", t("notify.enable"));
  return btn;
}

function keyBytes(base64url) {
  const text = atob(base64url.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

/** Subscribe this browser to Web Push with the server's VAPID key and send the subscription to
 * the server (POST /api/me/push). Resolves true when the server has it; false where the browser
 * or the server offers no push. */
export async function pushSubscribe() {
  const reg = await worker;
  if (!reg || !("pushManager" in reg) || !auth.user) return false;
  let key;
  try { key = (await api.get("/api/push/key")).key; } catch { return false; } // push not offered
  await navigator.serviceWorker.ready;
  const want = keyBytes(key);
  let sub = await reg.pushManager.getSubscription();
  const had = sub && sub.options && sub.options.applicationServerKey ? new Uint8Array(sub.options.applicationServerKey) : null;
  if (sub && had && (had.length !== want.length || had.some((b, i) => b !== want[i]))) {
    await sub.unsubscribe(); // made for another server key: subscribe again with this one
    sub = null;
  }
  if (!sub) sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: want });
  const body = sub.toJSON();
  await api.post("/api/me/push", { endpoint: body.endpoint, keys: { p256dh: body.keys.p256dh, auth: body.keys.auth } });
  return true;
}

/** Show a browser notification for "your turn in game G" (when permitted). */
export function showNotification(msg) {
  if (typeof Notification === "undefined" || Notification.permission !== "granted") return false;
  try {
    const n = new Notification(t("notify.your_turn_title"), {
      body: t("notify.your_turn_body", { title: msg.title || msg.name || "", id: msg.game }),
      tag: `menagerie-turn-${msg.game}`,
      icon: FAVICON,
    });
    n.onclick = () => { window.focus(); location.href = `game.html?id=${encodeURIComponent(msg.game)}`; n.close(); };
    return true;
  } catch {
    return false;
  }
}

/** The per-user socket, reconnecting with backoff; calls `onNotice(msg)` for each notice. */
export class TurnFeed {
  constructor(onNotice) {
    this.onNotice = onNotice;
    this.ws = null;
    this.attempt = 0;
    this.timer = null;
    this.stopped = false;
  }

  start() {
    if (!auth.signedIn) return;
    this.connect();
  }

  connect() {
    if (this.stopped) return;
    let ws;
    // the login cookie goes with the handshake (same origin); never a token in the URL
    // a socket of an earlier sign-in is closed (its "signed_out" is about that login only)
    if (this.ws) { const old = this.ws; this.ws = null; old.close(); }
    try { ws = new WebSocket(socketUrl("/api/me/ws")); } catch { this.schedule(); return; }
    this.ws = ws;
    ws.onopen = () => { this.attempt = 0; };
    const under = auth.epoch;
    ws.onmessage = (e) => {
      if (this.ws !== ws) return; // a replaced socket's late words
      let msg;
      try { msg = JSON.parse(e.data); } catch { return; }
      if (msg.type === "error" && msg.error && msg.error.code === "unauthorized") { this.stopped = true; return; }
      // the login was revoked (logout elsewhere, "log out everywhere", a password change); a
      // socket opened before the page signed out and in again speaks of the old login only
      if (msg.type === "error" && msg.error && msg.error.code === "signed_out") {
        if (auth.epoch !== under) return;
        this.stopped = true; auth.clear(); return;
      }
      if (msg.type === "your_turn" || msg.type === "game") this.onNotice(msg);
      // every notice, for the page's other parts (a quick match: static/js/seeks.js)
      window.dispatchEvent(new CustomEvent("menagerie:notice", { detail: msg }));
    };
    ws.onclose = () => { if (this.ws === ws) { this.ws = null; this.schedule(); } };
    ws.onerror = () => {};
  }

  schedule() {
    if (this.stopped) return;
    const delay = Math.min(30000, 1000 * 2 ** this.attempt) * (0.75 + Math.random() * 0.5);
    this.attempt += 1;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.connect(), delay);
  }

  stop() {
    this.stopped = true;
    if (this.ws) this.ws.close();
  }
}

/** How many of my games wait for me now (the lobby's "your turn" list). */
export async function countMyTurns() {
  if (!auth.signedIn) return 0;
  try {
    const list = await api.get("/api/games?mine=1&limit=200");
    return (Array.isArray(list) ? list : []).filter((g) => g.your_turn && g.status === "running").length;
  } catch {
    return 0;
  }
}

/** A notice line with a link (used by the game page for turns in other games). */
export function turnNotice(msg) {
  return h("a", { class: "turn-notice", href: `game.html?id=${encodeURIComponent(msg.game)}` },
    t("notify.your_turn_body", { title: msg.title || msg.name || "", id: msg.game }));
}

export { clear };
