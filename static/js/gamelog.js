// The game page's log: the versions' events the page missed (a jump past versions, a reload),
// read from GET /api/games/{id}/log page by page and merged into st.log in version order; and a
// finished game's private parts (its history).
import { api } from "./api.js";

/** The log's answer as [{version, events}] (a list of versions, or of events by version). */
export function normaliseLog(data) {
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

/** Read the versions after `after` into st.log; `redraw()` once they are in. */
export async function loadLog(st, after, redraw) {
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
    redraw();
  } catch {
    /* the log is a nicety */
  }
}

const opened = new Map();

/** Every seat's private part of a finished game, by seat (after the end the history opens them
 * to everybody: app/redaction.py), or null (a game still running, a failed request); asked once. */
export function loadPrivates(id) {
  if (!opened.has(id)) {
    opened.set(id, api.get(`/api/games/${encodeURIComponent(id)}/history`)
      .then((d) => (d && d.status === "finished" && d.privates) || null, () => null));
  }
  return opened.get(id);
}
