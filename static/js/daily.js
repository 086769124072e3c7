// The daily challenge (GET /api/daily, POST /api/daily/{kind}/start, the leaderboards): the
// lobby's "Today's challenge" card, and what the past-days page (dailypage.js) shares with it.
import { api, auth } from "./api.js";
import { h, clear } from "./dom.js";
import { lang, t, tOr } from "./i18n.js";
import { span } from "./asyncplay.js";

/** A daily kind's name and one line about it ("Duel" / "You against the MCTS bot …"). */
export function kindName(kind) {
  return tOr(`daily.kind.${kind}`, kind);
}

export function kindHelp(kind) {
  return tOr(`daily.kind.${kind}.help`, "");
}

/** 2031-03-10 as the page's language writes a date (the UTC day). */
export function dayLabel(day, style = "long") {
  try {
    return new Intl.DateTimeFormat(lang, { dateStyle: style, timeZone: "UTC" }).format(new Date(`${day}T00:00:00Z`));
  } catch {
    return day;
  }
}

/** Time used as a clock shows it: 4:05, 1:02:03. */
export function clockTime(seconds) {
  if (typeof seconds !== "number") return "–";
  const s = Math.round(seconds);
  const hh = Math.floor(s / 3600); const mm = Math.floor((s % 3600) / 60); const ss = s % 60;
  const two = (n) => String(n).padStart(2, "0");
  return hh ? `${hh}:${two(mm)}:${two(ss)}` : `${mm}:${two(ss)}`;
}

export function score(value) {
  if (typeof value !== "number") return "–";
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}

/** The streak in one line ("3 days in a row · best 5"), or null without one. */
export function streakText(streak) {
  if (!streak || !(streak.current || streak.best)) return null;
  const parts = [t("daily.streak", { count: streak.current })];
  if (streak.best > streak.current) parts.push(t("daily.streak_best", { count: streak.best }));
  return parts.join(" · ");
}

/** A leaderboard as a table: rank, player, score, time used, and the game (a replay once the
 * day is over, or your own game). */
export function boardTable(entries, { me, over, compact = false } = {}) {
  const head = h("thead", h("tr",
    h("th", { class: "num", scope: "col" }, t("daily.col.rank")),
    h("th", { scope: "col" }, t("daily.col.player")),
    h("th", { class: "num", scope: "col" }, t("daily.col.score")),
    h("th", { class: "num", scope: "col" }, t("daily.col.time")),
    compact ? null : h("th", { scope: "col" }, h("span", { class: "visually-hidden" }, t("daily.col.game")))));
  const rows = entries.map((e) => {
    const name = (e.user && e.user.username) || "?";
    const mine = me && e.user && e.user.id === me.id;
    const link = e.game_id ? h("a", {
      class: "btn small", dataset: { replay: e.game_id },
      href: over ? `replay.html?id=${encodeURIComponent(e.game_id)}` : `game.html?id=${encodeURIComponent(e.game_id)}`,
    }, over ? t("daily.replay") : t("daily.your_game")) : null;
    return h("tr", { class: mine ? "mine" : null, dataset: { user: name } },
      h("td", { class: "num" }, e.rank == null ? "—" : String(e.rank)),
      h("td", { class: "name" }, name),
      h("td", { class: "num strong" }, score(e.score)),
      h("td", { class: "num" }, clockTime(e.time_used)),
      compact ? null : h("td", { class: "game" }, link));
  });
  return h("table", { class: ["lb-table", "daily-board", compact && "compact"] }, head, h("tbody", rows));
}

/** What became of the caller's attempt, in one line. */
export function attemptText(a) {
  if (!a) return t("daily.not_started");
  if (a.status !== "finished") return t("daily.in_progress");
  const done = t("daily.result", { score: score(a.score), time: clockTime(a.time_used) });
  if (!a.in_time) return `${done} · ${t("daily.late")}`;
  if (a.ranked === false) return `${done} · ${t("daily.unranked")}`;
  return a.rank ? `${done} · ${t("daily.rank", { rank: a.rank })}` : done;
}

