// A game in the lobby's lists: its seats, state and buttons (join, start, play, watch, replay);
// the lobby's shared state (the catalog, the bots). lobby.js, friends.js and
// newgame.js draw with these.
import { api, auth } from "./api.js";
import { h, clear, $, cap, timeAgo } from "./dom.js";
import { seatColour, botLabel } from "./seats.js";
import { t, tOr } from "./i18n.js";
import { describeControl, glyph } from "./asyncplay.js";
import { toast } from "./toast.js";

export const state = { catalog: [], bots: [], busy: false, refresh: () => {} };

export function seatBadge(seat) {
  const c = seatColour(seat);
  return h("span", { class: "seat-chip small", style: { background: c.fill, color: c.ink } }, String(seat + 1));
}

// ------------------------------------------------------------------ game summaries
export function seatEntries(g) {
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

export function isMine(g) {
  const u = auth.user;
  if (g.mine || g.your_seat !== undefined && g.your_seat !== null) return true;
  if (!u) return false;
  return seatEntries(g).some((e) => e.name === u.username && !e.bot);
}

export function titleOf(name) {
  const d = state.catalog.find((x) => x.name === name);
  return tOr(`game.${name}.title`, d ? d.title : cap(name || "game"));
}

export function gameItem(g, kind) {
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
      e.name && !e.bot ? h("a", { class: "player-link", href: `player.html?name=${encodeURIComponent(e.name)}` }, e.name)
        : h("span", { class: e.name ? "" : "muted" }, e.name || t("lobby.free"))))),
    extra,
    g.time_control ? h("span", { class: "small muted gi-time" }, glyph("clock"), " ", describeControl(g.time_control)) : null,
    g.updated_at || g.created_at ? h("span", { class: "small muted" }, timeAgo(g.updated_at || g.created_at)) : null,
    h("span", { class: "gi-actions" }, actions));
}

export function fill(id, items, empty) {
  const host = $(id);
  clear(host).append(...(items.length ? items : [h("li", { class: "empty-note" }, empty)]));
}

async function join(g) {
  try {
    await api.join(g.id);
    location.href = `game.html?id=${encodeURIComponent(g.id)}`;
  } catch (e) {
    toast(e.message);
    state.refresh();
  }
}

async function start(g) {
  try {
    await api.start(g.id);
    location.href = `game.html?id=${encodeURIComponent(g.id)}`;
  } catch (e) {
    toast(e.message);
    state.refresh();
  }
}
