// Cards of the zoo builder, rendered from the catalog (GET /api/catalog/arknova).
import { h, cap, listing } from "../dom.js";
import { icon, iconLabel, ICON_INFO } from "../icons.js";
import { t, tOr } from "../i18n.js";

export const CONTINENTS = ["africa", "americas", "asia", "australia", "europe"];
export const CLASSES = ["predator", "herbivore", "primate", "reptile", "bird", "bear", "pet", "sea"];

export const TYPE_LABEL = {
  animal: t("card.type.animal"), sponsor: t("card.type.sponsor"), project: t("card.type.project"),
  base: t("card.type.base"), final: t("card.type.final"), tile: t("card.type.tile"),
};

/** The name of an action card ("Build"), in the page's language. */
export const actionName = (a) => tOr(`action.${a}`, cap(a));

/** Gains dict -> a row of icons with numbers. */
export function gainIcons(gains, opts = {}) {
  if (!gains) return null;
  const out = [];
  for (const [k, v] of Object.entries(gains)) {
    if (!v) continue;
    out.push(gainIcon(k, v, opts));
  }
  return out.length ? h("span", { class: "gains" }, out) : null;
}

const GAIN_ICON = {
  money: "money", appeal: "appeal", conservation: "conservation", reputation: "reputation",
  x: "x", cards: "card", worker: "worker", upgrade: "upgrade", snap: "card", pick_card: "card",
};

export function gainIcon(key, n, opts = {}) {
  const name = GAIN_ICON[key];
  const label = gainText({ [key]: n });
  if (!name) return h("span", { class: "gain-word" }, label);
  const showValue = key !== "upgrade" && key !== "worker" && key !== "pick_card" ? n : (n > 1 ? n : undefined);
  const ic = icon(name, { size: opts.size || 18, value: name === "x" || name === "card" ? undefined : showValue, label });
  if ((name === "x" || name === "card" || key === "worker") && n > 1) {
    return h("span", { class: "gain", title: label }, h("span", { class: "gain-n" }, `${n}×`), ic);
  }
  if (key === "snap" || key === "pick_card") {
    return h("span", { class: "gain", title: label }, ic, h("span", { class: "gain-n small" }, key === "snap" ? t("gain.short.snap") : t("gain.short.pick_card")));
  }
  return h("span", { class: "gain", title: label }, ic);
}

/** Gains as words: "3 money and 1 X token" (gain.<key>, plural forms). */
export function gainText(gains) {
  if (!gains) return "";
  const parts = [];
  for (const [k, n] of Object.entries(gains)) {
    if (!n) continue;
    parts.push(tOr(`gain.${k}`, `${n} ${k.replace(/_/g, " ")}`, { count: n }));
  }
  return listing(parts);
}

/** An ability keyword's name ("Sprint"), in the page's language. */
export const abilityName = (kw) => tOr(`ability.${kw}.name`, cap(kw));

/** The placeholders of an ability's text: count (its number), icon, action, strength, money, appeal. */
export function abilityParams(ab) {
  const v = ab.value;
  if (v && typeof v === "object") {
    if (ab.keyword === "boost") return { action: actionName(v.action), strength: v.strength };
    if (ab.keyword === "sell") return { count: v.max, money: v.money };
    if (ab.keyword === "pouch") return { count: v.max, appeal: v.appeal };
    return { ...v };
  }
  if (typeof v === "string") return { icon: iconLabel(v) };
  if (typeof v === "number") return { count: v };
  return {};
}

/** The one-line text of an ability (ability.<keyword>.text); `fallback` for unknown keywords. */
export function abilityText(ab, fallback = "") {
  if (ab.keyword === "pilfering") return tOr(`ability.pilfering.text_${ab.value === 2 ? 2 : 1}`, fallback);
  return tOr(`ability.${ab.keyword}.text`, fallback, abilityParams(ab));
}

