// The replay page's analysis (issue #19): GET /api/games/{id}/analysis gives the status, the
// progress and, once done, the report. Shown: a chart (inline SVG) of each seat's value of its
// chosen answers by version with the replay's version marked, the accuracy per seat, and the
// biggest mistakes; a click on a mistake moves the board to its version and draws the better
// answer (see suggest.js). Without an analysis: "Request analysis", then a progress bar that
// polls every 2 s, with Cancel for the game's players.
import { api, request } from "./api.js";
import { h, s, clear } from "./dom.js";
import { t, tOr, listing, lang } from "./i18n.js";
import { seatColour, seatName, seatTag } from "./seats.js";
import { iconLabel } from "./icons.js";
import { actionName } from "./arknova/cards.js";

const POLL_MS = 2000;
//: the engine's reasons and label keys the page puts into words (engine/bots/labels.py)
export const REASON_KEYS = ["analysis.reason.forced", "analysis.reason.clear", "analysis.reason.better"];

//: the engine's own label keys the catalogues put into words (engine/arknova/presentation/labels.py,
//: engine/zoocracy/labels.py); the others keep the engine's English text
const LABEL_KEYS = new Set(["analysis.label.action", "analysis.label.x_token", "analysis.label.keep",
  "analysis.label.keep_card", "analysis.label.building", "analysis.label.place", "analysis.label.animal",
  "analysis.label.sponsor", "analysis.label.support", "analysis.label.task", "analysis.label.hand_card",
  "analysis.label.relocate", "analysis.label.tile",
  "analysis.label.zc_pass", "analysis.label.zc_marker", "analysis.label.zc_add", "analysis.label.zc_target",
  "analysis.label.zc_target_in", "analysis.label.zc_target_enclosure", "analysis.label.zc_move",
  "analysis.label.zc_office", "analysis.label.zc_goal", "analysis.label.zc_assign", "analysis.label.zc_negative",
  "analysis.label.zc_decline", "analysis.label.zc_pay", "analysis.label.zc_head_bonus",
  "analysis.label.zc_members_done"]);
//: label keys whose words depend on a parameter: the engine's key (analysis.label.<name>) ->
//: [the param, its words when the param is set, when it is not] (tests/engine/test_analysis.py
//: reads this table)
const LABEL = "analysis.label.";
const VARIANTS = {
  action: ["x", "analysis.label.action_x", "analysis.label.action"],
  animal: ["folder", "analysis.label.animal_folder", "analysis.label.animal"],
  zc_vote: ["yes", "analysis.label.zc_vote_yes", "analysis.label.zc_vote_no"],
  zc_vote_card: ["yes", "analysis.label.zc_vote_yes_card", "analysis.label.zc_vote_no_card"],
};

/** A label of the engine ({key, params: ids, text}) in the reader's language: ids named by the
 * table `ui` (cards, buildings, action cards, continents); its English text where the catalogue
 * has no words for the key. `then` (the answer's own follow-ups) in brackets after it. */
export function labelText(label, ui = null) {
  if (!label) return "";
  if (typeof label === "string") return label;
  // English: the engine's own sentence says most (which enclosure, the follow-ups); a Zoocracy
  // table names the parties by their players in every language
  if (lang === "en" && label.text && !(ui && ui.enclosureName)) return label.text;
  let key = label.key || "";
  const variant = key.startsWith(LABEL) ? VARIANTS[key.slice(LABEL.length)] : null;
  if (key.startsWith(LABEL) && !LABEL_KEYS.has(key) && !variant) return label.text || "";
  const p = { ...(label.params || {}) };
  if (variant) key = p[variant[0]] ? variant[1] : variant[2];
  const card = (id) => (id && ui && ui.cardName ? ui.cardName(id) : id);
  if (p.card) p.card = card(p.card);
  if (p.project) p.project = card(p.project);
  if (p.release) p.release = card(p.release);
  if (Array.isArray(p.cards)) p.cards = listing(p.cards.map(card));
  if (typeof p.action === "string") p.action = actionName(p.action);
  if (p.building && ui && ui.buildingName) p.building = ui.buildingName(p.building);
  if (p.continent) p.continent = iconLabel(p.continent);
  if (p.university) p.university = tOr(`university.${p.university}`, p.university);
  if (typeof p.task === "string") p.task = tOr(`assoc.task.${p.task}`, p.task);
  if (typeof p.verb === "string") p.verb = tOr(`bar.verb.${p.verb}`, p.verb);
  if (Array.isArray(p.cells)) p.cells = p.cells.slice(0, 3).map((c) => `${c[0]},${c[1]}`).join(" ");
  if (Number.isInteger(p.level)) p.level += 1;
  // Zoocracy: enclosures and offices by their names, parties by their players
  if (ui && ui.enclosureName) for (const k of ["enclosure", "from", "to"]) if (typeof p[k] === "string") p[k] = ui.enclosureName(p[k]);
  if (ui && ui.officeName && typeof p.office === "string") p.office = ui.officeName(p.office);
  if (Number.isInteger(p.party)) p.party = seatName(p.party);
  const then = Array.isArray(p.then) ? p.then : [];
  delete p.then;
  const main = tOr(key, "", p);
  if (!main) return label.text || "";  // words for this key only in English, from the engine
  return then.length ? `${main} (${then.map((x) => labelText(x, ui)).join("; ")})` : main;
}

