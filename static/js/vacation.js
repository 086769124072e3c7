// Vacations (issue #33): the lobby's box where a player declares whole days away (every clock
// of theirs stops meanwhile: GET/POST/DELETE /api/me/vacations), and the game page's note
// "… is on vacation until …" read from the public clock's `off` of each seat.
import { api, auth, request } from "./api.js";
import { h, clear, $ } from "./dom.js";
import { lang, t } from "./i18n.js";
import { seatName } from "./seats.js";
import { toast } from "./toast.js";

const day = (iso) => new Date(iso).toLocaleString(lang, { dateStyle: "medium", timeStyle: "short" });

/** The seats of a game whose players are on vacation now: notes for the status line. */
export function vacationNotes(st) {
  const seats = (st.summary && st.summary.clock && st.summary.clock.seats) || {};
  const now = Date.now();
  const out = [];
  for (const [key, entry] of Object.entries(seats)) {
    const until = (entry.off || []).find(([a, b]) => Date.parse(a) <= now && now < Date.parse(b));
    if (!until) continue;
    const seat = Number(key);
    const text = seat === st.seat ? t("vac.you_on_vacation", { until: day(until[1]) })
      : t("vac.on_vacation", { name: seatName(seat), until: day(until[1]) });
    out.push(h("span", { class: "badge vacation", dataset: { vacationSeat: key } }, text));
  }
  return out;
}

async function render() {
  const box = $("#vacation");
  if (!box) return;
  if (!auth.user) { box.hidden = true; return; }
  let data;
  try { data = await api.get("/api/me/vacations"); } catch { box.hidden = true; return; }
  const year = String(new Date().getFullYear());
  const left = data.days_left[year] ?? data.days_per_year;
  const today = new Date().toLocaleDateString("en-CA", { timeZone: data.tz }); // YYYY-MM-DD there
  const items = data.vacations.map((v) => h("li", { dataset: { vacation: v.id } },
    t("vac.item", { from: day(v.starts_at), to: day(v.ends_at), n: v.days }), " ",
    h("button", { class: "btn small", type: "button", id: `vac-end-${v.id}`, onclick: async () => {
      try { await request("DELETE", `/api/me/vacations/${encodeURIComponent(v.id)}`); } catch (err) { toast(err.message); }
      render();
    } }, Date.parse(v.starts_at) > Date.now() ? t("vac.take_back") : t("vac.end_now"))));
  const start = h("input", { type: "date", id: "vac-start", value: today, min: today });
  const days = h("input", { type: "number", id: "vac-days", min: 1, max: 30, value: 7, inputmode: "numeric" });
  clear($("#vacation-body")).append(
    h("p", { class: "muted small" }, t("vac.intro", { tz: data.tz })),
    items.length ? h("ul", { class: "vacation-list", id: "vacation-list" }, items) : h("p", { class: "muted" }, t("vac.none")),
    h("div", { class: "row vacation-form" },
      h("label", null, t("vac.start"), " ", start),
      h("label", null, t("vac.days"), " ", days),
      h("button", { class: "btn primary small", type: "button", id: "vac-declare", onclick: async (e) => {
        e.currentTarget.disabled = true;
        const body = { days: Number(days.value) };
        if (start.value && start.value !== today) body.start = start.value;
        try { await api.post("/api/me/vacations", body); } catch (err) { toast(err.message); }
        render();
      } }, t("vac.declare"))),
    h("p", { class: "muted small", id: "vac-left" }, t("vac.left", { n: left, year })));
  box.hidden = false;
}

if ($("#vacation")) {
  render();
  window.addEventListener("menagerie:auth", () => render());
}