export function abilityShort(ab) {
  const v = ab.value;
  const name = abilityName(ab.keyword);
  if (v === null || v === undefined) return name;
  if (typeof v === "object") {
    if (ab.keyword === "boost") return `${name}: ${actionName(v.action)} ${v.strength}`;
    if (ab.keyword === "sell") return `${name} ${v.max}×${v.money}`;
    if (ab.keyword === "pouch") return `${name} ${v.max}×${v.appeal}`;
    return `${name} ${Object.values(v).join("/")}`;
  }
  return `${name} ${typeof v === "string" ? iconLabel(v) : v}`;
}

function reqIcons(req, opts) {
  const out = [];
  if (!req) return out;
  if (req.water) out.push(h("span", { class: "req", title: t("req.water", { count: req.water }) },
    icon("water", { size: opts.iconSize }), req.water > 1 ? h("b", `×${req.water}`) : null));
  if (req.rock) out.push(h("span", { class: "req", title: t("req.rock", { count: req.rock }) },
    icon("rock", { size: opts.iconSize }), req.rock > 1 ? h("b", `×${req.rock}`) : null));
  if (req.icons) {
    for (const [ic, n] of Object.entries(req.icons)) {
      out.push(h("span", { class: "req needs", title: t("req.icons", { count: n, icon: iconLabel(ic) }) },
        icon(ic, { size: opts.iconSize }), h("b", `${n}`)));
    }
  }
  if (req.partner) out.push(h("span", { class: "req needs", title: t("req.partner", { continent: iconLabel(req.partner) }) },
    icon("partner", { size: opts.iconSize }), icon(req.partner, { size: opts.iconSize })));
  if (req.science) out.push(h("span", { class: "req needs", title: t("req.science", { count: req.science }) },
    icon("science", { size: opts.iconSize }), h("b", `${req.science}`)));
  if (req.reputation) out.push(h("span", { class: "req needs", title: t("req.reputation", { n: req.reputation }) },
    icon("reputation", { size: opts.iconSize, value: req.reputation })));
  if (req.upgraded) out.push(h("span", { class: "req needs", title: t("req.upgraded", { action: actionName(req.upgraded) }) },
    icon("upgrade", { size: opts.iconSize }), h("b", actionName(req.upgraded))));
  return out;
}

export function requirementText(req) {
  if (!req) return "";
  const parts = [];
  if (req.water) parts.push(t("req.short.water", { n: req.water }));
  if (req.rock) parts.push(t("req.short.rock", { n: req.rock }));
  for (const [ic, n] of Object.entries(req.icons || {})) parts.push(`${n} ${iconLabel(ic)}`);
  if (req.partner) parts.push(t("req.short.partner", { continent: iconLabel(req.partner) }));
  if (req.science) parts.push(t("req.short.science", { n: req.science }));
  if (req.reputation) parts.push(t("req.short.reputation", { n: req.reputation }));
  if (req.upgraded) parts.push(t("req.short.upgraded", { action: actionName(req.upgraded) }));
  return parts.join(", ");
}

function filterText(f) {
  if (!f) return "";
  const parts = [];
  for (const [k, v] of Object.entries(f)) {
    if (v === null || v === undefined) continue;
    if (k === "class" || k === "continent" || k === "icon") parts.push(iconLabel(v));
    else if (k === "size_min") parts.push(t("filter.size_min", { n: v }));
    else if (k === "size_max") parts.push(t("filter.size_max", { n: v }));
    else if (k === "building") parts.push(tOr(`kind.${v}`, cap(v)));
    else parts.push(`${k} ${v}`);
  }
  return parts.join(" ");
}

export function triggerText(trig) {
  const f = trig.filter || {};
  const on = trig.on;
  let what;
  if (on === "animal") {
    if (f.class || f.continent || f.icon) what = t("trigger.animal_icon", { icon: iconLabel(f.class || f.continent || f.icon) });
    else if (f.size_min) what = t("trigger.animal_size_min", { n: f.size_min });
    else if (f.size_max) what = t("trigger.animal_size_max", { n: f.size_max });
    else what = t("trigger.animal");
  } else if (on === "sponsor") {
    what = f.icon ? t("trigger.sponsor_icon", { icon: iconLabel(f.icon) }) : t("trigger.sponsor");
  } else if (on === "build") {
    if (f.building) what = t(`trigger.build_${f.building}`);
    else if (f.size_min) what = t("trigger.build_size_min", { n: f.size_min });
    else if (f.size_max) what = t("trigger.build_size_max", { n: f.size_max });
    else what = t("trigger.build");
  } else if (on === "project") {
    what = f.icon ? t("trigger.project_icon", { icon: iconLabel(f.icon) }) : t("trigger.project");
  } else what = `${on}`;
  return t("trigger.whenever", { what, gain: gainText(trig.gain) });
}

