// Confirm turn (issue #30): when this seat's last decision of a turn is stored and the player
// asked to confirm turns (the preference confirm_turn, on by default), the turn waits (the
// server's "held" seat): the decision bar asks "Confirm turn" (Enter) or "Restart turn" (take
// back every decision of the turn that revealed nothing hidden). Others see whom they wait for.
import { api, ApiError } from "./api.js";
import { h } from "./dom.js";
import { seatName } from "./seats.js";
import { t } from "./i18n.js";

/** The held seat of a message: "held" of a state message or an answer, "held_seat" of GET. */
export function heldOf(msg) {
  if (Number.isInteger(msg.held)) return msg.held;
  return Number.isInteger(msg.held_seat) ? msg.held_seat : null;
}

/** The page's "Confirm turn" / "Restart turn" (how: "confirm" | "restart") of the held turn. */
export function turnEnder(st, { applyState, resync, renderBar, toast }) {
  return async function endTurn(how) {
    if (st.pending) return;
    st.pending = true;
    const sent = st.sentVersion = st.version;
    renderBar();
    try {
      const res = await api.endTurn(st.id, st.version, how);
      if (res && typeof res.version === "number" && res.version > st.version) applyState(res);
      else if (st.pending && st.sentVersion === sent) { st.pending = false; renderBar(); }
    } catch (err) {
      st.pending = false;
      st.sentVersion = null;
      toast(err instanceof ApiError && err.status === 409 ? t("game.moved_on") : err.message);
      await resync();
    }
  };
}

/** The keys of a turn's end: Enter confirms a held turn (unless the focus is on something
 * Enter already answers), Ctrl+Z (Cmd+Z) takes back the latest decision. */
export function turnKeys(st, endTurn) {
  document.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && !e.ctrlKey && !e.metaKey && !e.altKey && heldForMe(st)) {
      const at = e.target && e.target.tagName;
      if (!["INPUT", "TEXTAREA", "SELECT", "BUTTON", "A"].includes(at) && !(e.target && e.target.isContentEditable)) {
        e.preventDefault();
        endTurn("confirm");
        return;
      }
    }
    if ((e.ctrlKey || e.metaKey) && !e.shiftKey && e.key.toLowerCase() === "z") {
      const btn = document.getElementById("undo-btn");
      if (btn && !btn.disabled) { e.preventDefault(); btn.click(); }
    }
  });
}

/** Whether the game waits for the viewer's confirm. */
export function heldForMe(st) {
  return Number.isInteger(st.held) && st.held === st.seat && st.status === "running";
}

/** The sentence while another seat's turn waits for its confirm (null: no turn waits). */
export function heldSentence(st) {
  if (!Number.isInteger(st.held) || st.held === st.seat || st.status !== "running") return null;
  return t("bar.waiting_confirm", { name: seatName(st.held) });
}

/** The bar's answers of a held turn: Confirm turn, and Restart turn when it can be taken back. */
export function turnEndControls(st, endTurn) {
  const canRestart = !!(st.view && st.view.private && st.view.private.can_undo);
  return [
    h("button", { class: "btn answer primary confirm-turn", type: "button", id: "confirm-turn",
      disabled: st.pending, title: t("bar.confirm_title"), onclick: () => endTurn("confirm") },
    t("bar.confirm_turn")),
    canRestart ? h("button", { class: "btn answer secondary restart-turn", type: "button", id: "restart-turn",
      disabled: st.pending, title: t("bar.restart_title"), onclick: () => endTurn("restart") },
    t("bar.restart_turn")) : null,
  ].filter(Boolean);
}
