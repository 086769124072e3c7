// The HTTP side of the contract (see the architecture spec): JSON in, JSON out, the login cookie.
// Errors are thrown as ApiError with the server's code and sentence (in the page's language:
// every request says Accept-Language; the codes stay the same in every language).
import { lang, t } from "./i18n.js";

const USER_KEY = "menagerie.user";
const CSRF_COOKIE = "menagerie_csrf";
const UNSAFE = new Set(["POST", "PUT", "PATCH", "DELETE"]);

// The login lives in the HttpOnly cookie the server sets at login (the page's script never
// sees the token, so a script injected into the page cannot steal it); the page keeps only
// who is signed in, to draw itself. Tokens kept by older versions of the page are dropped.
try { localStorage.removeItem("menagerie.token"); } catch { /* storage disabled */ }

export class ApiError extends Error {
  constructor(status, code, message, body) {
    super(message || code || `HTTP ${status}`);
    this.status = status;
    this.code = code || `http_${status}`;
    this.body = body;
  }
}

// Which sign-in this page is on: one more at every save and clear. A request or a socket tells
// "signed out" only for the sign-in it was made under: a 401 that comes back after the user has
// signed out and in again (a request sent before "log out everywhere", answered late) must not
// sign the new login out.
let epoch = 0;

export const auth = {
  /** Who is signed in ({id, username}) or null: what the page shows, not a credential. */
  get user() {
    try { return JSON.parse(localStorage.getItem(USER_KEY) || "null"); } catch { return null; }
  },
  get signedIn() {
    return !!this.user;
  },
  /** The sign-in this page is on now (see `epoch` above). */
  get epoch() {
    return epoch;
  },
  save(user) {
    epoch += 1;
    localStorage.setItem(USER_KEY, JSON.stringify(user));
    window.dispatchEvent(new CustomEvent("menagerie:auth"));
  },
  clear() {
    epoch += 1;
    localStorage.removeItem(USER_KEY);
    window.dispatchEvent(new CustomEvent("menagerie:auth"));
  },
};

/** The CSRF value the server put in a readable cookie next to the login cookie; echoed in the
 * X-CSRF-Token header of every request that changes something (double submit). */
function csrfToken() {
  for (const part of document.cookie.split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name === CSRF_COOKIE) return decodeURIComponent(rest.join("="));
  }
  return null;
}

/** One JSON request, authenticated by the login cookie (same origin). */
export async function request(method, path, body, opts = {}) {
  const headers = { Accept: "application/json", "Accept-Language": lang };
  const csrf = UNSAFE.has(method) ? csrfToken() : null;
  if (csrf) headers["X-CSRF-Token"] = csrf;
  const init = { method, headers, credentials: "same-origin" };
  const sentUnder = epoch;
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch {
    throw new ApiError(0, "network", t("error.network"));
  }
  let data = null;
  const text = await res.text();
  if (text) {
    try { data = JSON.parse(text); } catch { data = { raw: text }; }
  }
  if (!res.ok) {
    const e = (data && data.error) || {};
    // the login expired or was revoked (logout elsewhere, a password change): signed out here,
    // unless the page has signed out or in since the request left (its 401 is about an old login)
    if (res.status === 401 && auth.signedIn && opts.auth !== false && epoch === sentUnder) auth.clear();
    throw new ApiError(res.status, e.code, e.message || (data && data.detail) || res.statusText, data);
  }
  return data;
}

export const api = {
  get: (p, o) => request("GET", p, undefined, o),
  post: (p, b, o) => request("POST", p, b === undefined ? {} : b, o),
  put: (p, b, o) => request("PUT", p, b, o),
  del: (p, o) => request("DELETE", p, undefined, o),

  register: (username, password) => request("POST", "/api/auth/register", { username, password }, { auth: false }),
  login: (username, password) => request("POST", "/api/auth/login", { username, password }, { auth: false }),
  logout: async () => { await dropPush(); return request("POST", "/api/auth/logout", {}); },
  logoutEverywhere: async () => { await dropPush(); return request("POST", "/api/auth/logout-everywhere", {}); },
  changePassword: (current, next) => request("POST", "/api/auth/password", { current, new: next }),

  catalog: () => request("GET", "/api/catalog"),
  gameCatalog: (game) => request("GET", `/api/catalog/${encodeURIComponent(game)}`),

  games: (params) => request("GET", `/api/games?${new URLSearchParams(params)}`),
  createGame: (body) => request("POST", "/api/games", body),
  join: (id) => request("POST", `/api/games/${id}/join`, {}),
  start: (id) => request("POST", `/api/games/${id}/start`, {}),
  game: (id) => request("GET", `/api/games/${id}`),
  legal: (id) => request("GET", `/api/games/${id}/legal`),
  // hold: this client offers "Confirm turn" (the server holds the turn if the player wants it)
  act: (id, version, action, hold = false) => request("POST", `/api/games/${id}/actions`, { version, action, hold }),
  endTurn: (id, version, how) => request("POST", `/api/games/${id}/${how === "restart" ? "restart" : "confirm"}`, { version }),
  log: (id, after) => request("GET", `/api/games/${id}/log?after=${after}`),
};

/** The WebSocket address of a game. The socket carries the login cookie (same origin), never
 * a token in the URL; without a login it is a spectator's. `lang`: the page's language for the
 * socket's error sentences (a browser's handshake sends its own). */
export function wsUrl(id) {
  return socketUrl(`/api/games/${id}/ws`);
}

/** The address of one of the site's sockets (`path`), in the page's language. */
export function socketUrl(path) {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  return `${proto}//${location.host}${path}?${new URLSearchParams({ lang })}`;
}

/** Game summaries come as a list or wrapped; always return a list. */
export function asList(data, ...keys) {
  if (Array.isArray(data)) return data;
  if (data && typeof data === "object") {
    for (const k of [...keys, "games", "items", "results", "data"]) {
      if (Array.isArray(data[k])) return data[k];
    }
  }
  return [];
}

/** The service worker (static/sw.js, served at the site's root): the static client kept for
 * instant starts, and Web Push. Resolves to its registration, or null where there is none (an
 * old browser, a page not served over https or from localhost). */
export const worker = (typeof navigator !== "undefined" && "serviceWorker" in navigator)
  ? navigator.serviceWorker.register(new URL("../sw.js", import.meta.url), { scope: new URL("../", import.meta.url).pathname })
    .catch(() => null)
  : Promise.resolve(null);

/** Whether this browser's user asked for push notices here (the bell): only then does a page
 * touch the Push API (a private window's Chromium logs an error for any use of it). */
const PUSH_KEY = "menagerie.push";
export const pushChoice = {
  get wanted() { try { return localStorage.getItem(PUSH_KEY) === "1"; } catch { return false; } },
  set wanted(on) {
    try { if (on) localStorage.setItem(PUSH_KEY, "1"); else localStorage.removeItem(PUSH_KEY); } catch { /* storage disabled */ }
  },
};

/** Signing out: this browser's push subscription goes (on the server and in the browser), so
 * a shared device stops showing the last player's turns. */
async function dropPush() {
  if (!pushChoice.wanted) return;
  pushChoice.wanted = false;
  try {
    const reg = await worker;
    const sub = reg && "pushManager" in reg ? await reg.pushManager.getSubscription() : null;
    if (!sub) return;
    await request("DELETE", "/api/me/push", { endpoint: sub.endpoint }).catch(() => {});
    await sub.unsubscribe();
  } catch { /* nothing to drop */ }
}
