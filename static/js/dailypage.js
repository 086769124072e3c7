// The daily challenge's days (daily.html?day=YYYY-MM-DD&kind=duel): a day's leaderboard per kind
// (with replays once the day is over) and the past days, newest first, with their winners, your
// own result and your streak (GET /api/daily, /api/daily/{day}/{kind}/leaderboard,
// /api/daily/history).
import { api, auth } from "./api.js";
import { h, clear, $ } from "./dom.js";
import { t, setupPage, unfilled } from "./i18n.js";
import { attemptText, boardTable, clockTime, dayLabel, kindName, score, streakText } from "./daily.js";
import { toast } from "./toast.js";
import { expose } from "./hooks.js";

setupPage();
expose({ unfilled }); // window.menagerie (hooks.js)

const PAGE = 50;
const params = new URLSearchParams(location.search);
const page = { day: params.get("day"), kind: params.get("kind"), kinds: [], offset: 0, before: null };

function dayUrl(day, kind) {
  return `daily.html?day=${encodeURIComponent(day)}${kind ? `&kind=${encodeURIComponent(kind)}` : ""}`;
}

function renderTabs() {
  clear($("#day-tabs")).append(...page.kinds.map((k) => h("button", {
    class: ["lb-tab", k === page.kind && "active"], type: "button", role: "tab",
    "aria-selected": String(k === page.kind), dataset: { kind: k },
    onclick: () => { page.kind = k; history.replaceState(null, "", dayUrl(page.day, k)); renderTabs(); loadBoard(true); },
  }, kindName(k))));
}

async function loadBoard(reset) {
  if (reset) page.offset = 0;
  let data;
  try {
    data = await api.get(`/api/daily/${encodeURIComponent(page.day)}/${encodeURIComponent(page.kind)}/leaderboard?limit=${PAGE}&offset=${page.offset}`);
  } catch (e) {
    toast(e.message);
    return;
  }
  const host = $("#day-board");
  const entries = data.entries || [];
  $("#day-note").textContent = data.over ? t("daily.day_over") : t("daily.day_running");
  $("#day-counts").textContent = [t("daily.players", { count: data.players }), t("daily.finished_count", { count: data.total }),
    data.you ? `${t("daily.you")}: ${attemptText(data.you)}` : null].filter(Boolean).join(" · ");
  if (reset) clear(host);
  if (!entries.length && reset) {
    host.append(h("p", { class: "empty-note" }, t("daily.empty_board")));
  } else {
    const table = boardTable(entries, { me: auth.user, over: data.over });
    const existing = host.querySelector("tbody");
    if (existing && !reset) existing.append(...table.querySelector("tbody").children);
    else host.append(table);
  }
  page.offset += entries.length;
  $("#day-more").hidden = page.offset >= data.total;
  const unranked = data.unranked || [];
  if (reset && unranked.length) {  // practice deals of new accounts: shown, never ranked
    host.append(h("section", { class: "daily-unranked" },
      h("h3", t("daily.unranked_title")),
      h("p", { class: "small muted" }, t("daily.unranked_note")),
      boardTable(unranked, { me: auth.user, over: data.over })));
  }
}

function pastItem(day) {
  const kinds = day.kinds.map((k) => {
    const won = k.winner;
    return h("div", { class: "past-kind", dataset: { kind: k.kind } },
      h("strong", kindName(k.kind)), " ",
      h("span", { class: "small muted" }, t("daily.players", { count: k.players }), " · ", t("daily.finished_count", { count: k.finished })),
      won ? h("span", { class: "small" }, " · ", t("daily.winner", { name: won.user.username, score: score(won.score), time: clockTime(won.time_used) }), " ",
        h("a", { class: "btn small", href: `replay.html?id=${encodeURIComponent(won.game_id)}`, dataset: { replay: won.game_id } }, t("daily.replay"))) : null,
      k.you ? h("span", { class: "small past-you" }, " · ", t("daily.you"), ": ", attemptText(k.you), " ",
        h("a", { class: "btn small", href: `replay.html?id=${encodeURIComponent(k.you.game_id)}` }, t("daily.your_game"))) : null);
  });
  return h("li", { class: "game-item past-day", dataset: { day: day.day } },
    h("a", { class: "gi-title", href: dayUrl(day.day) }, dayLabel(day.day)),
    h("div", { class: "past-kinds" }, kinds));
}

async function loadPast(more) {
  let data;
  try {
    data = await api.get(`/api/daily/history?limit=14${more && page.before ? `&before=${page.before}` : ""}`);
  } catch (e) {
    toast(e.message);
    return;
  }
  const list = $("#past-list");
  if (!more) clear(list);
  list.append(...data.days.map(pastItem));
  if (!list.children.length) list.append(h("li", { class: "empty-note" }, t("daily.no_past")));
  page.before = data.next_before;
  $("#past-more").hidden = !data.next_before;
  const streak = streakText(data.streak);
  $("#past-streak").hidden = !streak;
  $("#past-streak").textContent = streak || "";
}

async function init() {
  let today;
  try {
    today = await api.get("/api/daily");
  } catch (e) {
    toast(e.message);
    return;
  }
  page.kinds = (today.kinds || []).map((k) => k.kind);
  if (!page.day || !/^\d{4}-\d{2}-\d{2}$/.test(page.day)) page.day = today.day;
  if (!page.kind || !page.kinds.includes(page.kind)) page.kind = page.kinds[0];
  $("#day-title").textContent = page.day === today.day ? t("daily.today_title", { day: dayLabel(page.day) })
    : t("daily.day_title", { day: dayLabel(page.day) });
  document.title = `${$("#day-title").textContent} — Menagerie`;
  $("#day-more").addEventListener("click", () => loadBoard(false));
  $("#past-more").addEventListener("click", () => loadPast(true));
  renderTabs();
  if (page.kind) await loadBoard(true);
  else $("#day-board").append(h("p", { class: "empty-note" }, t("daily.none_today")));
  await loadPast(false);
}

init();
