// The winner screen, from the game's `result` (ranking, goal steps, treasuries, winners).
import { h } from "../dom.js";
import { seatTag, seatName } from "../seats.js";
import { bySeat, whoName } from "./common.js";

export function renderFinal(ui, onClose) {
  const st = ui.st;
  const pub = ui.pub;
  const n = pub.seats;
  const result = st.result || null;
  const det = (result && result.details) || {};
  const goals = det.goal_steps || pub.goals || [];
  const food = det.treasury || [];
  const ranking = result && Array.isArray(result.ranking) ? result.ranking.map(Number)
    : Array.from({ length: n }, (_, q) => q);
  const winners = new Set((det.winners || (result ? [ranking[0]] : [])).map(Number));
  const you = st.seat;
  const names = [...winners].map((q) => whoName(q, you));
  let headline = "Game over";
  if (winners.size > 1) headline = `Shared win: ${names.join(" and ")}`;
  else if (winners.size === 1) headline = winners.has(you) ? "You win!" : `${seatName([...winners][0])} wins`;
  const over = pub.over || {};
  const reason = det.reason || over.reason;
  const round = det.round ?? over.round;
  const why = reason === "goal_track"
    ? `${names[0] || "A party"} reached the last step of the goal track in round ${round} and won at once.`
    : `${reason === "end_flag" ? "The event with the end flag came up" : "The last round was played"} in round ${round}. Most goal steps wins; a tie goes to the larger treasury.`;
  let place = 0;
  let prev = null;
  const rows = ranking.map((q, i) => {
    const key = `${bySeat(goals, q)}:${bySeat(food, q)}`;
    if (winners.has(q)) place = 1;
    else if (key !== prev) place = i + 1;
    prev = key;
    return h("tr", { class: winners.has(q) ? "winner" : null, dataset: { seat: q } },
      h("td", { class: "num" }, String(place)),
      h("td", seatTag(q), q === you ? h("span", { class: "muted" }, " (you)") : null),
      h("td", { class: "num strong" }, String(bySeat(result && result.scores, q) ?? bySeat(goals, q) ?? "–")),
      h("td", { class: "num" }, String(bySeat(food, q) ?? "–")),
      h("td", { class: "num" }, String((pub.parliament || [])[q] ?? 0)),
      h("td", null, [pub.president === q ? "President" : null, pub.government && pub.government.members.includes(q) ? "Government" : null].filter(Boolean).join(", ") || "–"));
  });
  return h("div", { class: "final-card zc-final", role: "dialog", "aria-modal": "true", "aria-labelledby": "final-title" },
    h("header", { class: "final-head" }, h("h2", { id: "final-title" }, headline),
      h("button", { class: "btn ghost", type: "button", onclick: onClose, "aria-label": "Close the final scores" }, "Back to the board")),
    h("p", { class: "zc-final-why" }, why),
    h("table", { class: "final-table" },
      h("thead", h("tr", h("th", "#"), h("th", "Party"), h("th", { class: "num" }, "Goal steps"), h("th", { class: "num" }, "Treasury"),
        h("th", { class: "num" }, "Seats"), h("th", "At the end"))),
      h("tbody", rows)),
    h("p", h("a", { class: "btn", href: "./" }, "Back to the lobby")));
}
