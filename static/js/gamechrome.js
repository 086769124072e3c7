// What the game page draws around the table: the header (title, who I am, the status line with
// clocks, hints badge and undo, the tools: vacation notes, resign, next game, bell (gametools.js
// folds them into a "⋯" menu on a phone), the away banner), the waiting room before the start, the
// replay and rematch buttons of the final screen (its toasts: toast.js).
// `page`: {st, els, ui() (the table), conn(state, text), applyState, resync, refreshSummary, load}.
import { api, auth } from "./api.js";
import { h, clear, $ } from "./dom.js";
import { seatTag } from "./seats.js";
import { t, tOr } from "./i18n.js";
import { awayBanner, clockChips, notificationButton, titleWithCount, undoButton } from "./asyncplay.js";
import { exitButtons, outcomeNote, resignedBanner, waitingButtons } from "./exits.js";
import { nextGameButton } from "./nextgame.js";
import { renderTools } from "./gametools.js";
import { vacationNotes } from "./vacation.js";
import { toast } from "./toast.js";

export function renderHeader(page) {
  const { st, els } = page;
  const ui = page.ui();
  const g = st.summary || {};
  const title = tOr(`game.${st.gameName || g.game}.title`, (st.catalogInfo && st.catalogInfo.title) || g.title || g.game || t("game.game"));
  els.title.textContent = `${title} · #${st.id}`;
  document.title = t("game.doc_title", { title, id: st.id });
  const u = auth.user;
  clear(els.me).append(u ? h("span", { class: "who" }, t("auth.signed_in_as", { name: u.username })) : h("a", { href: "./" }, t("game.sign_in")),
    st.seat === null ? h("span", { class: "badge spectator" }, t("game.spectator")) : h("span", { class: "badge" }, t("game.you_are"), " ", seatTag(st.seat, { small: true })));
  const line = [];
  if (st.status === "open") { line.push(t("game.waiting_for_players")); page.conn("idle", t("conn.not_started")); }
  else if (ui && ui.statusLine) line.push(...ui.statusLine());
  if (st.status === "running" || st.status === "finished") {
    const clocks = clockChips(g, g.clock);
    if (clocks) line.push(clocks);
  }
  if (g.hints) line.push(h("span", { class: "badge hints", title: t("hints.badge_help") }, t("hints.badge")));
  const undo = st.seat !== null ? undoButton(st, { applyState: page.applyState, resync: page.resync, toast }) : null;
  if (undo) line.push(undo);
  clear(els.status).append(...line);
  const tools = [...vacationNotes(st), ...exitButtons(st, { reload: () => page.load(), toast })];
  const next = nextGameButton(st.id, toast);
  if (next) tools.push(next);
  const bell = auth.user ? notificationButton() : null;
  if (bell) tools.push(bell);
  renderTools(tools);
  const away = awayBanner(st, { reload: () => page.refreshSummary(), toast }) || resignedBanner(st);
  for (const id of ["away-banner", "resigned-banner"]) {
    const old = document.getElementById(id);
    if (old) old.remove();
  }
  if (away) document.body.insertBefore(away, document.getElementById("decision"));
  document.title = titleWithCount(document.title, st.turns);
  const name = encodeURIComponent(st.gameName || g.game || "arknova");
  for (const a of document.querySelectorAll(".top-links a")) {
    if (/rules\.html/.test(a.getAttribute("href"))) a.href = `rules.html?game=${name}`;
    if (/cards\.html/.test(a.getAttribute("href"))) a.href = `cards.html?game=${name}`;
  }
}