async function startKind(kind, button, toast) {
  button.disabled = true;
  try {
    const res = await api.post(`/api/daily/${encodeURIComponent(kind)}/start`);
    location.href = `game.html?id=${encodeURIComponent(res.game.id)}`;
  } catch (e) {
    button.disabled = false;
    toast(e.message);
  }
}

function kindCard(k, board, day, toast) {
  const a = k.attempt;
  let action;
  if (!auth.signedIn) {
    action = h("p", { class: "small muted dk-signin" }, t("daily.sign_in"));
  } else if (!a) {
    action = h("button", { class: "btn primary", type: "button", dataset: { dailyStart: k.kind },
      onclick: (e) => startKind(k.kind, e.currentTarget, toast) }, t("daily.start"));
  } else {
    const done = a.status === "finished";
    action = h("a", { class: ["btn", !done && "primary"], href: `game.html?id=${encodeURIComponent(a.game_id)}`,
      dataset: { dailyGame: a.game_id } }, done ? t("daily.your_game") : t("daily.resume"));
  }
  const entries = (board && board.entries) || [];
  return h("article", { class: ["daily-kind", a && `is-${a.status}`], dataset: { kind: k.kind } },
    h("div", { class: "dk-main" },
      h("div", { class: "dk-head" },
        h("h3", kindName(k.kind)),
        h("span", { class: "small muted" }, tOr(`game.${k.game}.title`, k.title || k.game))),
      h("p", { class: "small dk-help" }, kindHelp(k.kind)),
      h("div", { class: "dk-play" },
        auth.signedIn ? h("p", { class: "dk-state", dataset: { state: a ? a.status : "none" } }, attemptText(a)) : null,
        action)),
    h("div", { class: "dk-board" },
      h("h4", t("daily.leaderboard"), board ? h("span", { class: "small muted" }, " · ", t("daily.finished_count", { count: board.total })) : null),
      entries.length ? boardTable(entries, { me: auth.user, over: false, compact: true })
        : h("p", { class: "empty-note small" }, t("daily.empty_board")),
      h("a", { class: "small", href: `daily.html?day=${encodeURIComponent(day)}&kind=${encodeURIComponent(k.kind)}` }, t("daily.full_board"))));
}

let rollover = null;

/** Draw the lobby's card into ``host`` (a section); hidden when no challenge is offered. It
 * draws itself again when the day is over (a new challenge). */
export async function renderDailyCard(host, { toast }) {
  let data;
  try {
    data = await api.get("/api/daily");
  } catch {
    host.hidden = true;
    return;
  }
  const kinds = (data && data.kinds) || [];
  if (!kinds.length) { host.hidden = true; return; }
  const boards = await Promise.all(kinds.map((k) => api.get(
    `/api/daily/${encodeURIComponent(data.day)}/${encodeURIComponent(k.kind)}/leaderboard?limit=5`).catch(() => null)));
  const streak = streakText(data.streak);
  clearTimeout(rollover);
  rollover = setTimeout(() => renderDailyCard(host, { toast }), (data.seconds_left + 2) * 1000);
  host.hidden = false;
  clear(host).append(
    h("div", { class: "daily-head" },
      h("h2", { id: "h-daily" }, t("daily.title")),
      h("span", { class: "daily-meta muted" }, dayLabel(data.day), " · ",
        h("span", { id: "daily-left", dataset: { ends: data.ends_at } }, t("daily.next_in", { time: span(data.seconds_left) }))),
      streak ? h("span", { class: "daily-streak", id: "daily-streak" }, streak) : null,
      h("a", { class: "btn small daily-past", href: "daily.html", id: "daily-past" }, t("daily.past_days"))),
    h("div", { class: "daily-kinds" }, kinds.map((k, i) => kindCard(k, boards[i], data.day, toast))),
    h("p", { class: "small muted daily-note" }, t("daily.note")));
}
