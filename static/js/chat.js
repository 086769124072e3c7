// The chat of the game page: a button in the corner opens a panel with the players' channel
// and, for spectators (and for everyone once the game is over), the spectators' channel.
//
// History comes from GET /api/games/{id}/chat, live lines from the game socket
// ({"type": "chat", "message"}), own lines from the POST's answer. Every line is plain text and
// is only ever put into the page as text (h() children become text nodes, never HTML).
import { request, auth, ApiError } from "./api.js";
import { h, clear } from "./dom.js";
import { t } from "./i18n.js";

const CHANNELS = ["players", "spectators"];
const MAX = 500;

function clock(iso) {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  return d.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}

export class Chat {
  constructor({ gameId }) {
    this.gameId = gameId;
    this.seat = null;
    this.status = null;
    this.known = false;          // seat and status known (after the first sync)
    this.active = "players";
    this.open = false;
    this.sending = false;
    this.channels = {};
    for (const c of CHANNELS) this.channels[c] = { lines: [], ids: new Set(), last: null, loaded: false, loading: null, unread: 0 };
    this.build();
  }

  // ---------------------------------------------------------------- who reads and writes what
  get seated() { return this.seat !== null && this.seat !== undefined; }
  get finished() { return this.status === "finished"; }

  readable() {
    return CHANNELS.filter((c) => c === "players" || this.finished || !this.seated);
  }

  writable() {
    if (!auth.signedIn) return null;
    return this.seated ? "players" : "spectators";
  }

  // ---------------------------------------------------------------- DOM
  build() {
    this.badge = h("span", { class: "chat-unread", hidden: true });
    this.toggleBtn = h("button", {
      type: "button", id: "chat-toggle", class: "chat-toggle", "aria-expanded": "false", "aria-controls": "chat",
      title: t("chat.open"), onclick: () => this.setOpen(!this.open),
    }, h("span", { class: "chat-toggle-label" }, t("chat.title")), this.badge);
    this.tabs = h("div", { class: "chat-tabs", role: "tablist", "aria-label": t("chat.channels") });
    this.note = h("p", { class: "chat-note small muted" });
    this.list = h("ol", { class: "chat-lines", "aria-live": "polite", "aria-label": t("chat.title") });
    this.input = h("input", { type: "text", class: "chat-input", id: "chat-input", maxlength: MAX, autocomplete: "off", placeholder: t("chat.placeholder"), "aria-label": t("chat.placeholder") });
    this.error = h("p", { class: "form-error chat-error", role: "alert" });
    this.form = h("form", { class: "chat-form", onsubmit: (e) => { e.preventDefault(); this.send(); } },
      this.input, h("button", { type: "submit", class: "btn primary small chat-send" }, t("chat.send")));
    this.signIn = h("p", { class: "chat-sign-in small muted" }, h("a", { href: "./" }, t("chat.sign_in")));
    this.panel = h("aside", { id: "chat", class: "chat-panel", hidden: true, "aria-label": t("chat.title") },
      h("div", { class: "chat-head" }, h("h2", { class: "chat-title" }, t("chat.title")), this.tabs,
        h("button", { type: "button", class: "btn ghost small chat-close", "aria-label": t("chat.close"), onclick: () => this.setOpen(false) }, "×")),
      this.note, this.list, this.form, this.signIn, this.error);
    // the toggle in the page header (over the table it covered cards and buttons), else floating
    (document.querySelector(".topbar .top-links") || document.body).append(this.toggleBtn);
    document.body.append(this.panel);
    this.render();
  }

  setOpen(open) {
    this.open = open;
    this.panel.hidden = !open;
    this.toggleBtn.setAttribute("aria-expanded", String(open));
    this.toggleBtn.title = open ? t("chat.close") : t("chat.open");
    document.body.classList.toggle("chat-open", open);
    if (open) {
      this.channels[this.active].unread = 0;
      this.render();
      this.scrollDown(true);
      if (this.writable()) this.input.focus();
    }
  }

  select(channel) {
    this.active = channel;
    this.channels[channel].unread = 0;
    this.error.textContent = "";
    this.render();
    this.scrollDown(true);
  }