export class AnalysisPanel {
  constructor(host, { gameId, last, here, goTo, select, ui }) {
    this.ui = ui || (() => null);
    this.host = host;
    this.gameId = gameId;
    this.last = () => last();
    this.here = here;
    this.goTo = goTo;
    this.select = select;
    this.data = null;
    this.timer = null;
    this.current = null;  // the selected mistake
  }

  url() { return `/api/games/${encodeURIComponent(this.gameId)}/analysis`; }

  async load() {
    try {
      this.data = await api.get(this.url());
    } catch (err) {
      this.data = { status: "error", message: err.message };
    }
    this.render();
    this.schedule();
  }

  schedule() {
    clearTimeout(this.timer);
    const st = this.data && this.data.status;
    if (st === "pending" || st === "running") this.timer = setTimeout(() => this.load(), POLL_MS);
  }

  async requestIt() {
    try {
      this.data = await api.post(this.url());
    } catch (err) {
      this.data = { ...(this.data || {}), message: err.message };
    }
    this.render();
    this.schedule();
  }

  async cancelIt() {
    try {
      this.data = await request("DELETE", this.url());
    } catch (err) {
      this.data = { ...(this.data || {}), message: err.message };
    }
    this.render();
    this.schedule();
  }

  // ---------------------------------------------------------------- drawing
  render() {
    const d = this.data || { status: "none" };
    const parts = [];
    const actions = [];
    if (d.status === "none") {
      parts.push(h("p", { class: "muted" }, t("analysis.none")));
      if (d.can_request) actions.push(h("button", { class: "btn primary", type: "button", id: "an-request", onclick: () => this.requestIt() }, t("analysis.request")));
      else parts.push(h("p", { class: "muted small" }, t("analysis.sign_in")));
    } else if (d.status === "pending" || d.status === "running") {
      const total = d.total || 0;
      parts.push(h("p", { id: "an-progress-text" }, d.status === "pending" && !d.done ? t("analysis.queued")
        : t("analysis.progress", { done: d.done || 0, total: total || "?" })));
      actions.push(h("progress", { id: "an-progress", max: String(total || 1), value: String(d.done || 0) }));
      if (d.can_cancel) actions.push(h("button", { class: "btn", type: "button", id: "an-cancel", onclick: () => this.cancelIt() }, t("analysis.cancel")));
    } else if (d.status === "failed") {
      parts.push(h("p", { class: "form-error" }, t("analysis.failed")));
      if (d.can_request) actions.push(h("button", { class: "btn primary", type: "button", id: "an-request", onclick: () => this.requestIt() }, t("analysis.request")));
    } else if (d.status === "cancelled") {
      parts.push(h("p", { class: "muted" }, t("analysis.cancelled", { done: d.done || 0, total: d.total || "?" })));
      if (d.can_request) actions.push(h("button", { class: "btn primary", type: "button", id: "an-request", onclick: () => this.requestIt() }, t("analysis.resume")));
    } else if (d.status === "error") {
      parts.push(h("p", { class: "form-error" }, d.message || ""));
    }
    if (d.message && d.status !== "error") parts.push(h("p", { class: "form-error", role: "alert" }, d.message));
    const report = d.report;
    const body = report ? this.reportBody(report) : null;
    clear(this.host).append(
      h("summary", null, t("analysis.title")),
      h("div", { class: "an-status", dataset: { status: d.status } }, parts, actions.length ? h("div", { class: "an-actions" }, actions) : null),
      body || "");  // (a missing report draws nothing, not the word "null")
    this.host.dataset.status = d.status;
  }