export function counterText(counter) {
  const [name, arg] = String(counter).split(":");
  switch (name) {
    case "icon": return t("counter.icon", { icon: iconLabel(arg) });
    case "animals_min_size": return t("counter.animals_min_size", { n: arg });
    case "animals_max_size": return t("counter.animals_max_size", { n: arg });
    case "buildings": return tOr(`counter.buildings.${arg}`, String(arg));
    default: return tOr(`counter.${name}`, String(counter).replace(/_/g, " "));
  }
}

export function projectGoal(p) {
  switch (p.kind) {
    case "icon": return { text: t("project.icon", { icon: iconLabel(p.icon) }), icon: p.icon };
    case "distinct": return { text: tOr(`project.distinct.${p.of}`, cap(p.of)), icon: p.of === "continents" ? "africa" : "predator" };
    case "breeding": return { text: t("project.breeding", { icon: iconLabel(p.icon) }), icon: p.icon };
    case "release": {
      const f = filterText(p.filter);
      return { text: f ? t("project.release_filter", { filter: f }) : t("project.release"), icon: p.filter && (p.filter.class || p.filter.continent) };
    }
    default: return { text: cap(p.kind), icon: null };
  }
}

function band(c, opts) {
  const kids = [];
  if (c.type === "animal") {
    kids.push(h("span", { class: "card-cost", title: t("card.cost", { n: c.cost }) }, icon("money", { size: opts.bandIcon, value: c.cost })));
  } else if (c.type === "sponsor") {
    kids.push(h("span", { class: "card-level", title: t("card.level", { n: c.level }) }, String(c.level)));
  } else if (c.type === "project") {
    kids.push(h("span", { class: "card-kind-icon" }, icon("project", { size: opts.bandIcon })));
  }
  kids.push(h("span", { class: "card-name" }, c.name));
  if (!opts.mini) {
    const icons = cardIcons(c);
    if (icons.length) kids.push(h("span", { class: "card-icons" }, icons.map((i) => icon(i, { size: opts.bandIcon }))));
  }
  return h("header", { class: "card-band" }, kids);
}

function cardIcons(c) {
  return c.type === "animal" ? (c.icons || [c.continent, ...(c.classes || [])].filter(Boolean)) : (c.icons || []);
}

function values(c, opts) {
  const out = [];
  if (c.appeal) out.push(h("span", { class: "val", title: t("card.plus_appeal", { n: c.appeal }) }, icon("appeal", { size: opts.valIcon, value: c.appeal })));
  if (c.conservation) out.push(h("span", { class: "val", title: t("card.plus_conservation", { n: c.conservation }) }, icon("conservation", { size: opts.valIcon, value: c.conservation })));
  if (c.reputation) out.push(h("span", { class: "val", title: t("card.plus_reputation", { n: c.reputation }) }, icon("reputation", { size: opts.valIcon, value: c.reputation })));
  return out.length ? h("footer", { class: "card-values" }, out) : null;
}

function abilityLines(list, texts, compact) {
  if (!list || !list.length) return [];
  return list.map((ab, i) => {
    const text = abilityText(ab, (texts && texts[i]) || "");
    const interaction = ["venom", "constriction", "hypnosis", "pilfering"].includes(ab.keyword);
    return h("p", { class: ["ability", interaction && "interaction"], title: text },
      interaction && ICON_INFO[ab.keyword] ? icon(ab.keyword, { size: 14 }) : null,
      h("b", abilityShort(ab)), compact ? null : h("span", { class: "ability-text" }, ` ${text}`));
  });
}

/**
 * A card as an <article>. opts: {size: "full"|"mini", cubes: [{seat, level}], seatChip, onClick}
 */
