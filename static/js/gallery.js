// The card gallery: every card of a game as a card, facet filters on the left, search on top.
// Filters combine: OR inside a group, AND across groups; each chip shows how many cards it gives.
import { api } from "./api.js";
import { h, clear, $, cap } from "./dom.js";
import { icon, injectSprite, iconLabel } from "./icons.js";
import { renderCard, searchText, abilityName, CONTINENTS, CLASSES, TYPE_LABEL } from "./arknova/cards.js";
import { indexCatalog } from "./arknova/catalog.js";
import { t, tOr, setupPage } from "./i18n.js";

injectSprite();
setupPage();

const params = new URLSearchParams(location.search);
const game = params.get("game") || "arknova";

const typeOf = (c) => (c.type === "project" && c.base ? "base" : c.type);

const GROUPS = [
  { key: "type", label: t("gallery.group.type"), values: ["animal", "sponsor", "project", "base", "final", "tile"],
    test: (c, v) => typeOf(c) === v, chip: (v) => [TYPE_LABEL[v] || cap(v)] },
  { key: "continent", label: t("gallery.group.continent"), values: [...CONTINENTS, "none"],
    test: (c, v) => (v === "none" ? c.type === "animal" && !c.continent : (c.continent === v || (c.icons || []).includes(v) || (c.requires && c.requires.partner === v))),
    chip: (v) => (v === "none" ? [t("gallery.no_continent")] : [icon(v, { size: 20 }), iconLabel(v)]) },
  { key: "class", label: t("gallery.group.class"), values: CLASSES,
    test: (c, v) => (c.classes || []).includes(v) || (c.type !== "animal" && (c.icons || []).includes(v)),
    chip: (v) => [icon(v, { size: 20 }), iconLabel(v)] },
  { key: "size", label: t("gallery.group.size"), values: ["1", "2", "3", "4", "5"],
    test: (c, v) => c.type === "animal" && String(c.size) === v, chip: (v) => [icon("size", { size: 20, value: v, valueFill: "#3b2a0c" })] },
  { key: "needs", label: t("gallery.group.needs"), values: ["water", "rock", "science", "partner", "icons", "none"],
    test: (c, v) => {
      const r = c.requires || {};
      if (v === "none") return c.type === "animal" && Object.keys(r).length === 0;
      if (v === "partner") return !!r.partner;
      if (v === "icons") return !!r.icons && Object.keys(r.icons).length > 0;
      return !!r[v];
    },
    chip: (v) => (v === "none" ? [t("gallery.nothing")] : v === "icons" ? [t("gallery.icons_in_zoo")] : [icon(v === "partner" ? "partner" : v, { size: 20 }), iconLabel(v)]) },
  { key: "ability", label: t("gallery.group.ability"), values: [], select: true,
    test: (c, v) => [...(c.abilities || []), ...(c.effects || [])].some((a) => a.keyword === v), chip: (v) => [abilityName(v)] },
];

const state = { cards: [], active: new Map(GROUPS.map((g) => [g.key, new Set()])), q: "" };

function readUrl() {
  for (const g of GROUPS) {
    const v = params.get(g.key);
    if (v) for (const x of v.split(",")) state.active.get(g.key).add(x);
  }
  state.q = params.get("q") || "";
  $("#q").value = state.q;
}

function writeUrl() {
  const p = new URLSearchParams({ game });
  for (const g of GROUPS) {
    const set = state.active.get(g.key);
    if (set.size) p.set(g.key, [...set].join(","));
  }
  if (state.q) p.set("q", state.q);
  history.replaceState(null, "", `?${p}`);
}

function matches(c, skip = null) {
  for (const g of GROUPS) {
    if (g.key === skip) continue;
    const set = state.active.get(g.key);
    if (set.size && ![...set].some((v) => g.test(c, v))) return false;
  }
  if (state.q) {
    const text = c._text;
    for (const word of state.q.toLowerCase().split(/\s+/).filter(Boolean)) {
      if (!text.includes(word)) return false;
    }
  }
  return true;
}

function toggle(group, value) {
  const set = state.active.get(group);
  if (set.has(value)) set.delete(value); else set.add(value);
  update();
}

