// The lobby's "New game" form: the game, its options, bots, the time control, hints, and the
// players to invite (POST /api/invitations: their seats are kept for them; docs/async-play.md).
import { api, auth } from "./api.js";
import { h, clear, $, cap } from "./dom.js";
import { t, tOr } from "./i18n.js";
import { timeControlFieldset } from "./asyncplay.js";
import { state, seatBadge, titleOf } from "./gameitem.js";

// ------------------------------------------------------------------ new game form
let timeBox = null;
let hintsTick = false;

function renderNewGame() {
  const host = $("#new-game");
  if (!state.catalog.length) { clear(host).append(h("p", t("newgame.no_games"))); return; }
  const gameSel = h("select", { id: "ng-game", name: "game", "aria-label": t("newgame.game") },
    state.catalog.map((d) => h("option", { value: d.name }, titleOf(d.name))));
  const body = h("div", { class: "ng-body" });
  const err = h("p", { class: "form-error", role: "alert" });
  const draw = () => {
    const d = state.catalog.find((x) => x.name === gameSel.value) || state.catalog[0];
    const min = (d.seats && d.seats.min) || 2; const max = (d.seats && d.seats.max) || min;
    const seatsSel = h("select", { id: "ng-seats", name: "seats" });
    // two players first (a 1-seat solo game is there to choose, not the default)
    const usual = Math.min(max, Math.max(min, 2));
    for (let n = min; n <= max; n++) seatsSel.appendChild(h("option", { value: n, selected: n === usual }, t("newgame.n_players", { count: n })));
    const opts = (d.options || []).map((o) => {
      let input;
      if (o.type === "bool" || typeof o.default === "boolean") {
        input = h("input", { type: "checkbox", name: `opt-${o.name}`, dataset: { option: o.name, kind: "bool" }, checked: !!o.default });
      } else if (Array.isArray(o.choices) && o.choices.length) {
        input = h("select", { name: `opt-${o.name}`, dataset: { option: o.name } }, o.choices.map((c) => h("option", { value: JSON.stringify(c), selected: c === o.default }, tOr(`option.${d.name}.${o.name}.${c}`, cap(String(c))))));
      } else if (typeof o.default === "number") {
        input = h("input", { type: "number", name: `opt-${o.name}`, dataset: { option: o.name, kind: "number" }, value: o.default });
      } else {
        input = h("input", { name: `opt-${o.name}`, dataset: { option: o.name, kind: "text" }, value: o.default ?? "" });
      }
      // an option for some seat counts only (the solo mode's starting appeal) shows with those
      return h("label", { dataset: o.seats ? { seats: o.seats.join(",") } : {} }, tOr(`option.${d.name}.${o.name}`, cap(o.name)), input,
        o.description ? h("span", { class: "option-help" }, tOr(`option.${d.name}.${o.name}.help`, o.description)) : null);
    });
    const showOptions = () => {
      const n = String(seatsSel.value);
      for (const label of opts) {
        if (label.dataset.seats) label.hidden = !label.dataset.seats.split(",").includes(n);
      }
    };
    const bots = h("fieldset", { id: "ng-bots" }, h("legend", t("newgame.bots")));
    const drawBots = () => {
      clear(bots).append(h("legend", t("newgame.seats")));
      const n = Number(seatsSel.value);
      bots.appendChild(h("span", { class: "seat-you" }, seatBadge(0), " ", t("newgame.seat_you")));
      for (let s = 1; s < n; s++) {
        // the ticks stay as the player set them when the player count or the game changes
        bots.appendChild(h("label", null, h("input", { type: "checkbox", name: "bot", value: s, dataset: { botSeat: s }, checked: botTicks.has(s),
          onchange: (e) => { if (e.target.checked) botTicks.add(s); else botTicks.delete(s); } }), seatBadge(s), " ", t("seat.bot")));
      }
      if (state.bots.length) {
        // the list comes weakest first (docs/bots.md, the ladder); the learned fast level is the
        // default (it beats greedy there)
        const pref = state.bots.includes("fast") ? "fast" : state.bots[0];
        bots.appendChild(h("label", null, t("newgame.bots_play"), h("select", { id: "ng-bot", name: "bot-kind" },
          state.bots.map((b) => h("option", { value: b, selected: b === pref }, tOr(`bot.${b}`, cap(b)))))));
      }
      bots.appendChild(h("p", { class: "option-help" }, t("newgame.open_seats_help")));
    };
    seatsSel.addEventListener("change", drawBots);
    seatsSel.addEventListener("change", showOptions);
    drawBots();
    showOptions();
    timeBox = timeControlFieldset();
    // a lobby flag, not an engine option: the players agree that the bot may propose answers
    const hints = h("label", { class: "ng-hints" }, t("newgame.hints"),
      h("input", { type: "checkbox", id: "ng-hints", name: "hints", checked: hintsTick,
        onchange: (e) => { hintsTick = e.target.checked; } }),
      h("span", { class: "option-help" }, t("newgame.hints_help")));
    // the players to invite: their seats are kept for them (POST /api/invitations)
    const invite = h("fieldset", { id: "ng-invites" }, h("legend", t("invite.legend")),
      h("label", null, t("invite.names"), h("input", { id: "ng-invite", name: "invite", autocomplete: "off", maxlength: 240, placeholder: t("invite.names_placeholder") })),
      h("label", { class: "ng-unlisted" }, h("input", { type: "checkbox", id: "ng-unlisted", name: "unlisted", checked: true }), " ", t("invite.unlisted")),
      h("p", { class: "option-help" }, t("invite.help")));
    clear(body).append(
      h("fieldset", null, h("legend", t("newgame.table")), h("label", null, t("newgame.players"), seatsSel), ...opts, hints),
      bots, invite, timeBox.el);
  };
  gameSel.addEventListener("change", draw);
  draw();
  const form = h("form", {
    onsubmit: async (e) => {
      e.preventDefault();
      err.textContent = "";
      if (!auth.signedIn) { err.textContent = t("newgame.sign_in_first"); return; }
      const options = {};
      for (const el of form.querySelectorAll("[data-option]")) {
        const name = el.dataset.option;
        if (el.dataset.kind === "bool") options[name] = el.checked;
        else if (el.dataset.kind === "number") options[name] = Number(el.value);
        else if (el.dataset.kind === "text") options[name] = el.value;
        else options[name] = JSON.parse(el.value);
      }
      const bots = [...form.querySelectorAll("input[name=bot]:checked")].map((x) => Number(x.value));
      try {
        const body = { game: gameSel.value, seats: Number(form.querySelector("#ng-seats").value), options, bots };
        const kind = form.querySelector("#ng-bot");
        if (kind && bots.length) body.bot = kind.value;
        const tc = timeBox && timeBox.read();
        if (tc) body.time_control = tc;
        if (form.querySelector("#ng-hints")?.checked) body.hints = true;
        const names = (form.querySelector("#ng-invite")?.value || "").split(/[\s,;]+/).filter(Boolean);
        if (names.length) {
          body.invite = names;
          body.unlisted = !!form.querySelector("#ng-unlisted")?.checked;
          await api.post("/api/invitations", body);
          toggleNew(false);
          state.refresh();
          return;
        }
        const g = await api.createGame(body);
        const id = g.id ?? (g.game && g.game.id);
        location.href = `game.html?id=${encodeURIComponent(id)}`;
      } catch (e2) {
        err.textContent = e2.message;
      }
    },
  },
  state.catalog.length > 1 ? h("label", null, t("newgame.game"), gameSel) : h("p", h("strong", titleOf(state.catalog[0].name))),
  body,
  h("div", { class: "row" }, h("button", { class: "btn primary", type: "submit", id: "create-game" }, t("newgame.create")),
    h("button", { class: "btn ghost", type: "button", onclick: () => toggleNew(false) }, t("common.cancel"))),
  err);
  if (state.catalog.length <= 1) form.appendChild(h("input", { type: "hidden", value: state.catalog[0].name }));
  clear(host).append(h("h2", t("lobby.new_game")), form);
}

/** The seats the player ticked as bots in the new-game form (kept while the form is redrawn). */
const botTicks = new Set();

export function toggleNew(show) {
  const host = $("#new-game");
  const btn = $("#new-game-btn");
  const open = show ?? host.hidden;
  host.hidden = !open;
  btn.setAttribute("aria-expanded", String(open));
  if (!open) return;
  if (!auth.signedIn) {
    // signed out: a game needs an account first; the sign-in fields are right above
    clear(host).append(h("h2", t("lobby.new_game")), h("p", { class: "sign-in-first", role: "alert" }, t("newgame.sign_in_first")));
    const user = $("#auth-user");
    if (user) user.focus();
    return;
  }
  renderNewGame();
}
