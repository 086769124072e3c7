// The leaderboard: one tab per game, the rated players best first (GET /api/ratings/{game}), and
// a player's ratings in every game (GET /api/users/{name}/ratings) when a name is clicked.
import { api, asList } from "./api.js";
import { h, clear, $, cap } from "./dom.js";
import { t, tOr, setupPage } from "./i18n.js";
import { toast } from "./toast.js";

setupPage();

const PAGE = 50;
const params = new URLSearchParams(location.search);
const lb = { games: [], game: params.get("game"), offset: 0, total: 0 };

function titleOf(name) {
  const d = lb.games.find((x) => x.name === name);
  return tOr(`game.${name}.title`, d ? d.title : cap(name || ""));
}

function renderTabs() {
  clear($("#lb-tabs")).append(...lb.games.map((g) => h("button", {
    class: ["lb-tab", g.name === lb.game && "active"], type: "button", role: "tab",
    "aria-selected": String(g.name === lb.game), dataset: { game: g.name },
    onclick: () => select(g.name),
  }, titleOf(g.name))));
}

function row(e) {
  const name = e.user && e.user.username;
  return h("tr", { dataset: { user: name || "" } },
    h("td", { class: "num" }, String(e.rank)),
    h("td", h("button", { class: "link-button", type: "button", onclick: () => showPlayer(name) }, name || "?")),
    h("td", { class: "num strong" }, String(Math.round(e.rating))),
    h("td", { class: "num" }, `±${Math.round(e.rd)}`),
    h("td", { class: "num" }, String(e.games)));
}

async function loadPage(reset) {
  if (reset) {
    lb.offset = 0;
    clear($("#lb-rows"));
  }
  let data;
  try {
    data = await api.get(`/api/ratings/${encodeURIComponent(lb.game)}?limit=${PAGE}&offset=${lb.offset}`);
  } catch (err) {
    toast(err.message);
    return;
  }
  const entries = data.entries || [];
  lb.total = data.total || 0;
  lb.offset += entries.length;
  const body = $("#lb-rows");
  body.append(...entries.map(row));
  if (!body.children.length) body.append(h("tr", h("td", { colspan: 5, class: "muted" }, t("leaderboard.empty"))));
  $("#lb-more").hidden = lb.offset >= lb.total;
}

function select(name) {
  lb.game = name;
  const url = new URL(location.href);
  url.searchParams.set("game", name);
  history.replaceState(null, "", url);
  renderTabs();
  loadPage(true);
}

async function showPlayer(name) {
  if (!name) return;
  const host = $("#lb-player");
  let data;
  try {
    data = await api.get(`/api/users/${encodeURIComponent(name)}/ratings`);
  } catch (err) {
    toast(err.message);
    return;
  }
  const list = data.ratings || [];
  clear(host).append(h("h2", t("leaderboard.player_title", { name: data.user.username })),
    list.length ? h("ul", { class: "lb-player-list" }, list.map((r) => h("li", null,
      h("strong", titleOf(r.game)), " ",
      t("leaderboard.player_line", { rating: Math.round(r.rating), rd: Math.round(r.rd), rank: r.rank, count: r.games }))))
      : h("p", { class: "muted" }, t("leaderboard.player_none")));
  host.hidden = false;
}

async function init() {
  try {
    lb.games = asList(await api.catalog(), "games", "catalog");
  } catch (err) {
    toast(err.message);
  }
  if (!lb.games.length) {
    clear($("#lb-rows")).append(h("tr", h("td", { colspan: 5, class: "muted" }, t("leaderboard.empty"))));
    return;
  }
  if (!lb.games.some((g) => g.name === lb.game)) lb.game = lb.games[0].name;
  $("#lb-more").addEventListener("click", () => loadPage(false));
  select(lb.game);
  if (params.get("user")) showPlayer(params.get("user"));
}

init();
