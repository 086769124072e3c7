// Confirm turn (issue #30): when this seat's last decision of a turn is stored and the player
// asked to confirm turns (the preference confirm_turn, on by default), the turn waits (the
// server's "held" seat): the decision bar asks "Confirm turn" (Enter) or "Restart turn" (take
// back every decision of the turn that revealed nothing hidden). Others see whom they wait for.
import { h } from "./dom.js";
import { seatName } from "./seats.js";
import { t } from "./i18n.js";

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
