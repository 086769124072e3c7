// A Zoocracy proposal in the decision bar: the coalition, its seats, offices and promised goals as
// one compact line of chips, and the same in one sentence.
import { h } from "../dom.js";
import { seatChip } from "../seats.js";
import { t, listing } from "../i18n.js";
import { OFFICE, whoName } from "./common.js";

/** A compact line: coalition, seats, offices, promises (a proposal being drafted or voted). */
export function proposalSummary(ui, p, step) {
  const pub = ui.pub;
  const me = ui.st.seat;
  const parl = pub.parliament || [];
  const members = p.members || [];
  const seats = members.reduce((s, q) => s + (parl[q] || 0), 0);
  const offices = p.offices || {};
  const goals = p.goals || {};
  const bit = (label, q, cur) => h("span", { class: ["zc-sum-bit", cur && "current"] }, `${label} `, q === undefined || q === null ? h("span", { class: "muted-bar" }, "?") : seatChip(q, { small: true }));
  return h("span", { class: "zc-summary" },
    h("span", { class: ["zc-sum-bit", step === "members" && "current"] }, `${t("zc.gov.coalition")} `, members.map((q) => seatChip(q, { small: true })),
      h("b", { class: "num" }, ` ${seats}/${pub.majority ?? "?"}`)),
    bit(`${OFFICE.head.glyph} ${OFFICE.head.short}`, offices.head, step === "head"),
    bit(`${OFFICE.finance.glyph} ${OFFICE.finance.short}`, offices.finance, step === "finance"),
    bit(`${OFFICE.defence.glyph} ${OFFICE.defence.short}`, offices.defence, step === "defence"),
    bit(t("zc.bar.goal_r", { round: pub.round }), goals.now, step === "goal_now"),
    bit(t("zc.bar.goal_r", { round: pub.round + 1 }), goals.next, step === "goal_next"),
    p.seat !== undefined && p.seat !== me ? h("span", { class: "zc-sum-bit" }, `${t("zc.bar.by")} `, seatChip(p.seat, { small: true })) : null,
    members.length ? h("span", { class: "zc-sum-words" }, coalitionWords(ui, p, seats)) : null);
}

/** The proposal in one sentence: who governs with how many seats, who holds which office. */
function coalitionWords(ui, p, seats) {
  const pub = ui.pub;
  const me = ui.st.seat;
  const names = (p.members || []).map((q) => whoName(q, me));
  const offices = p.offices || {};
  const words = [t("zc.bar.coalition_words", { names: listing(names), seats, majority: pub.majority ?? "?" })];
  const held = ["head", "finance", "defence"].filter((o) => offices[o] !== undefined && offices[o] !== null)
    .map((o) => t("zc.bar.office_words", { office: OFFICE[o].label, name: whoName(offices[o], me) }));
  if (held.length) words.push(`${listing(held)}.`);
  return words.join(" ");
}