export function renderCard(c, opts = {}) {
  if (!c) {
    return h("article", { class: ["card", "card-unknown", opts.size === "mini" && "mini"] },
      h("header", { class: "card-band" }, h("span", { class: "card-name" }, opts.id || "?")));
  }
  const mini = opts.size === "mini";
  const sizes = mini ? { bandIcon: 16, valIcon: 18, iconSize: 15, mini } : { bandIcon: 20, valIcon: 22, iconSize: 18, mini };
  const type = c.type === "project" && c.base ? "base" : c.type;
  const body = [];
  const reqRow = [];
  if (mini && cardIcons(c).length) {
    reqRow.push(h("span", { class: "card-icons" }, cardIcons(c).map((i) => icon(i, { size: sizes.iconSize + 1 }))));
  }

  if (c.type === "animal") {
    reqRow.push(h("span", { class: "req size", title: t("card.size_title", { n: c.size }) },
      icon("size", { size: sizes.iconSize + 2, value: c.size, valueFill: "#3b2a0c" })));
    reqRow.push(...reqIcons(c.requires, sizes));
    if (c.special) {
      body.push(h("p", { class: "special" }, t(c.special.only ? "card.special_only" : "card.special_may", {
        building: tOr(`building.${c.special.enclosure}`, cap(c.special.enclosure)), count: c.special.spaces })));
    }
    body.push(...abilityLines(c.abilities, c.texts, mini));
    // what an interaction does in a solo game instead (engine: card data "solo")
    body.push(...abilityLines(c.solo, c.solo_texts, mini).map((p) => { p.classList.add("solo"); p.prepend(h("span", { class: "solo-tag" }, t("card.solo_only"))); return p; }));
  } else if (c.type === "sponsor") {
    reqRow.push(...reqIcons(c.requires, sizes));
    body.push(...abilityLines(c.effects, c.texts, mini));
    if (c.income) body.push(h("p", { class: "income" }, h("b", t("card.income")), " ", gainIcons(c.income, { size: 15 }), mini ? null : ` ${t("card.each_break", { gain: gainText(c.income) })}`));
    for (const trig of c.triggers || []) body.push(h("p", { class: "trigger" }, triggerText(trig)));
    if (c.end) body.push(h("p", { class: "end" }, h("b", t("card.game_end")), " ",
      t(c.end.per > 1 ? "card.end_per" : "card.end_each", { per: c.end.per, counter: counterText(c.end.counter), max: c.end.max })));
    if (c.building) {
      const size = (c.building.shape || []).length;
      body.push(h("p", { class: "building" }, h("b", t("card.builds")), " ", c.building.appeal
        ? t("card.building_appeal", { name: c.building.name, size, appeal: c.building.appeal })
        : t("card.building", { name: c.building.name, size })));
    }
  } else if (c.type === "project") {
    const goal = projectGoal(c);
    body.push(h("p", { class: "goal" }, goal.icon && ICON_INFO[goal.icon] ? icon(goal.icon, { size: sizes.iconSize }) : null, " ", goal.text));
    const cubes = opts.cubes || [];
    body.push(h("ol", { class: "levels" }, (c.levels || []).map((lvl, i) => {
      const taken = cubes.filter((q) => q.level === i);
      return h("li", { class: ["level", taken.length && "taken"], dataset: { level: i } },
        h("span", { class: "need" }, c.kind === "release" ? t("filter.size_min", { n: lvl.need }) : `${lvl.need}`),
        h("span", { class: "arrow" }, "→"),
        icon("conservation", { size: sizes.iconSize, value: lvl.cp }),
        taken.map((q) => opts.seatChip ? opts.seatChip(q.seat) : null));
    })));
  } else if (c.type === "final") {
    body.push(h("p", { class: "final-text" }, c.text || counterText(c.counter)));
    body.push(h("ol", { class: "levels steps" }, (c.steps || []).map((st, i) =>
      h("li", { class: "level" }, h("span", { class: "need" }, `${st}+`), h("span", { class: "arrow" }, "→"),
        icon("conservation", { size: sizes.iconSize, value: i + 1 })))));
  } else if (c.type === "tile") {
    body.push(h("p", { class: "tile-gain" }, gainIcons(c.gain, { size: 22 }), " ", gainText(c.gain)));
  }

  const art = mini ? null : cardArt(c);
  const el = h("article", {
    class: ["card", `card-${type}`, mini && "mini", opts.class],
    dataset: { id: c.id, type },
    "aria-label": mini ? cardTitle(c) : null, // the whole card on hover or tap: static/js/cardzoom.js
  },
  band(c, sizes),
  art,
  reqRow.length ? h("div", { class: "card-req" }, reqRow) : null,
  h("div", { class: "card-body" }, body),
  values(c, sizes),
  h("span", { class: "card-id" }, c.id));
  return el;
}

