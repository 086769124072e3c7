// Zoocracy answers that deserve a second look (issue #30): putting the manipulation or blockade
// marker on an enclosure where you hold food asks for a second click and says why; a forced pass
// (no card of this phase can be played) sends itself once.
import { t } from "../i18n.js";

/** The answer for an office marker on `a.enclosure`; with food of yours there it needs two clicks. */
export function markerAnswer(bar, a, office) {
  const ui = bar.ui;
  const me = ui.st.seat;
  const food = Number((((ui.pub.board || {})[a.enclosure]) || {})[me] || 0);
  const name = bar.encName(a.enclosure);
  if (!food) return bar.answer(name, a, { primary: true });
  const warning = t(office === "finance" ? "zc.warn.manipulate" : "zc.warn.blockade", { enclosure: name, count: food });
  const btn = bar.answer(`⚠ ${name}`, a, { primary: true, title: warning, class: "zc-warn" });
  btn.dataset.warn = "food";
  // the first click asks (the answer's own click listener comes after this one at the target)
  btn.addEventListener("click", (e) => {
    if (btn.dataset.armed) return;
    e.stopImmediatePropagation();
    btn.dataset.armed = "1";
    btn.textContent = `⚠ ${t("zc.warn.confirm", { enclosure: name })}`;
    btn.setAttribute("role", "alert");
    btn.title = warning;
  }, { capture: true });
  return btn;
}

let passedAt = null;

/** The pass of a window with no card to play: shown, and sent once for this version. */
export function forcedPass(bar, action) {
  const st = bar.st;
  const btn = bar.answer(t("zc.bar.pass_none"), action, { secondary: true });
  const key = `${st.id}:${st.version}`;
  if (passedAt !== key && !st.pending && st.legalVersion === st.version && (st.legal || []).length === 1) {
    passedAt = key;
    // right after this drawing of the bar, before anything else can look at it or click
    queueMicrotask(() => { if (!st.pending && st.legalVersion === st.version) bar.send(action); });
  }
  return btn;
}
