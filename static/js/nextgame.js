// "My next game" (issue #33): a button on every game page, and Shift+N, that go to the next
// game where it is your move (the closest deadline first: GET /api/games/next?after=<this>).
import { api, auth } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";

let shown = null; // the page's toast function, once installed

async function go(currentId, toast) {
  try {
    const after = currentId ? `?after=${encodeURIComponent(currentId)}` : "";
    const res = await api.get(`/api/games/next${after}`);
    if (res && res.game) location.href = `game.html?id=${encodeURIComponent(res.game.id)}`;
    else toast(t("next.none"));
  } catch (err) {
    toast(err.message);
  }
}

/** The button for the status line (signed-in players only); installs the shortcut once. */
export function nextGameButton(currentId, toast) {
  if (!auth.user) return null;
  if (!shown) {
    shown = toast;
    document.addEventListener("keydown", (e) => {
      const tag = e.target && e.target.tagName;
      if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || (e.target && e.target.isContentEditable)) return;
      if (e.shiftKey && !e.ctrlKey && !e.metaKey && !e.altKey && (e.key === "N" || e.key === "n")) {
        e.preventDefault();
        go(currentId, shown);
      }
    });
  }
  return h("button", { class: "btn small", type: "button", id: "next-game-btn", title: t("next.title"),
    "aria-keyshortcuts": "Shift+N", onclick: () => go(currentId, toast) }, t("next.button"), " »");
}