/** The picture area of a full card: the card's main icons, large, on its habitat's colour. */
function cardArt(c) {
  let main = [];
  let tint = null;
  if (c.type === "animal") {
    main = [...(c.classes || [])];
    tint = c.continent && ICON_INFO[c.continent] ? ICON_INFO[c.continent].colour : "#8a7f6a";
  } else if (c.type === "sponsor") {
    main = (c.icons && c.icons.length) ? c.icons.slice(0, 2) : ["science"];
    tint = "#2f63a3";
  } else if (c.type === "project") {
    const g = projectGoal(c);
    main = [g.icon && ICON_INFO[g.icon] ? g.icon : "project"];
    tint = "#2b7d48";
  } else if (c.type === "final") {
    main = ["conservation"];
    tint = "#6f6d68";
  } else if (c.type === "tile") {
    main = Object.keys(c.gain || {}).map((k) => GAIN_ICON[k]).filter(Boolean).slice(0, 2);
    tint = "#8a6d3b";
  }
  const kids = main.filter((m) => ICON_INFO[m]).map((m) => icon(m, { size: 54, class: "art-icon" }));
  return h("div", { class: "card-art", style: { "--tint": tint || "#8a7f6a" }, "aria-hidden": "true" }, kids);
}

/** One-line description (tooltips and aria labels). */
export function cardTitle(c) {
  if (!c) return "";
  const bits = [`${c.name} (${TYPE_LABEL[c.type === "project" && c.base ? "base" : c.type] || c.type})`];
  const lines = (list) => (list || []).map((ab, i) => abilityText(ab, (c.texts || [])[i] || "")).filter(Boolean).join(" ");
  if (c.type === "animal") {
    bits.push(t("card.title_animal", { size: c.size, cost: c.cost }));
    const r = requirementText(c.requires);
    if (r) bits.push(t("card.title_needs", { what: r }));
    if ((c.abilities || []).length) bits.push(lines(c.abilities));
    if ((c.solo || []).length) bits.push((c.solo || []).map((ab, i) => abilityText(ab, (c.solo_texts || [])[i] || "")).join(" "));
  } else if (c.type === "sponsor") {
    bits.push(t("card.title_level", { n: c.level }));
    if ((c.effects || []).length) bits.push(lines(c.effects));
  } else if (c.type === "project") {
    bits.push(projectGoal(c).text);
  } else if (c.text) bits.push(c.text);
  return bits.join(" · ");
}

/** Words a text search matches (name, icons, keywords, requirements). */
export function searchText(c) {
  const words = [c.id, c.name, c.name_en || "", c.type, TYPE_LABEL[c.type] || ""];
  if (c.continent) words.push(c.continent, iconLabel(c.continent));
  for (const i of c.classes || []) words.push(i, iconLabel(i));
  for (const i of c.icons || []) words.push(i, iconLabel(i));
  for (const a of [...(c.abilities || []), ...(c.effects || []), ...(c.solo || [])]) words.push(a.keyword, abilityName(a.keyword), abilityText(a));
  for (const line of c.texts || []) words.push(line);
  if (c.requires) {
    words.push(requirementText(c.requires));
    if (c.requires.water) words.push("water", iconLabel("water"));
    if (c.requires.rock) words.push("rock", iconLabel("rock"));
  }
  if (c.special) words.push(c.special.enclosure, tOr(`building.${c.special.enclosure}`, ""));
  if (c.text) words.push(c.text);
  if (c.type === "project") words.push(projectGoal(c).text, c.kind);
  return words.join(" ").toLowerCase();
}
