// Notification preferences (issue #21): the email address and its verification, which kinds of
// notice and which channels, quiet hours in the player's time zone, "only when away", the
// per-game limit and the daily digest. GET/PUT /api/me/notifications, POST /api/me/email.
import { request } from "./api.js";
import { h, clear } from "./dom.js";
import { t, lang, LANGS, LANG_NAMES } from "./i18n.js";

function kindLabels() {
  return {
    your_turn: t("prefs.kind_your_turn"), game_over: t("prefs.kind_game_over"),
    invitation: t("prefs.kind_invitation"), daily_challenge: t("prefs.kind_daily_challenge"),
    chat_mention: t("prefs.kind_chat_mention"),
  };
}

function channelLabels() {
  return { email: t("prefs.channel_email"), push: t("prefs.channel_push"), webhook: t("prefs.channel_webhook") };
}

function check(id, label, checked, disabled = false) {
  const box = h("input", { type: "checkbox", id, checked: !!checked, disabled });
  return [box, h("label", { class: "prefs-check", for: id }, box, " ", label)];
}

/** Draw the preferences form into ``host``; ``toast`` shows short messages. */
export async function renderPreferences(host, toast) {
  let data;
  try {
    data = await request("GET", "/api/me/notifications");
  } catch {
    clear(host);
    return;
  }
  const p = data.preferences;
  const err = h("p", { class: "form-error", role: "alert", id: "prefs-error" });

  // the address
  const mail = data.email;
  let emailPart;
  if (!mail.available) {
    emailPart = h("p", { class: "small muted", id: "prefs-email-off" }, t("prefs.email_unavailable"));
  } else {
    const address = h("input", { type: "email", id: "prefs-email", maxlength: 254, value: mail.address || "",
      placeholder: "you@example.org", "aria-label": t("prefs.email") });
    const status = mail.address
      ? h("span", { class: "small muted", id: "prefs-email-status" }, mail.verified ? t("prefs.email_verified") : t("prefs.email_pending"))
      : null;
    emailPart = h("form", { class: "notify-form", id: "prefs-email-form", onsubmit: async (e) => {
      e.preventDefault();
      err.textContent = "";
      try {
        await request("POST", "/api/me/email", { address: address.value.trim() });
        toast(t("prefs.email_sent"));
        renderPreferences(host, toast);
      } catch (e2) { err.textContent = e2.message; }
    } }, address, h("button", { class: "btn small", type: "submit", id: "prefs-email-save" }, t("prefs.email_send")), status);
  }

  const kinds = kindLabels();
  const kindBoxes = {};
  const kindRow = h("fieldset", { class: "prefs-group" }, h("legend", t("prefs.kinds")),
    ...Object.keys(kinds).map((k) => { const [box, label] = check(`prefs-kind-${k}`, kinds[k], p.kinds[k]); kindBoxes[k] = box; return label; }));
  const channels = channelLabels();
  const channelBoxes = {};
  const channelRow = h("fieldset", { class: "prefs-group" }, h("legend", t("prefs.channels")),
    ...Object.keys(channels).map((c) => { const [box, label] = check(`prefs-channel-${c}`, channels[c], p.channels[c]); channelBoxes[c] = box; return label; }));

  const [quietOn, quietLabel] = check("prefs-quiet", t("prefs.quiet"), !!p.quiet_hours);
  const quietStart = h("input", { type: "time", id: "prefs-quiet-start", value: (p.quiet_hours && p.quiet_hours.start) || "22:00", "aria-label": t("prefs.quiet_from") });
  const quietEnd = h("input", { type: "time", id: "prefs-quiet-end", value: (p.quiet_hours && p.quiet_hours.end) || "07:00", "aria-label": t("prefs.quiet_to") });
  const browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  const zone = h("input", { type: "text", id: "prefs-tz", maxlength: 64, value: data.time_zone === "UTC" && !data.email.address ? browserZone : data.time_zone, "aria-label": t("prefs.time_zone") });
  const mailLang = h("select", { id: "prefs-lang", "aria-label": t("prefs.language") },
    LANGS.map((code) => h("option", { value: code, selected: code === (data.email.address ? data.lang : lang) }, LANG_NAMES[code])));
  const [away, awayLabel] = check("prefs-away", t("prefs.only_when_away"), p.only_when_away);
  const [digest, digestLabel] = check("prefs-digest", t("prefs.digest"), p.digest);
  // not a notice: the table's "Confirm turn", kept with the other preferences (on by default)
  const [confirmTurn, confirmLabel] = check("prefs-confirm-turn", t("prefs.confirm_turn"), p.confirm_turn !== false);
  const throttle = h("input", { type: "number", id: "prefs-throttle", min: 0, max: 10080, step: 1, value: p.throttle_minutes, "aria-label": t("prefs.throttle") });

  const save = h("form", { class: "prefs-form", id: "prefs-form", onsubmit: async (e) => {
    e.preventDefault();
    err.textContent = "";
    const body = {
      kinds: Object.fromEntries(Object.entries(kindBoxes).map(([k, b]) => [k, b.checked])),
      channels: Object.fromEntries(Object.entries(channelBoxes).map(([k, b]) => [k, b.checked])),
      quiet_hours: quietOn.checked ? { start: quietStart.value, end: quietEnd.value } : null,
      time_zone: zone.value.trim() || "UTC", lang: mailLang.value,
      only_when_away: away.checked, digest: digest.checked, confirm_turn: confirmTurn.checked,
      throttle_minutes: Math.max(0, parseInt(throttle.value, 10) || 0),
    };
    try {
      await request("PUT", "/api/me/notifications", body);
      toast(t("prefs.saved"));
    } catch (e2) { err.textContent = e2.message; }
  } },
    kindRow, channelRow,
    h("div", { class: "prefs-row" }, quietLabel, quietStart, h("span", "–"), quietEnd),
    h("div", { class: "prefs-row" }, h("label", { for: "prefs-tz" }, t("prefs.time_zone")), zone,
      h("label", { for: "prefs-lang" }, t("prefs.language")), mailLang),
    h("div", { class: "prefs-row" }, awayLabel),
    h("div", { class: "prefs-row" }, h("label", { for: "prefs-throttle" }, t("prefs.throttle")), throttle,
      h("span", { class: "small muted" }, t("prefs.throttle_help"))),
    h("div", { class: "prefs-row" }, digestLabel),
    h("div", { class: "prefs-row" }, confirmLabel),
    h("button", { class: "btn primary small", type: "submit", id: "prefs-save" }, t("prefs.save")));

  clear(host).append(h("h3", t("prefs.title")), h("p", { class: "small muted" }, t("prefs.email_help")), emailPart, save, err);
}
