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
    };
    ws.onmessage = (e) => {
      if (this.ws !== ws) return;
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
      if (ev.code === 4404) { this.stopped = true; this.conn("down", t("conn.no_such_game")); return; }
      if (ev.code === CROWDED) { this.crowded(); return; }
      this.schedule();
    };
    ws.onerror = () => { /* onclose follows */ };
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
