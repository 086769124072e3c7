// The game page's live connection: the WebSocket of a game (reconnecting with a growing,
// jittered delay; a "sync" after each opening asks for what was missed) and the connection
// indicator in the header. The messages go to the page's `onMessage`.
import { wsUrl } from "./api.js";
import { t } from "./i18n.js";

/** The indicator `el` (#conn): live, connecting, down, idle; `text` overrides the words. */
export function setConn(el, state, text) {
  el.dataset.state = state;
  const label = { live: t("conn.live"), connecting: t("conn.connecting"), down: t("conn.down"), idle: t("conn.idle") }[state] || state;
  el.querySelector(".conn-text").textContent = text || label;
  el.title = text || label;
  document.body.classList.toggle("disconnected", state === "down");
}

/** The close code of a full server (app/quotas.py): a new spectator is shed for a while. */
export const CROWDED = 4503;
const SHED = new Set(["crowded", "server_busy"]);
/** A socket quiet this long asks for what it may have missed (a "sync"); one that answers
 * nothing, not even "synced", within ANSWER_WITHIN is taken for dead and opened again. */
export const QUIET_MS = 25000;
const ANSWER_WITHIN = 10000;

export class Live {
  /** st: the page state (its id and version); onMessage(msg); conn(state, text): the indicator. */
  constructor(st, { onMessage, conn }) {
    this.st = st;
    this.onMessage = onMessage;
    this.conn = conn;
    this.ws = null;
    this.attempt = 0;
    this.timer = null;
    this.stopped = false;
    this.shed = 0; // refusals in a row with 4503 (crowded)
    this.retryAfter = 0;
    this.quietMs = QUIET_MS; // a test may shorten it
  }

  connect() {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.conn("connecting");
    let ws;
    try {
      ws = new WebSocket(wsUrl(this.st.id));
    } catch {
      this.schedule();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      if (this.ws !== ws) return;
      this.attempt = 0;
      this.conn("live");
      ws.send(JSON.stringify({ type: "sync", after: Math.max(this.st.version, 0) }));
      this.heard = Date.now();
      this.asked = 0;
      clearInterval(this.beat);
      this.beat = setInterval(() => this.checkQuiet(ws), 5000);
    };
    ws.onmessage = (e) => {
      if (this.ws !== ws) return;
      this.heard = Date.now();
      this.asked = 0;
      let msg;
      try { msg = JSON.parse(e.data); } catch { return; }
      if (msg && msg.type === "error" && msg.error && SHED.has(msg.error.code)) {
        // the process is full: the close (4503) follows; wait what the server asks
        this.retryAfter = Number(msg.error.retry_after) || 0;
        return;
      }
      if (msg && msg.type === "hello") this.shed = 0;
      this.onMessage(msg);
    };
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      this.ws = null;
      clearInterval(this.beat);
      if (ev.code === 4404) { this.stopped = true; this.conn("down", t("conn.no_such_game")); return; }
      if (ev.code === CROWDED) { this.crowded(); return; }
      this.schedule();
    };
    ws.onerror = () => { /* onclose follows */ };
  }

  /** A version announced while a message was lost must not leave the table stale for good:
   * after QUIET_MS of silence the socket asks for the versions after the page's own (the
   * server answers them, if any, then "synced"); no answer at all closes it (reconnect). */
  checkQuiet(ws) {
    if (this.ws !== ws || ws.readyState !== 1) { clearInterval(this.beat); return; }
    const now = Date.now();
    if (this.asked && now - this.asked >= ANSWER_WITHIN) {
      this.asked = 0;
      ws.close();
      return;
    }
    if (!this.asked && now - this.heard >= this.quietMs) {
      this.asked = now;
      ws.send(JSON.stringify({ type: "sync", after: Math.max(this.st.version, 0) }));
    }
  }

  schedule() {
    if (this.stopped) return;
    const hold = Math.max(0, (this.holdUntil || 0) - Date.now());
    const delay = Math.max(hold, Math.min(10000, 400 * 2 ** this.attempt) * (0.75 + Math.random() * 0.5));
    this.attempt += 1;
    this.conn("down", t("conn.reconnecting", { s: Math.ceil(delay / 1000) }));
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.connect(), delay);
  }

  /** Refused with 4503 (too many sockets on the server): come back after the server's hint
   * (at least 5 s), jittered and growing with each refusal in a row, so a crowd spreads out. */
  crowded() {
    const hint = Math.max(5, this.retryAfter || 15) * 1000;
    const delay = Math.min(300000, hint * 1.5 ** Math.min(this.shed, 6)) * (0.75 + Math.random() * 0.5);
    this.retryAfter = 0;
    this.shed += 1;
    this.conn("down", t("conn.crowded", { s: Math.ceil(delay / 1000) }));
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
