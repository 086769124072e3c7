// The lobby's invitations and friends (issue #33; docs/async-play.md "Invitations and friends"):
// the invitations waiting for you (accept, decline; a rematch's too) and yours waiting for
// others (withdraw), what the players you follow are playing, and your friends list (follow,
// unfollow). Nothing here decides who sees a game: the server lists only what you may see.
import { api, auth, asList } from "./api.js";
import { h, clear, $ } from "./dom.js";
import { t } from "./i18n.js";
import { gameItem, state } from "./gameitem.js";
import { toast } from "./toast.js";

const enc = encodeURIComponent;

async function answer(g, how) {
  const route = g.rematch_of ? `rematch/${how}` : `invitation/${how}`;
  try {
    const res = await api.post(`/api/games/${enc(g.id)}/${route}`);
    if (how === "accept" && res && res.status === "running") location.href = `game.html?id=${enc(res.id ?? g.id)}`;
    else state.refresh();
  } catch (e) {
    toast(e.message);
    state.refresh();
  }
}

async function withdraw(g, name) {
  try {
    await api.del(`/api/games/${enc(g.id)}/invitations/${enc(name)}`);
  } catch (e) {
    toast(e.message);
  }
  state.refresh();
}

function received(g) {
  const item = gameItem(g, "invite");
  const by = g.created_by && g.created_by.username;
  item.insertBefore(h("span", { class: "small invite-by" }, g.rematch_of ? t("invite.rematch_from", { name: by || "?" }) : t("invite.from", { name: by || "?" })), item.querySelector(".gi-seats"));
  const host = item.querySelector(".gi-actions");
  clear(host).append(
    h("button", { class: "btn primary small", type: "button", dataset: { accept: g.id }, onclick: () => answer(g, "accept") }, t("lobby.accept")),
    h("button", { class: "btn small", type: "button", dataset: { decline: g.id }, onclick: () => answer(g, "decline") }, t("lobby.decline")),
    g.rematch_of ? h("a", { class: "btn small", href: `game.html?id=${enc(g.rematch_of)}` }, t("lobby.last_game")) : null);
  return item;
}

function sent(g) {
  const item = gameItem(g, "mine");
  const host = item.querySelector(".gi-actions");
  for (const seat of g.seats || []) {
    if (!seat.invited || !seat.user) continue;
    host.prepend(h("button", { class: "btn small", type: "button", dataset: { withdraw: `${g.id}:${seat.user.username}` },
      onclick: () => withdraw(g, seat.user.username) }, t("invite.withdraw", { name: seat.user.username })));
  }
  return item;
}

/** The invitations box: received ones first, then the caller's own still waiting. */
export async function renderInvites(signedIn) {
  const box = $("#invites");
  if (!box) return;
  let mine = { received: [], sent: [] };
  let rematches = [];
  if (signedIn) {
    try {
      [mine, rematches] = await Promise.all([api.get("/api/invitations"), api.get("/api/rematch/invitations").then((d) => asList(d))]);
    } catch { /* the lists stay empty */ }
  }
  const got = [...mine.received];
  for (const g of rematches) if (!got.some((x) => x.id === g.id)) got.push(g);
  box.hidden = !got.length && !mine.sent.length;
  clear($("#list-invites")).append(...got.map(received), ...mine.sent.map(sent));
}

async function unfollow(name) {
  try { await api.del(`/api/me/following/${enc(name)}`); } catch (e) { toast(e.message); }
  renderFriends();
}

/** What the players you follow are playing, and your friends list with the follow box. */
export async function renderFriends() {
  const box = $("#friends");
  if (!box) return;
  if (!auth.signedIn) { box.hidden = true; return; }
  let got;
  try {
    got = await Promise.all([api.get("/api/me/friends/games"), api.get("/api/me/following")]);
  } catch {
    box.hidden = true;
    return;
  }
  const [games, list] = got;
  box.hidden = false;
  clear($("#list-friends-games")).append(...(games.length ? games.map((g) => {
    const item = gameItem(g, g.status === "open" ? "open" : "watch");
    item.insertBefore(h("span", { class: "small friends-here" }, t("friends.playing", { names: (g.friends || []).join(", ") })), item.querySelector(".gi-seats"));
    return item;
  }) : [h("li", { class: "empty-note" }, list.length ? t("friends.none_playing") : t("friends.empty"))]));
  const err = h("span", { class: "form-error", role: "alert" });
  const name = h("input", { id: "follow-name", maxlength: 32, autocomplete: "off", placeholder: t("auth.name"), "aria-label": t("friends.follow_name") });
  const form = h("form", { class: "follow-form", onsubmit: async (e) => {
    e.preventDefault();
    err.textContent = "";
    if (!name.value.trim()) return;
    try {
      await api.put(`/api/me/following/${enc(name.value.trim())}`);
      renderFriends();
    } catch (e2) {
      err.textContent = e2.message;
    }
  } }, name, h("button", { class: "btn small primary", type: "submit", id: "follow-btn" }, t("friends.follow")), err);
  clear($("#friends-list")).append(
    h("ul", { class: "friends-names" }, list.map((f) => h("li", { dataset: { friend: f.user.username } },
      h("a", { href: `player.html?name=${enc(f.user.username)}` }, f.user.username),
      h("button", { class: "btn small ghost", type: "button", title: t("friends.unfollow"), "aria-label": t("friends.unfollow_name", { name: f.user.username }), onclick: () => unfollow(f.user.username) }, "×")))),
    form);
}