  render() {
    const readable = this.readable();
    if (!readable.includes(this.active)) this.active = readable[0];
    clear(this.tabs);
    if (readable.length > 1) {
      for (const c of readable) {
        const label = c === "players" ? t("chat.players") : t("chat.spectators");
        const unread = this.channels[c].unread;
        this.tabs.append(h("button", {
          type: "button", role: "tab", class: "chat-tab", dataset: { channel: c },
          "aria-selected": String(c === this.active), onclick: () => this.select(c),
        }, label, unread && c !== this.active ? h("span", { class: "chat-unread" }, String(unread)) : null));
      }
    }
    const mine = this.writable();
    this.note.textContent = this.active === "spectators" && !this.finished ? t("chat.spectators_note")
      : (this.active === "players" && mine === "spectators" ? t("chat.players_note") : "");
    this.note.hidden = !this.note.textContent;
    this.form.hidden = !mine || mine !== this.active;
    this.signIn.hidden = !!mine;
    this.renderLines();
    const unread = readable.reduce((n, c) => n + this.channels[c].unread, 0);
    this.badge.hidden = unread === 0;
    this.badge.textContent = String(unread);
    this.badge.setAttribute("aria-label", t("chat.unread", { count: unread }));
  }

  renderLines() {
    const ch = this.channels[this.active];
    const me = auth.user;
    const items = ch.lines.map((m) => h("li", {
      class: ["chat-line", me && m.user && m.user.username === me.username && "mine"], dataset: { id: m.id },
    },
    h("span", { class: "chat-who", title: (m.user && m.user.username) || null }, (m.user && m.user.username) || "?"),
    h("span", { class: "chat-text" }, m.text),
    h("time", { class: "chat-at", datetime: m.at }, clock(m.at))));
    clear(this.list).append(...(items.length ? items : [h("li", { class: "chat-empty muted" }, t("chat.empty"))]));
  }

  scrollDown(force = false) {
    const l = this.list;
    if (force || l.scrollHeight - l.scrollTop - l.clientHeight < 80) l.scrollTop = l.scrollHeight;
  }

  // ---------------------------------------------------------------- lines
  add(channel, messages, live = false) {
    const ch = this.channels[channel];
    if (!ch) return;
    let added = 0;
    for (const m of messages) {
      if (!m || ch.ids.has(m.id)) continue;
      ch.ids.add(m.id);
      ch.lines.push(m);
      if (ch.last === null || m.id > ch.last) ch.last = m.id;
      added += 1;
      const me = auth.user;
      const own = me && m.user && m.user.username === me.username;
      if (live && !own && (!this.open || channel !== this.active)) ch.unread += 1;
    }
    if (!added) return;
    ch.lines.sort((a, b) => a.id - b.id);
    if (ch.lines.length > 500) {
      for (const old of ch.lines.splice(0, ch.lines.length - 500)) ch.ids.delete(old.id);
    }
    this.render();
    if (channel === this.active) this.scrollDown();
  }

  /** A live line from the socket. */
  receive(message) {
    if (!message || !CHANNELS.includes(message.channel)) return;
    if (!this.readable().includes(message.channel)) return;
    this.add(message.channel, [message], true);
  }

  async load(channel) {
    const ch = this.channels[channel];
    if (ch.loading) return ch.loading;
    ch.loading = (async () => {
      try {
        const q = new URLSearchParams({ channel, limit: "200" });
        if (ch.last !== null) q.set("after", String(ch.last));
        const res = await request("GET", `/api/games/${encodeURIComponent(this.gameId)}/chat?${q}`);
        ch.loaded = true;
        this.add(channel, (res && res.messages) || []);
      } catch {
        /* the chat is a nicety: the next catch-up tries again */
      } finally {
        ch.loading = null;
      }
    })();
    return ch.loading;
  }

  /** What the lines missed (after a reconnect, or while the game is open and has no socket). */
  catchUp() {
    if (!this.known) return;
    for (const c of this.readable()) this.load(c);
  }

  /** The viewer's seat and the game's status (from the game page, after every render). */
  sync(seat, status) {
    const seatNow = seat === undefined ? null : seat;
    if (this.known && seatNow === this.seat && status === this.status) return;
    this.seat = seatNow;
    this.status = status;
    this.known = true;
    this.render();
    for (const c of this.readable()) if (!this.channels[c].loaded) this.load(c);
  }

  async send() {
    const channel = this.writable();
    const text = this.input.value.trim();
    this.error.textContent = "";
    if (!channel || !text || this.sending) return;
    if (text.length > MAX) { this.error.textContent = t("chat.too_long", { max: MAX }); return; }
    this.sending = true;
    try {
      const m = await request("POST", `/api/games/${encodeURIComponent(this.gameId)}/chat`, { channel, text });
      this.input.value = "";
      if (m && m.channel) this.add(m.channel, [m]);
    } catch (err) {
      this.error.textContent = err instanceof ApiError ? err.message : t("chat.failed");
    } finally {
      this.sending = false;
    }
  }
}