export function renderWaitingRoom(page) {
  const { st, els } = page;
  const g = st.summary || {};
  const seats = Array.isArray(g.seats) ? g.seats : [];
  const total = g.seat_count || g.seats_total || (typeof g.seats === "number" ? g.seats : seats.length);
  const me = auth.user;
  const mine = seats.some((x) => x && me && (x.username === me.username || (x.user && (x.user.username === me.username || x.user === me.username))));
  const filled = seats.filter((x) => x && (x.user || x.username || x.bot)).length;
  const rows = [];
  for (let i = 0; i < Math.max(total, seats.length); i++) {
    const entry = seats.find((x) => x && x.seat === i) || seats[i];
    const taken = entry && (entry.user || entry.username || entry.bot);
    rows.push(h("li", null, seatTag(i), " ", taken ? (entry.bot ? h("em", t("seat.bot")) : "") : h("em", { class: "muted" }, t("game.free_seat"))));
  }
  const buttons = [];
  if (!me) buttons.push(h("a", { class: "btn", href: "./" }, t("lobby.sign_in_to_join")));
  else if (!mine) buttons.push(h("button", { class: "btn primary", id: "join-btn", onclick: async (e) => { e.target.disabled = true; try { await api.join(st.id); } catch (err) { toast(err.message); } page.load(); } }, t("game.join_this_game")));
  const creator = g.created_by && me && (g.created_by.username === me.username || g.created_by.id === me.id);
  if (mine && !creator) buttons.push(h("p", { class: "muted" }, (g.created_by && g.created_by.username) ? t("game.creator_starts", { name: g.created_by.username }) : t("game.the_creator_starts")));
  buttons.push(...waitingButtons(st, { mine, creator, reload: () => page.load(), toast }));
  if (mine && creator) buttons.push(h("button", { class: "btn primary", id: "start-btn", disabled: filled < total, onclick: async (e) => { e.target.disabled = true; try { await api.start(st.id); } catch (err) { toast(err.message); } page.load(); } }, filled < total ? t("game.start_count", { filled, total }) : t("game.start_the_game")));
  const link = h("input", { readonly: true, value: location.href, "aria-label": t("game.link_aria"), onfocus: (e) => e.target.select() });
  clear(els.waiting).append(...[h("h2", t("game.waiting_for_players")), h("ul", { class: "seat-list" }, rows),
    filled < total ? h("p", { class: "invite" }, h("span", t("game.invite")), link) : null,
    // a joiner reads it before joining: the join is the agreement
    g.hints ? h("p", { class: "hints-note", id: "hints-note" }, h("span", { class: "badge hints" }, t("hints.badge")), " ", t("hints.badge_help")) : null,
    h("div", { class: "row" }, buttons)].filter(Boolean));
  els.waiting.hidden = false;
}

/** The table draws the final screen; replay and rematch join it each time it is drawn. */
export function watchFinalScreen(st) {
  const add = () => {
    const card = document.querySelector("#final-screen .final-card");
    if (!card || card.querySelector(".final-extra")) return;
    const buttons = [h("a", { class: "btn", id: "replay-link", href: `replay.html?id=${encodeURIComponent(st.id)}` }, t("final.replay"))];
    if (st.seat !== null && st.seat !== undefined && auth.user) {
      buttons.push(h("button", {
        class: "btn primary", type: "button", id: "rematch-btn",
        onclick: async (e) => {
          e.currentTarget.disabled = true;
          const btn = e.currentTarget;
          try {
            const g = await api.post(`/api/games/${encodeURIComponent(st.id)}/rematch`);
            // someone asked first and we are invited: clicking "Rematch" says yes
            if ((g.invited || []).includes(g.your_seat)) await api.post(`/api/games/${encodeURIComponent(g.id)}/rematch/accept`);
            location.href = `game.html?id=${encodeURIComponent(g.id)}`;
          } catch (err) {
            btn.disabled = false;
            toast(err.message);
          }
        },
      }, t("final.rematch")));
    }
    const note = outcomeNote(st.result || (st.summary && st.summary.result));
    if (note) card.appendChild(note);
    card.appendChild(h("p", { class: "final-extra row" }, buttons));
  };
  new MutationObserver(add).observe($("#final-screen"), { childList: true });
}
