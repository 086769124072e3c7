// The HTTP side of the contract (see the architecture spec): JSON in, JSON out, a Bearer token.
// Errors are thrown as ApiError with the server's code and sentence (in the page's language:
// every request says Accept-Language; the codes stay the same in every language).
import { lang, t } from "./i18n.js";

const TOKEN_KEY = "menagerie.token";
const USER_KEY = "menagerie.user";

export class ApiError extends Error {
  constructor(status, code, message, body) {
    super(message || code || `HTTP ${status}`);
    this.status = status;
    this.code = code || `http_${status}`;
    this.body = body;
  }
}

export const auth = {
  get token() {
    try { return localStorage.getItem(TOKEN_KEY); } catch { return null; }
  },
  get user() {
    try { return JSON.parse(localStorage.getItem(USER_KEY) || "null"); } catch { return null; }
  },
  save(user, token) {
    localStorage.setItem(TOKEN_KEY, token);
    localStorage.setItem(USER_KEY, JSON.stringify(user));
    window.dispatchEvent(new CustomEvent("menagerie:auth"));
  },
  clear() {
    localStorage.removeItem(TOKEN_KEY);
    localStorage.removeItem(USER_KEY);
    window.dispatchEvent(new CustomEvent("menagerie:auth"));
  },
};

/** One JSON request. `opts.auth === false` sends no token. */
export async function request(method, path, body, opts = {}) {
  const headers = { Accept: "application/json", "Accept-Language": lang };
  const token = auth.token;
  if (token && opts.auth !== false) headers.Authorization = `Bearer ${token}`;
  const init = { method, headers, credentials: "same-origin" };
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch (err) {
    throw new ApiError(0, "network", t("error.network"));
  }
  let data = null;
  const text = await res.text();
  if (text) {
    try { data = JSON.parse(text); } catch { data = { raw: text }; }
  }
  if (!res.ok) {
    const e = (data && data.error) || {};
    if (res.status === 401 && token && opts.auth !== false && !opts.retried) {
      // a revoked or expired token: forget it and try once as a guest
      auth.clear();
      if (!opts.noRetry) return request(method, path, body, { ...opts, retried: true });
    }
    throw new ApiError(res.status, e.code, e.message || (data && data.detail) || res.statusText, data);
  }
  return data;
}

export const api = {
  get: (p, o) => request("GET", p, undefined, o),
  post: (p, b, o) => request("POST", p, b === undefined ? {} : b, o),

  register: (username, password) => request("POST", "/api/auth/register", { username, password }, { auth: false }),
  login: (username, password) => request("POST", "/api/auth/login", { username, password }, { auth: false }),
  logout: () => request("POST", "/api/auth/logout", {}, { noRetry: true }),

  catalog: () => request("GET", "/api/catalog"),
  gameCatalog: (game) => request("GET", `/api/catalog/${encodeURIComponent(game)}`),

  games: (params) => request("GET", `/api/games?${new URLSearchParams(params)}`),
  createGame: (body) => request("POST", "/api/games", body),
  join: (id) => request("POST", `/api/games/${id}/join`, {}),
  start: (id) => request("POST", `/api/games/${id}/start`, {}),
  game: (id) => request("GET", `/api/games/${id}`),
  legal: (id) => request("GET", `/api/games/${id}/legal`),
  act: (id, version, action) => request("POST", `/api/games/${id}/actions`, { version, action }),
  log: (id, after) => request("GET", `/api/games/${id}/log?after=${after}`),
};

/** The WebSocket address of a game (token as query parameter; none = spectator). `lang`: the
 * page's language for the socket's error sentences (a browser's handshake sends its own). */
export function wsUrl(id) {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const token = auth.token;
  const q = new URLSearchParams({ lang });
  if (token) q.set("token", token);
  return `${proto}//${location.host}/api/games/${id}/ws?${q}`;
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
