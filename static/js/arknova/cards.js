// Cards of the zoo builder, rendered from the catalog (GET /api/catalog/arknova).
import { h, cap, listing } from "../dom.js";
import { icon, iconLabel, ICON_INFO } from "../icons.js";

export const CONTINENTS = ["africa", "americas", "asia", "australia", "europe"];
export const CLASSES = ["predator", "herbivore", "primate", "reptile", "bird", "bear", "pet", "sea"];

export const TYPE_LABEL = {
  animal: "Animal", sponsor: "Sponsor", project: "Conservation project", base: "Base project",
  final: "Final scoring", tile: "Bonus tile",
};

/** Index every card of a catalog by id; cards keep their group in `group`. */
export function indexCatalog(catalog) {
  const byId = new Map();
  const groups = (catalog && catalog.cards) || {};
  for (const [group, list] of Object.entries(groups)) {
    if (!Array.isArray(list)) continue;
    for (const c of list) {
      if (c && c.id) byId.set(c.id, { ...c, group, type: c.type || group.replace(/s$/, "") });
    }
  }
  return byId;
}

export function cardName(byId, id) {
  const c = byId && byId.get(id);
  return c ? c.name : String(id);
}

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
    return h("span", { class: "gain", title: label }, ic, h("span", { class: "gain-n small" }, key === "snap" ? "display" : "pick"));
  }
  return h("span", { class: "gain", title: label }, ic);
}

export function gainText(gains) {
  if (!gains) return "";
  const parts = [];
  for (const [k, n] of Object.entries(gains)) {
    if (!n) continue;
    switch (k) {
      case "money": parts.push(`${n} money`); break;
      case "appeal": parts.push(`${n} appeal`); break;
      case "conservation": parts.push(`${n} conservation point${n === 1 ? "" : "s"}`); break;
      case "reputation": parts.push(`${n} reputation`); break;
      case "x": parts.push(`${n} X token${n === 1 ? "" : "s"}`); break;
      case "cards": parts.push(`${n} card${n === 1 ? "" : "s"}`); break;
      case "worker": parts.push(n === 1 ? "a worker" : `${n} workers`); break;
      case "upgrade": parts.push(n === 1 ? "an action upgrade" : `${n} action upgrades`); break;
      case "snap": parts.push(n === 1 ? "a display card" : `${n} display cards`); break;
      case "pick_card": parts.push("a card from the deck or the display"); break;
      default: parts.push(`${n} ${k.replace(/_/g, " ")}`);
    }
  }
  return listing(parts);
}

function abilityShort(ab) {
  const v = ab.value;
  const name = cap(ab.keyword);
  if (v === null || v === undefined) return name;
  if (typeof v === "object") {
    if (ab.keyword === "boost") return `${name}: ${cap(v.action)} ${v.strength}`;
    if (ab.keyword === "sell") return `${name} ${v.max}×${v.money}`;
    if (ab.keyword === "pouch") return `${name} ${v.max}×${v.appeal}`;
    return `${name} ${Object.values(v).join("/")}`;
  }
  return `${name} ${typeof v === "string" ? iconLabel(v) : v}`;
}

function reqIcons(req, opts) {
  const out = [];
  if (!req) return out;
  if (req.water) out.push(h("span", { class: "req", title: `Enclosure next to ${req.water} water space${req.water > 1 ? "s" : ""}` },
    icon("water", { size: opts.iconSize }), req.water > 1 ? h("b", `×${req.water}`) : null));
  if (req.rock) out.push(h("span", { class: "req", title: `Enclosure next to ${req.rock} rock space${req.rock > 1 ? "s" : ""}` },
    icon("rock", { size: opts.iconSize }), req.rock > 1 ? h("b", `×${req.rock}`) : null));
  if (req.icons) {
    for (const [ic, n] of Object.entries(req.icons)) {
      out.push(h("span", { class: "req needs", title: `Needs ${n} ${iconLabel(ic)} icon${n > 1 ? "s" : ""} in the zoo` },
        icon(ic, { size: opts.iconSize }), h("b", `${n}`)));
    }
  }
  if (req.partner) out.push(h("span", { class: "req needs", title: `Needs a partner zoo in ${iconLabel(req.partner)}` },
    icon("partner", { size: opts.iconSize }), icon(req.partner, { size: opts.iconSize })));
  if (req.science) out.push(h("span", { class: "req needs", title: `Needs ${req.science} science icon${req.science > 1 ? "s" : ""}` },
    icon("science", { size: opts.iconSize }), h("b", `${req.science}`)));
  if (req.reputation) out.push(h("span", { class: "req needs", title: `Needs reputation ${req.reputation}` },
    icon("reputation", { size: opts.iconSize, value: req.reputation })));
  if (req.upgraded) out.push(h("span", { class: "req needs", title: `Needs the ${cap(req.upgraded)} action upgraded` },
    icon("upgrade", { size: opts.iconSize }), h("b", cap(req.upgraded))));
  return out;
}