  reportBody(report) {
    const seats = Array.isArray(report.seats) ? report.seats : [];
    this.chartHost = h("div", { class: "an-chart" });
    this.drawChart(report);
    // what the accuracy counts: the win chance given away, or (a solo game) the points
    const help = (x) => (x.accuracy_by === "margin" && Number.isFinite(Number(x.mean_loss))
      ? t("analysis.accuracy_help_margin", { loss: fmt(Number(x.mean_loss)), unit: fmt(Number(report.unit) || 2) })
      : Number.isFinite(Number(x.mean_win_loss))
        ? t("analysis.accuracy_help", { win: fmt(100 * Number(x.mean_win_loss)) }) : undefined);
    const acc = h("ul", { class: "an-seats", id: "an-accuracy" }, seats.map((x) => h("li", { dataset: { seat: x.seat }, title: help(x) },
      seatTag(x.seat, { small: true }), " ",
      x.accuracy === null || x.accuracy === undefined ? t("analysis.no_decisions")
        : t("analysis.accuracy", { accuracy: x.accuracy, mistakes: x.mistakes ?? 0 }))));
    const mistakes = Array.isArray(report.mistakes) ? report.mistakes : [];
    this.list = h("ol", { class: "an-mistakes", id: "an-mistakes" }, mistakes.length ? mistakes.map((m, i) => h("li", null,
      h("button", {
        type: "button", dataset: { index: m.index, version: m.version, seat: m.seat, i },
        "aria-current": String(this.current === m.index),
        onclick: () => this.pick(m),
      },
      seatTag(m.seat, { small: true }), " ",
      h("span", { class: "an-loss" }, lossText(m)), " ",
      t("analysis.mistake", { chosen: labelText(m.text && m.text.chosen, this.ui()), best: labelText(m.text && m.text.best, this.ui()) }),
      h("span", { class: "muted small" }, ` · ${t("analysis.at_version", { v: m.version })}`)))) : [h("li", { class: "muted" }, t("analysis.no_mistakes"))]);
    return h("div", { class: "an-body" },
      h("div", null, this.chartHost, acc),
      h("div", null, h("h3", { class: "an-h" }, t("analysis.mistakes")), this.list));
  }

  pick(m) {
    this.current = m.index;
    for (const b of this.list.querySelectorAll("button")) b.setAttribute("aria-current", String(Number(b.dataset.index) === m.index));
    this.select(m);
  }

  drawChart(report) {
    if (!this.chartHost) return;
    const series = Array.isArray(report.series) ? report.series : [];
    const W = 600, H = 150, P = 8;
    const last = Math.max(1, this.last());
    const values = series.flat().map((p) => p.value).filter((v) => Number.isFinite(v));
    let lo = Math.min(0, ...values), hi = Math.max(0, ...values);
    if (hi - lo < 1) hi = lo + 1;
    const x = (v) => P + (W - 2 * P) * (v / last);
    const y = (v) => H - P - (H - 2 * P) * ((v - lo) / (hi - lo));
    const lines = series.map((pts, seat) => s("polyline", {
      class: "an-line", dataset: { seat },
      points: pts.map((p) => `${x(p.version).toFixed(1)},${y(p.value).toFixed(1)}`).join(" "),
      fill: "none", stroke: seatColour(seat).fill, "stroke-width": 2.5, "stroke-linejoin": "round",
    }));
    const now = this.here();
    this.nowLine = s("line", { class: "an-now", x1: x(now), x2: x(now), y1: 0, y2: H });
    const svg = s("svg", { viewBox: `0 0 ${W} ${H}`, preserveAspectRatio: "none", role: "img", "aria-label": t("analysis.chart_aria"), id: "an-chart" },
      s("line", { class: "an-zero", x1: P, x2: W - P, y1: y(0), y2: y(0) }), ...lines, this.nowLine);
    svg.addEventListener("click", (e) => {
      const box = svg.getBoundingClientRect();
      const v = Math.round(((e.clientX - box.left) / box.width * W - P) / (W - 2 * P) * last);
      this.goTo(Math.max(0, Math.min(last, v)));
    });
    this.scale = { x, last };
    // the axes, in HTML beside the stretched SVG: the value (expected final margin, VP; alone
    // at the table the expected score) from its lowest to its highest, and the moves
    // (versions) from the first to the last
    const alone = Array.isArray(report.seats) && report.seats.length === 1;
    const yAxis = h("div", { class: "an-yaxis", "aria-hidden": "true" },
      h("span", null, fmt(hi)), h("span", { class: "an-axis-name" }, t(alone ? "analysis.axis_score" : "analysis.axis_value")), h("span", null, fmt(lo)));
    const xAxis = h("div", { class: "an-xaxis", "aria-hidden": "true" },
      h("span", null, "0"), h("span", { class: "an-axis-name" }, t("analysis.axis_moves")), h("span", null, String(last)));
    clear(this.chartHost).append(h("div", { class: "an-plot" }, yAxis, svg), xAxis);
  }

  /** The replay moved: move the chart's mark. */
  moved(version) {
    if (!this.nowLine || !this.scale) return;
    const xv = this.scale.x(version);
    this.nowLine.setAttribute("x1", xv);
    this.nowLine.setAttribute("x2", xv);
  }
}

/** "−8.4 VP expected, −12 % win chance:" (the win chance where the report has it and it
 * comes to a whole percentage point: "−0 % win chance" says nothing, as in most solo games). */
function lossText(m) {
  const win = Math.round(Number(m.win_loss) * 100);
  if (m.win_loss === undefined || m.win_loss === null || !Number.isFinite(win) || win < 1) return t("analysis.loss", { loss: fmt(m.loss) });
  return t("analysis.loss_win", { loss: fmt(m.loss), win });
}

function fmt(v) {
  return Number.isFinite(v) ? (Math.round(v * 10) / 10).toString() : "?";
}
