// Languages of the client: English, Ukrainian, German.
//
// Message catalogues are JSON files, one per language (static/i18n/<lang>.json), flat keys
// ("lobby.new_game"). A value is a string with {named} placeholders, or an object of plural
// forms chosen with Intl.PluralRules by params.count ({"one": …, "few": …, "many": …, "other": …};
// Ukrainian needs one/few/many/other, English and German one/other). A key may have variants
// ("log.built.you" for the viewer's own moves): tv() takes the variant where the language has it.
//
// The language: the switch in the page header (kept in localStorage), else the first of
// navigator.languages that we speak, else English. Changing it reloads the page.
//
// Game data (card names, map and building names, final-scoring texts) comes translated with the
// game's catalog (`catalog.i18n[lang]`); cards.js applies it when it indexes the cards.
//
// Keys built at run time (`t(\`log.${kind}\`)`) are declared in static/i18n/dynamic.json, which
// tests/test_i18n.py checks against the catalogues and the game data.

export const LANGS = ["en", "uk", "de"];
export const LANG_NAMES = { en: "English", uk: "Українська", de: "Deutsch" };
const STORE = "menagerie.lang";

/** The language to use: a stored choice, else the first preferred one we have, else English. */
export function pickLang(stored, preferred) {
  if (stored && LANGS.includes(stored)) return stored;
  for (const tag of preferred || []) {
    const base = String(tag || "").toLowerCase().split(/[-_]/)[0];
    if (LANGS.includes(base)) return base;
  }
  return "en";
}

function storedLang() {
  try { return localStorage.getItem(STORE); } catch { return null; }
}

const preferred = (navigator.languages && navigator.languages.length) ? navigator.languages : [navigator.language];
export const lang = pickLang(storedLang(), preferred);

async function loadCatalogue(code) {
  try {
    const res = await fetch(new URL(`../i18n/${code}.json`, import.meta.url), { headers: { Accept: "application/json" } });
    if (res.ok) return await res.json();
  } catch { /* below: the keys themselves */ }
  return {};
}

// top-level await: every module that imports this one can translate synchronously
const [english, own] = await Promise.all([loadCatalogue("en"), lang === "en" ? null : loadCatalogue(lang)]);
const mine = own || english;
const rules = { [lang]: new Intl.PluralRules(lang), en: new Intl.PluralRules("en") };

document.documentElement.lang = lang;

// A placeholder a call left unfilled ("in round {round}") is a bug of that call: the page keeps
// the first few (key and names) for the browser tests (`window.menagerie.unfilled()`, hooks.js)
// and warns once per key on the console.
const missing = new Map();

/** The keys whose placeholders a t() call of this page left unfilled: [{ key, names }]. */
export function unfilled() {
  return [...missing].map(([key, names]) => ({ key, names: [...names] }));
}

function format(msg, params, key) {
  return String(msg).replace(/\{(\w+)\}/g, (m, k) => {
    if (params && params[k] !== undefined && params[k] !== null) return String(params[k]);
    if (!missing.has(key) && missing.size < 50) {
      missing.set(key, new Set());
      console.warn(`i18n: "${key}" has no value for {${k}}`);
    }
    if (missing.has(key)) missing.get(key).add(k);
    return m;
  });
}

function resolve(key, params) {
  let from = lang;
  let msg = mine[key];
  if (msg === undefined) { msg = english[key]; from = "en"; }
  if (msg === undefined) return undefined;
  if (msg && typeof msg === "object") {
    const n = Number(params && params.count !== undefined ? params.count : 0);
    const form = rules[from].select(Number.isFinite(n) ? n : 0);
    msg = msg[form] ?? msg.other ?? Object.values(msg)[0];
  }
  return format(msg, params, key);
}

/** The message `key` in the current language, placeholders filled from `params`. */
export function t(key, params = {}) {
  const out = resolve(key, params);
  return out === undefined ? key : out;
}

/** Like t(), but `${key}.${variant}` wins where the current language has it. */
export function tv(key, variant, params = {}) {
  if (variant && mine[`${key}.${variant}`] !== undefined) return t(`${key}.${variant}`, params);
  return t(key, params);
}

/** Whether a key exists (in this language or in English). */
export function has(key) {
  return mine[key] !== undefined || english[key] !== undefined;
}

/** t() for a key that may be missing: `fallback` then. */
export function tOr(key, fallback, params = {}) {
  const out = resolve(key, params);
  return out === undefined ? fallback : out;
}

/** "a, b and c" in the current language. */
export function listing(items) {
  const a = items.filter((x) => x !== "" && x != null).map(String);
  try {
    return new Intl.ListFormat(lang, { style: "long", type: "conjunction" }).format(a);
  } catch {
    return a.join(", ");
  }
}

/** "3 min ago", "vor 3 Min.", "3 хв тому". */
export function relativeTime(seconds) {
  const f = new Intl.RelativeTimeFormat(lang, { numeric: "auto", style: "short" });
  if (seconds < 60) return t("time.just_now");
  if (seconds < 3600) return f.format(-Math.floor(seconds / 60), "minute");
  if (seconds < 86400) return f.format(-Math.floor(seconds / 3600), "hour");
  return f.format(-Math.floor(seconds / 86400), "day");
}

/** Translate the static text of a page: data-i18n="key" (text) and data-i18n-attr="attr:key;…". */
export function applyI18n(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-attr]")) {
    for (const pair of el.dataset.i18nAttr.split(";")) {
      const [attr, key] = pair.split(":").map((x) => x.trim());
      if (attr && key) el.setAttribute(attr, t(key));
    }
  }
}

export function setLang(code) {
  if (!LANGS.includes(code)) return;
  try { localStorage.setItem(STORE, code); } catch { /* the choice lasts for this page only */ }
  location.reload();
}

/** The language switch of the page header (a <select>, native language names). */
export function languageSwitch() {
  const sel = document.createElement("select");
  sel.id = "lang-switch";
  sel.className = "lang-switch";
  sel.setAttribute("aria-label", t("lang.label"));
  sel.title = t("lang.label");
  for (const code of LANGS) {
    const o = document.createElement("option");
    o.value = code;
    o.lang = code;
    o.textContent = LANG_NAMES[code];
    o.selected = code === lang;
    sel.appendChild(o);
  }
  sel.addEventListener("change", () => setLang(sel.value));
  return sel;
}

/** Translate the page and put the switch into its header (every page calls this once). */
export function setupPage() {
  applyI18n();
  const bar = document.querySelector(".topbar");
  if (bar && !document.getElementById("lang-switch")) {
    const host = bar.querySelector(".lang-host") || bar;
    host.appendChild(languageSwitch());
  }
}