export function requirementText(req) {
  if (!req) return "";
  const parts = [];
  if (req.water) parts.push(`${req.water} water`);
  if (req.rock) parts.push(`${req.rock} rock`);
  for (const [ic, n] of Object.entries(req.icons || {})) parts.push(`${n} ${iconLabel(ic)}`);
  if (req.partner) parts.push(`partner zoo ${iconLabel(req.partner)}`);
  if (req.science) parts.push(`${req.science} science`);
  if (req.reputation) parts.push(`reputation ${req.reputation}`);
  if (req.upgraded) parts.push(`${cap(req.upgraded)} upgraded`);
  return parts.join(", ");
}

function filterText(f) {
  if (!f) return "";
  const parts = [];
  for (const [k, v] of Object.entries(f)) {
    if (v === null || v === undefined) continue;
    if (k === "class" || k === "continent" || k === "icon") parts.push(iconLabel(v));
    else if (k === "size_min") parts.push(`size ${v}+`);
    else if (k === "size_max") parts.push(`size ≤ ${v}`);
    else if (k === "building") parts.push(cap(v));
    else parts.push(`${k} ${v}`);
  }
  return parts.join(" ");
}

export function triggerText(t) {
  const f = t.filter || {};
  let what;
  if (t.on === "animal") {
    if (f.class || f.continent || f.icon) what = `play a ${iconLabel(f.class || f.continent || f.icon)} animal`;
    else if (f.size_min) what = `play an animal of size ${f.size_min}+`;
    else if (f.size_max) what = `play an animal of size ${f.size_max} or less`;
    else what = "play an animal";
  } else if (t.on === "sponsor") {
    what = f.icon ? `play a sponsor with a ${iconLabel(f.icon)} icon` : "play a sponsor";
  } else if (t.on === "build") {
    if (f.building) what = `build a ${f.building === "special" ? "special enclosure" : cap(f.building).toLowerCase()}`;
    else if (f.size_min) what = `build a building of size ${f.size_min}+`;
    else if (f.size_max) what = `build a building of size ${f.size_max} or less`;
    else what = "build";
  } else if (t.on === "project") {
    what = f.icon ? `support a ${iconLabel(f.icon)} project` : "support a project";
  } else what = `${t.on}`;
  return `Whenever you ${what}: gain ${gainText(t.gain)}.`;
}

export function counterText(counter) {
  const [name, arg] = String(counter).split(":");
  switch (name) {
    case "icon": return `${iconLabel(arg)} icons`;
    case "animals_min_size": return `animals of size ${arg}+`;
    case "animals_max_size": return `animals of size ≤ ${arg}`;
    case "continents": return "different continents";
    case "classes": return "different animal classes";
    case "buildings": return `${arg === "special" ? "special enclosures" : arg + "s"}`;
    case "edge_covered": return "covered edge spaces";
    case "projects": return "supported projects";
    case "partners": return "partner zoos";
    case "universities": return "universities";
    case "sponsors": return "sponsor cards";
    case "reputation": return "reputation";
    case "money": return "money";
    case "water_enclosures": return "enclosures next to water";
    case "full_enclosures": return "occupied enclosures";
    default: return String(counter).replace(/_/g, " ");
  }
}

export function projectGoal(p) {
  switch (p.kind) {
    case "icon": return { text: `${iconLabel(p.icon)} icons in your zoo`, icon: p.icon };
    case "distinct": return { text: `Different ${p.of} in your zoo`, icon: p.of === "continents" ? "africa" : "predator" };
    case "breeding": return { text: `Pairs of ${iconLabel(p.icon)} animals`, icon: p.icon };
    case "release": {
      const f = filterText(p.filter);
      return { text: `Release ${f ? "a " + f : "an"} animal of at least the size`, icon: p.filter && (p.filter.class || p.filter.continent) };
    }
    default: return { text: cap(p.kind), icon: null };
  }
}