function renderFilters() {
  const host = $("#filters");
  const groups = GROUPS.map((g) => {
    const base = state.cards.filter((c) => matches(c, g.key));
    if (g.select) {
      const sel = h("select", { id: `f-${g.key}`, "aria-label": g.label, onchange: (e) => { state.active.get(g.key).clear(); if (e.target.value) state.active.get(g.key).add(e.target.value); update(); } },
        h("option", { value: "" }, t("gallery.any_ability")),
        g.values.map((v) => {
          const n = base.filter((c) => g.test(c, v)).length;
          return h("option", { value: v, selected: state.active.get(g.key).has(v) }, `${abilityName(v)} (${n})`);
        }));
      return h("fieldset", null, h("legend", g.label), sel);
    }
    return h("fieldset", null, h("legend", g.label), g.values.map((v) => {
      const on = state.active.get(g.key).has(v);
      const n = base.filter((c) => g.test(c, v)).length;
      return h("button", {
        class: ["chip", !on && n === 0 && "zero"], type: "button", "aria-pressed": String(on), dataset: { group: g.key, value: v },
        title: t("gallery.n_cards", { count: n }), onclick: () => toggle(g.key, v),
      }, ...g.chip(v), h("span", { class: "chip-count num" }, String(n)));
    }));
  });
  clear(host).append(...groups);
}

function renderCards() {
  const list = state.cards.filter((c) => matches(c));
  $("#count").textContent = t("gallery.count", { n: list.length, count: state.cards.length });
  const host = $("#cards");
  const frag = document.createDocumentFragment();
  for (const c of list) frag.appendChild(renderCard(c, { size: "full" }));
  clear(host).appendChild(frag);
  if (!list.length) host.appendChild(h("p", { class: "muted" }, t("gallery.no_match")));
}

function update() {
  writeUrl();
  renderFilters();
  renderCards();
}

async function init() {
  $("#rules-link").href = `rules.html?game=${encodeURIComponent(game)}`;
  let catalog;
  try {
    catalog = await api.gameCatalog(game);
  } catch (e) {
    clear($("#cards")).append(h("p", { class: "form-error" }, e.message));
    return;
  }
  const byId = indexCatalog(catalog);
  const order = { animal: 0, sponsor: 1, project: 2, base: 3, final: 4, tile: 5 };
  state.cards = [...byId.values()].sort((a, b) => (order[typeOf(a)] ?? 9) - (order[typeOf(b)] ?? 9) || a.id.localeCompare(b.id));
  for (const c of state.cards) c._text = searchText(c);
  const keywords = new Set();
  for (const c of state.cards) for (const a of [...(c.abilities || []), ...(c.effects || [])]) keywords.add(a.keyword);
  GROUPS.find((g) => g.key === "ability").values = [...keywords].sort((a, b) => abilityName(a).localeCompare(abilityName(b)));
  try {
    const all = await api.catalog();
    const d = (Array.isArray(all) ? all : []).find((x) => x.name === game);
    if (d) {
      const title = tOr(`game.${d.name}.title`, d.title);
      $("#gallery-title").textContent = t("gallery.title_of", { title });
      document.title = t("gallery.doc_title", { title });
    }
  } catch { /* the title is a nicety */ }
  readUrl();
  let timer = null;
  $("#q").addEventListener("input", (e) => {
    clearTimeout(timer);
    timer = setTimeout(() => { state.q = e.target.value.trim(); update(); }, 120);
  });
  $("#clear").addEventListener("click", () => {
    for (const set of state.active.values()) set.clear();
    state.q = ""; $("#q").value = "";
    update();
  });
  $("#filters-toggle").addEventListener("click", (e) => {
    const f = $("#filters");
    f.classList.toggle("collapsed");
    e.currentTarget.setAttribute("aria-expanded", String(!f.classList.contains("collapsed")));
  });
  // clicking an icon on a card filters by it
  $("#cards").addEventListener("click", (e) => {
    const svg = e.target.closest && e.target.closest("svg.icon");
    if (!svg) return;
    const use = svg.querySelector("use");
    const name = use && (use.getAttribute("href") || "").replace("#i-", "");
    if (CONTINENTS.includes(name)) toggle("continent", name);
    else if (CLASSES.includes(name)) toggle("class", name);
    else if (name === "water" || name === "rock" || name === "science") toggle("needs", name);
  });
  update();
}

init();
