// The ways out of a game (issue #33): resign (any time, after a confirm), abort (while no seat
// has made its first decision of play: the server says `can_abort`), and before the start
// cancel (the creator) or leave (a joined player); the banner of a seat that resigned and the
// final card's line about who resigned or aborted. gamechrome.js puts these on the page.
import { api } from "./api.js";
import { h } from "./dom.js";
import { seatName } from "./seats.js";
import { t } from "./i18n.js";

const post = (st, what) => api.post(`/api/games/${encodeURIComponent(st.id)}/${what}`);

/** A modal question with a "yes" and a "no" button; resolves true for yes. */
export function confirmDialog(id, question, yes, no) {
  return new Promise((resolve) => {
    const done = (answer) => { dialog.close(); dialog.remove(); resolve(answer); };
    const dialog = h("dialog", { class: "confirm-dialog", id, "aria-labelledby": `${id}-text` },
      h("p", { id: `${id}-text` }, question),
      h("div", { class: "row" },
        h("button", { class: "btn danger", type: "button", id: `${id}-yes`, onclick: () => done(true) }, yes),
        h("button", { class: "btn", type: "button", id: `${id}-no`, onclick: () => done(false) }, no)));
    dialog.addEventListener("cancel", (e) => { e.preventDefault(); done(false); });
    document.body.appendChild(dialog);
    dialog.showModal();
  });
}

function mySeat(st) {
  const seats = (st.summary && st.summary.seats) || [];
  return seats.find((x) => x && x.seat === st.seat) || null;
}

/** The resign question: two players (or one left besides me) end the game; more play on. */
function resignQuestion(st) {
  const seats = (st.summary && st.summary.seats) || [];
  const left = seats.filter((x) => x && x.seat !== st.seat && !x.resigned);
  if (left.length === 1) return t("exits.resign_confirm_two", { name: seatName(left[0].seat) });
  return t("exits.resign_confirm_many");
}

/** The status line's Resign and Abort buttons of a seated player in a running game. */
export function exitButtons(st, { reload, toast }) {
  const mine = mySeat(st);
  if (st.seat === null || st.seat === undefined || st.status !== "running" || !mine || mine.resigned) return [];
  const act = (what, id, question, yes) => async (e) => {
    const btn = e.currentTarget;
    if (!(await confirmDialog(id, question, yes, t("exits.keep_playing")))) return;
    btn.disabled = true;
    try { await post(st, what); } catch (err) { toast(err.message); }
    reload();
  };
  const out = [];
  if (st.summary && st.summary.can_abort) {
    out.push(h("button", { class: "btn small ghost", type: "button", id: "abort-btn", title: t("exits.abort_title"),
      onclick: act("abort", "abort-dialog", t("exits.abort_confirm"), t("exits.abort")) }, t("exits.abort")));
  }
  out.push(h("button", { class: "btn small ghost", type: "button", id: "resign-btn", title: t("exits.resign_title"),
    onclick: act("resign", "resign-dialog", resignQuestion(st), t("exits.resign")) }, "⚐ ", t("exits.resign")));
  return out;
}

/** The banner over the bar of a player who resigned a game that goes on. */
export function resignedBanner(st) {
  const mine = mySeat(st);
  if (!mine || !mine.resigned || st.status !== "running") return null;
  return h("div", { class: "away-banner resigned-banner", role: "status", id: "resigned-banner" }, t("exits.you_resigned"));
}

/** The waiting room's Cancel (the creator) or Leave (a joined player) button. */
export function waitingButtons(st, { mine, creator, reload, toast }) {
  if (!mine) return [];
  if (creator) {
    return [h("button", { class: "btn danger", type: "button", id: "cancel-btn", onclick: async (e) => {
      const btn = e.currentTarget;
      if (!(await confirmDialog("cancel-dialog", t("exits.cancel_confirm"), t("exits.cancel"), t("exits.keep_game")))) return;
      btn.disabled = true;
      try { await post(st, "cancel"); location.href = "./"; } catch (err) { btn.disabled = false; toast(err.message); }
    } }, t("exits.cancel"))];
  }
  return [h("button", { class: "btn", type: "button", id: "leave-btn", onclick: async (e) => {
    e.currentTarget.disabled = true;
    try { await post(st, "leave"); } catch (err) { toast(err.message); }
    reload();
  } }, t("exits.leave"))];
}

/** The final card's line: who resigned (in order), or who aborted the game. */
export function outcomeNote(result) {
  if (!result) return null;
  if (Number.isInteger(result.aborted)) {
    return h("p", { class: "final-outcome", id: "final-outcome" }, t("exits.aborted_by", { name: seatName(result.aborted) }));
  }
  if (Array.isArray(result.resigned) && result.resigned.length) {
    const names = result.resigned.map((s) => seatName(s)).join(", ");
    return h("p", { class: "final-outcome", id: "final-outcome" }, t("exits.resigned_seats", { names }));
  }
  return null;
}