function band(c, opts) {
  const kids = [];
  if (c.type === "animal") {
    kids.push(h("span", { class: "card-cost", title: `Cost ${c.cost}` }, icon("money", { size: opts.bandIcon, value: c.cost })));
  } else if (c.type === "sponsor") {
    kids.push(h("span", { class: "card-level", title: `Level ${c.level}` }, String(c.level)));
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
  if (c.appeal) out.push(h("span", { class: "val", title: `+${c.appeal} appeal` }, icon("appeal", { size: opts.valIcon, value: c.appeal })));
  if (c.conservation) out.push(h("span", { class: "val", title: `+${c.conservation} conservation` }, icon("conservation", { size: opts.valIcon, value: c.conservation })));
  if (c.reputation) out.push(h("span", { class: "val", title: `+${c.reputation} reputation` }, icon("reputation", { size: opts.valIcon, value: c.reputation })));
  return out.length ? h("footer", { class: "card-values" }, out) : null;
}

function abilityLines(list, texts, compact) {
  if (!list || !list.length) return [];
  return list.map((ab, i) => {
    const text = (texts && texts[i]) || "";
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
    reqRow.push(h("span", { class: "req size", title: `Size ${c.size}: needs an enclosure of ${c.size}+ spaces` },
      icon("size", { size: sizes.iconSize + 2, value: c.size, valueFill: "#3b2a0c" })));
    reqRow.push(...reqIcons(c.requires, sizes));
    if (c.special) {
      body.push(h("p", { class: "special" }, `${c.special.only ? "Only in" : "May live in"} the ${cap(c.special.enclosure)} (${c.special.spaces} space${c.special.spaces > 1 ? "s" : ""})`));
    }
    body.push(...abilityLines(c.abilities, c.texts, mini));
  } else if (c.type === "sponsor") {
    reqRow.push(...reqIcons(c.requires, sizes));
    body.push(...abilityLines(c.effects, c.texts, mini));
    if (c.income) body.push(h("p", { class: "income" }, h("b", "Income "), gainIcons(c.income, { size: 15 }), mini ? null : ` each break: ${gainText(c.income)}`));
    for (const t of c.triggers || []) body.push(h("p", { class: "trigger" }, triggerText(t)));
    if (c.end) body.push(h("p", { class: "end" }, h("b", "Game end: "), `1 CP per ${c.end.per > 1 ? c.end.per + " " : ""}${counterText(c.end.counter)}, at most ${c.end.max}.`));
    if (c.building) body.push(h("p", { class: "building" }, h("b", "Builds "), `${c.building.name} (size ${(c.building.shape || []).length}${c.building.appeal ? `, +${c.building.appeal} appeal` : ""})`));
  } else if (c.type === "project") {
    const goal = projectGoal(c);
    body.push(h("p", { class: "goal" }, goal.icon && ICON_INFO[goal.icon] ? icon(goal.icon, { size: sizes.iconSize }) : null, " ", goal.text));
    const cubes = opts.cubes || [];
    body.push(h("ol", { class: "levels" }, (c.levels || []).map((lvl, i) => {
      const taken = cubes.filter((q) => q.level === i);
      return h("li", { class: ["level", taken.length && "taken"], dataset: { level: i } },
        h("span", { class: "need" }, c.kind === "release" ? `size ${lvl.need}+` : `${lvl.need}`),
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
    title: mini ? cardTitle(c) : null,
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
  if (c.type === "animal") {
    bits.push(`size ${c.size}, cost ${c.cost}`);
    const r = requirementText(c.requires);
    if (r) bits.push(`needs ${r}`);
    if (c.texts && c.texts.length) bits.push(c.texts.join(" "));
  } else if (c.type === "sponsor") {
    bits.push(`level ${c.level}`);
    if (c.texts && c.texts.length) bits.push(c.texts.join(" "));
  } else if (c.type === "project") {
    bits.push(projectGoal(c).text);
  } else if (c.text) bits.push(c.text);
  return bits.join(" · ");
}

/** Words a text search matches (name, icons, keywords, requirements). */
export function searchText(c) {
  const words = [c.id, c.name, c.type, TYPE_LABEL[c.type] || ""];
  if (c.continent) words.push(c.continent, iconLabel(c.continent));
  for (const i of c.classes || []) words.push(i, iconLabel(i));
  for (const i of c.icons || []) words.push(i, iconLabel(i));
  for (const a of [...(c.abilities || []), ...(c.effects || [])]) words.push(a.keyword);
  for (const t of c.texts || []) words.push(t);
  if (c.requires) {
    words.push(requirementText(c.requires));
    if (c.requires.water) words.push("water");
    if (c.requires.rock) words.push("rock");
  }
  if (c.special) words.push(c.special.enclosure);
  if (c.text) words.push(c.text);
  if (c.type === "project") words.push(projectGoal(c).text, c.kind);
  return words.join(" ").toLowerCase();
}
