// The winner screen, from the game's `result` (ranking, goal steps, treasuries, winners).
import { h } from "../dom.js";
import { seatTag, seatName } from "../seats.js";
import { bySeat, whoName } from "./common.js";
import { t, tv, listing } from "../i18n.js";

/** A number's column head: its name; a phone shows the short word of the parties' rows instead
 * (board.js: "Goals", "Food"), the name its tooltip, so no head breaks inside a word. */
function head(name, short) {
  return h("th", { class: "num", title: name, "aria-label": name }, h("span", { class: "wide-only" }, name), h("span", { class: "narrow-only" }, short));
}

export function renderFinal(ui, onClose) {
  const st = ui.st;
  const pub = ui.pub;
  const n = pub.seats;
  const result = st.result || null;
  const det = (result && result.details) || {};
  const goals = det.goal_steps || pub.goals || [];
  // the treasuries: the engine's result has them; a game a resignation ended has none there, so
  // every seat's private part of the finished game (ui.finalPrivates, ui.js), else the own seat's
  const opened = ui.finalPrivates || {};
  const food = det.treasury || Array.from({ length: n }, (_, q) => {
    const priv = bySeat(opened, q) || (q === st.seat ? ui.priv : null);
    return priv && priv.food != null ? priv.food : undefined;
  });
  const ranking = result && Array.isArray(result.ranking) ? result.ranking.map(Number)
    : Array.from({ length: n }, (_, q) => q);
  // a resignation gives the places (app/outcome.py: who resigned is last): they win over the
  // engine's ranking by goal steps
  const places = det.places && typeof det.places === "object" ? det.places : null;
  const placeOf = (q) => (places && bySeat(places, q) != null ? Number(bySeat(places, q)) : null);
  const winners = new Set(places ? ranking.filter((q) => placeOf(q) === 1) : (det.winners || (result ? [ranking[0]] : [])).map(Number));
  const you = st.seat;
  const names = [...winners].map((q) => whoName(q, you));
  let headline = t("status.game_over");
  if (winners.size > 1) headline = t("final.shared_win", { names: listing(names) });
  else if (winners.size === 1) headline = winners.has(you) ? t("final.you_win") : t("final.wins", { name: seatName([...winners][0]) });
  const over = pub.over || {};
  const reason = det.reason || over.reason;
  const round = det.round ?? over.round;
  // why the game ended, as the engine ended it; a game that ended by a resignation (or was
  // aborted) has no engine reason nor round: the outcome note under the card says what happened
  let why = null;
  if (round != null && reason === "goal_track") why = tv("zc.final.why_goal_track", winners.has(you) && winners.size === 1 ? "you" : null, { name: names[0] || t("zc.final.a_party"), round });
  else if (round != null && reason === "end_flag") why = `${t("zc.final.why_end_flag", { round })} ${t("zc.final.rule")}`;
  else if (round != null && reason === "last_round") why = `${t("zc.final.why_last_round", { round })} ${t("zc.final.rule")}`;
  let place = 0;
  let prev = null;
  const rows = ranking.map((q, i) => {
    const key = `${bySeat(goals, q)}:${bySeat(food, q)}`;
    if (placeOf(q) !== null) place = placeOf(q);
    else if (winners.has(q)) place = 1;
    else if (key !== prev) place = i + 1;
    prev = key;
    return h("tr", { class: winners.has(q) ? "winner" : null, dataset: { seat: q } },
      h("td", { class: "num" }, String(place)),
      h("td", seatTag(q), q === you ? h("span", { class: "muted" }, ` ${t("zc.final.you_mark")}`) : null),
      h("td", { class: "num strong" }, String(bySeat(result && result.scores, q) ?? bySeat(goals, q) ?? "–")),
      h("td", { class: "num" }, String(bySeat(food, q) ?? "–")),
      h("td", { class: "num" }, String((pub.parliament || [])[q] ?? 0)),
      h("td", null, [pub.president === q ? t("zc.gov.president") : null, pub.government && pub.government.members.includes(q) ? t("zc.gov.title") : null].filter(Boolean).join(", ") || "–"));
  });
  return h("div", { class: "final-card zc-final", role: "dialog", "aria-modal": "true", "aria-labelledby": "final-title" },
    h("header", { class: "final-head" }, h("h2", { id: "final-title" }, headline),
      h("button", { class: "btn ghost", type: "button", onclick: onClose, "aria-label": t("final.close_aria") }, t("final.back_to_board"))),
    why ? h("p", { class: "zc-final-why" }, why) : null,
    h("table", { class: "final-table" },
      h("thead", h("tr", h("th", "#"), h("th", t("zc.parties.party")), head(t("zc.parties.goals_title"), t("zc.parties.goals")), head(t("zc.me.treasury"), t("zc.parties.food")),
        h("th", { class: "num" }, t("zc.parties.seats")), h("th", t("zc.final.at_the_end")))),
      h("tbody", rows)),
    h("p", h("a", { class: "btn", href: "./" }, t("game.back_to_lobby"))));
}
