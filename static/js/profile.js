// A player's profile (player.html?name=…; GET /api/players/{name}, docs/async-play.md): their
// current and finished games (only those the server lets this viewer see), ratings with their
// history as a chart, games per game and time control, the maps and cards they played most,
// the daily challenge streak; a follow button for a signed-in visitor.
import { api, auth, asList } from "./api.js";
import { h, clear, $, cap, timeAgo } from "./dom.js";
import { t, tOr, setupPage, unfilled } from "./i18n.js";
import { describeControl } from "./asyncplay.js";
import { ratingChart } from "./ratingchart.js";
import { toast } from "./toast.js";
import { expose } from "./hooks.js";

setupPage();
expose({ unfilled }); // window.menagerie (hooks.js)

const name = new URLSearchParams(location.search).get("name") || (auth.user && auth.user.username) || "";
const enc = encodeURIComponent;
const page = { games: [], cards: {} };

function titleOf(game) {
  const d = page.games.find((x) => x.name === game);
  return tOr(`game.${game}.title`, d ? d.title : cap(game || ""));
}

/** "move:3600" / "bank:600+10" / "untimed" as the lobby words it. */
function controlText(key) {
  if (key === "untimed") return t("time.untimed");
  if (key === "count") return describeControl({ mode: "count" });
  const [mode, rest] = key.split(":");
  const [seconds, increment] = rest.split("+").map(Number);
  return describeControl({ mode, seconds, increment });
}

function seatOf(g, uid) {
  const seat = (g.seats || []).find((x) => x.user && x.user.id === uid);
  return seat ? seat.seat : null;
}

function gameLine(g, uid) {
  const seat = seatOf(g, uid);
  const others = (g.seats || []).filter((x) => x.seat !== seat).map((x) => (x.user ? x.user.username : x.bot ? t("seat.bot") : t("lobby.free")));
  let what = g.status === "open" ? t("profile.waiting_players") : g.status === "running" ? t("profile.running") : "";
  if (g.status === "finished" && g.result) {
    const ranking = (g.result.ranking || []).map(Number);
    const place = ranking.indexOf(seat) + 1;
    const score = g.result.scores ? (g.result.scores[seat] ?? g.result.scores[String(seat)]) : undefined;
    what = g.result.aborted !== undefined && g.result.aborted !== null ? t("profile.aborted")
      : place && score !== undefined ? t("profile.place", { place, total: ranking.length, score })
        : place ? t("profile.place_only", { place, total: ranking.length }) : "";
  }
  return h("li", { class: "profile-game", dataset: { game: g.id } },
    h("a", { href: g.status === "finished" ? `replay.html?id=${enc(g.id)}` : `game.html?id=${enc(g.id)}` }, `${titleOf(g.game)} #${g.id}`),
    " ", h("span", { class: "small" }, others.length ? t("profile.against", { names: others.join(", ") }) : ""),
    " ", h("span", { class: "small strong result" }, what),
    " ", h("span", { class: "small muted" }, timeAgo(g.updated_at)));
}

function section(id, title, ...body) {
  return h("section", { class: "panel-box profile-section", id }, h("h2", title), ...body);
}

function list(items, empty) {
  return items.length ? h("ul", { class: "profile-list" }, items) : h("p", { class: "empty-note" }, empty);
}

async function cardName(game, id) {
  if (!page.cards[game]) {
    try {
      const cat = await api.gameCatalog(game);
      const named = {};
      for (const group of Object.values((cat && cat.cards) || {})) for (const c of Array.isArray(group) ? group : []) if (c && c.id) named[c.id] = c.name || c.id;
      page.cards[game] = named;
    } catch { page.cards[game] = {}; }
  }
  return page.cards[game][id] || id;
}

async function followButton(p) {
  if (!auth.signedIn || p.me) return null;
  const btn = h("button", { class: ["btn small", !p.following && "primary"], type: "button", id: "follow-toggle" },
    p.following ? t("friends.unfollow") : t("friends.follow"));
  btn.addEventListener("click", async () => {
    try {
      if (p.following) await api.del(`/api/me/following/${enc(p.user.username)}`);
      else await api.put(`/api/me/following/${enc(p.user.username)}`);
      p.following = !p.following;
      btn.replaceWith(await followButton(p));
    } catch (e) { toast(e.message); }
  });
  return btn;
}

async function render(p) {
  const uid = p.user.id;
  document.title = t("profile.page_title", { name: p.user.username });
  $("#profile-name").textContent = p.user.username;
  const ratings = p.ratings.map((r) => h("div", { class: "profile-rating", dataset: { game: r.game } },
    h("h3", titleOf(r.game)),
    h("p", null, h("strong", String(Math.round(r.rating))), ` ±${Math.round(r.rd)} · `,
      t("profile.rank_games", { rank: r.rank, games: r.games })),
    ratingChart(r.history, t("profile.chart_label", { game: titleOf(r.game) })) || h("p", { class: "muted small" }, t("profile.no_history"))));
  const played = p.played.map((x) => h("tr", null, h("td", titleOf(x.game)), h("td", controlText(x.time_control)), h("td", { class: "num" }, String(x.count))));
  const maps = p.maps.map((x) => h("li", null, `${titleOf(x.game)}: ${tOr(`map.${x.map}.name`, cap(x.map))} × ${x.count}`));
  const cards = await Promise.all(p.cards.map(async (x) => h("li", { dataset: { card: x.card } }, `${await cardName(x.game, x.card)} × ${x.count}`)));
  const streak = p.streak || { current: 0, best: 0 };
  clear($("#profile")).append(
    h("div", { class: "profile-head panel-box" },
      h("p", { class: "muted small" }, t("profile.since", { when: new Date(p.user.since).toLocaleDateString() })),
      h("p", { id: "profile-streak" }, t("profile.streak", { current: streak.current, best: streak.best })),
      await followButton(p)),
    section("profile-ratings", t("profile.ratings"), ratings.length ? h("div", { class: "profile-ratings" }, ratings) : h("p", { class: "empty-note" }, t("profile.no_ratings"))),
    section("profile-current", t("profile.current"), list(p.current.map((g) => gameLine(g, uid)), t("profile.no_current"))),
    section("profile-finished", t("profile.finished"), list(p.finished.map((g) => gameLine(g, uid)), t("profile.no_finished"))),
    section("profile-played", t("profile.played"), played.length ? h("table", { class: "lb-table" },
      h("thead", h("tr", h("th", { scope: "col" }, t("profile.game")), h("th", { scope: "col" }, t("profile.time_control")), h("th", { class: "num", scope: "col" }, t("profile.games_count")))),
      h("tbody", played)) : h("p", { class: "empty-note" }, t("profile.no_finished"))),
    section("profile-most", t("profile.most_played"),
      h("h3", t("profile.maps")), list(maps, t("profile.none")),
      h("h3", t("profile.cards")), list(cards, t("profile.none")),
      h("p", { class: "muted small" }, t("profile.cards_note", { games: p.cards_from }))));
}

async function init() {
  if (!name) { clear($("#profile")).append(h("p", { class: "empty-note" }, t("profile.no_name"))); return; }
  try { page.games = asList(await api.catalog(), "games", "catalog"); } catch { page.games = []; }
  try {
    await render(await api.get(`/api/players/${enc(name)}`));
  } catch (e) {
    clear($("#profile")).append(h("p", { class: "empty-note", role: "alert" }, e.message));
  }
}

init();
