// Words of the zoo builder's table that say what a choice gives (issue #30): a university's
// science, gains and hand limit, from the game's tables.
import { cap } from "../dom.js";
import { t, tOr } from "../i18n.js";
import { gainText } from "./cards.js";

/** "University: Research — 1 science, 2 reputation, hand limit 3". */
export function universityLabel(id, tables) {
  const name = tOr(`university.${id}`, cap(id));
  const u = ((tables && tables.association && tables.association.universities) || {})[id];
  if (!u) return t("bar.university", { university: name });
  const parts = [t("req.short.science", { n: u.science })];
  const gains = gainText(u.gain);
  if (gains) parts.push(gains);
  parts.push(t("bar.hand_limit", { n: u.hand_limit }));
  return t("bar.university_gives", { university: name, gives: parts.join(", ") });
}
