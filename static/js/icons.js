// The icon set, drawn once as an SVG sprite (<symbol>s) and reused with <use>.
// All glyphs are original, simple geometric drawings on a 24×24 grid.
import { s } from "./dom.js";
import { tOr } from "./i18n.js";

const W = "#fff";

const badge = (fill, glyph, shape = "circle") => (shape === "circle"
  ? `<circle cx="12" cy="12" r="11" fill="${fill}" stroke="#0003" stroke-width="1"/>`
  : `<rect x="1.5" y="1.5" width="21" height="21" rx="6" fill="${fill}" stroke="#0003" stroke-width="1"/>`) + glyph;

export const ICON_INFO = {
  // continents: round badges
  africa: { label: "Africa", colour: "#b9771f", svg: badge("#b9771f",
    `<path fill="${W}" d="M4.5 10.5h15c-1.2-3-4.2-4.4-7.5-4.4s-6.3 1.4-7.5 4.4z"/><path fill="${W}" d="M11.2 10h1.6v7.5h-1.6z"/><path fill="${W}" d="M6 17.2h12v1.4H6z"/>`) },
  americas: { label: "Americas", colour: "#a23e2c", svg: badge("#a23e2c",
    `<path fill="${W}" d="M11 19V6.2a1 1 0 0 1 2 0V19z"/><path fill="${W}" d="M7.6 13.8V10a1 1 0 0 1 2 0v3h1.6v1.8H8.8a1.4 1.4 0 0 1-1.2-1z"/><path fill="${W}" d="M16.4 12V9a1 1 0 0 0-2 0v2h-1.6v1.8h2.4a1.4 1.4 0 0 0 1.2-.8z"/>`) },
  asia: { label: "Asia", colour: "#b5303f", svg: badge("#b5303f",
    `<path fill="${W}" d="M4.5 10.2 12 5.6l7.5 4.6z"/><path fill="${W}" d="M6.8 14.2 12 11.3l5.2 2.9z"/><path fill="${W}" d="M8.8 14h1.5v5H8.8zM13.7 14h1.5v5h-1.5zM7 18.6h10V20H7z"/>`) },
  australia: { label: "Australia", colour: "#cf5f1c", svg: badge("#cf5f1c",
    `<path fill="${W}" d="M5.4 16.4c3.4-.8 5.6-3.6 6.6-8.6.3-1.4 2.4-1.3 2.3.2-.4 5.6-4.4 10-8.4 10.6-1.5.2-2-1.8-.5-2.2z"/><path fill="${W}" d="M12.6 8.2c2.2 1.8 4.3 2.5 6.3 2.2 1.2-.2 1.6 1.5.4 1.9-2.6.8-5.3 0-7.6-2.2z"/>`) },
  europe: { label: "Europe", colour: "#2f5aa8", svg: badge("#2f5aa8",
    `<path fill="${W}" d="M6.5 19V8.5h2.2v2h1.9v-2h2.8v2h1.9v-2h2.2V19h-4.3v-4h-2.4v4z"/>`) },
  // classes: rounded squares
  predator: { label: "Predator", colour: "#8e2f25", svg: badge("#8e2f25",
    `<ellipse cx="12" cy="15.2" rx="4.4" ry="3.5" fill="${W}"/><circle cx="6.9" cy="10.6" r="1.8" fill="${W}"/><circle cx="10" cy="7.6" r="1.8" fill="${W}"/><circle cx="14" cy="7.6" r="1.8" fill="${W}"/><circle cx="17.1" cy="10.6" r="1.8" fill="${W}"/>`, "square") },
  herbivore: { label: "Herbivore", colour: "#4f7d2b", svg: badge("#4f7d2b",
    `<path fill="${W}" d="M5.5 18.5C5.5 10.5 10.5 5.5 18.5 5.5c0 8-5 13-13 13z"/><path d="M6.5 17.5 15 9" stroke="#4f7d2b" stroke-width="1.4" fill="none"/>`, "square") },
  primate: { label: "Primate", colour: "#7a5634", svg: badge("#7a5634",
    `<circle cx="6.4" cy="11" r="2.4" fill="${W}"/><circle cx="17.6" cy="11" r="2.4" fill="${W}"/><circle cx="12" cy="11.5" r="5.4" fill="${W}"/><circle cx="10" cy="10.4" r=".9" fill="#7a5634"/><circle cx="14" cy="10.4" r=".9" fill="#7a5634"/><path d="M9.8 14.2q2.2 1.6 4.4 0" stroke="#7a5634" stroke-width="1.1" fill="none"/>`, "square") },
  reptile: { label: "Reptile", colour: "#3d7a56", svg: badge("#3d7a56",
    `<path d="M4.5 14.5 7.3 10l2.8 4.5 2.8-4.5 2.8 4.5 2.8-4.5 1.5 2.4" stroke="${W}" stroke-width="2" fill="none" stroke-linejoin="round"/><path d="M5 17.5h14" stroke="${W}" stroke-width="1.4"/>`, "square") },
  bird: { label: "Bird", colour: "#2b79a3", svg: badge("#2b79a3",
    `<path fill="${W}" d="M4 12.2c3.6-.6 5.8-3.8 9-3.8 1.9 0 3 .9 3.8 2l3.2 1.1-3.1 1c-1 3-3.8 4.9-7.6 4.9-2 0-3.7-.8-4.8-1.8 2-.1 3.8-.9 4.8-2-2 .2-4-.4-5.3-1.4z"/>`, "square") },
  bear: { label: "Bear", colour: "#6b4a2e", svg: badge("#6b4a2e",
    `<circle cx="7.8" cy="7.8" r="2.4" fill="${W}"/><circle cx="16.2" cy="7.8" r="2.4" fill="${W}"/><circle cx="12" cy="13" r="5.8" fill="${W}"/><ellipse cx="12" cy="15" rx="2" ry="1.4" fill="#6b4a2e"/>`, "square") },
  pet: { label: "Pet", colour: "#b85d84", svg: badge("#b85d84",
    `<path fill="${W}" d="M12 19s-7-4.4-7-9.1a3.8 3.8 0 0 1 7-2 3.8 3.8 0 0 1 7 2C19 14.6 12 19 12 19z"/>`, "square") },
  sea: { label: "Sea animal", colour: "#1d6b87", svg: badge("#1d6b87",
    `<path fill="${W}" d="M4 12c3-4 8-5.2 12-2l4-3v10l-4-3c-4 3.2-9 2-12-2z"/><circle cx="8.2" cy="11.3" r=".9" fill="#1d6b87"/>`, "square") },
  science: { label: "Science", colour: "#5b4a9b", svg: badge("#5b4a9b",
    `<path fill="${W}" d="M9.8 4.8h4.4v1.4h-.9v3.9l4.6 7.6a1.3 1.3 0 0 1-1.1 2H7.2a1.3 1.3 0 0 1-1.1-2l4.6-7.6V6.2h-.9z"/><path fill="#5b4a9b" d="M8.6 16.2h6.8l-1.3-2.2H9.9z"/>`) },
  // terrain
  water: { label: "Water", colour: "#2e86c1", svg:
    `<rect x="1.5" y="1.5" width="21" height="21" rx="4" fill="#2e86c1"/><path d="M4 9.5q2-2 4 0t4 0 4 0 4 0M4 14.5q2-2 4 0t4 0 4 0 4 0" stroke="${W}" stroke-width="1.8" fill="none" stroke-linecap="round"/>` },
  rock: { label: "Rock", colour: "#7d7a74", svg:
    `<rect x="1.5" y="1.5" width="21" height="21" rx="4" fill="#8a867f"/><path fill="#e9e6e0" d="M4.5 17.5 8 11l2.6 2.2L14 7l5.5 10.5z"/><path fill="#5d5a55" d="M14 7l5.5 10.5h-3.6L13.2 12z"/>` },
  // resources and tracks
  money: { label: "Money", colour: "#d9a521", svg:
    `<circle cx="12" cy="12" r="10.5" fill="#f2c53d" stroke="#a77a10" stroke-width="1.5"/><circle cx="12" cy="12" r="7.2" fill="none" stroke="#a77a10" stroke-width="1"/>` },
  appeal: { label: "Appeal", colour: "#e07b2a", svg:
    `<circle cx="12" cy="12" r="11" fill="#e8842f"/><circle cx="12" cy="8" r="3" fill="${W}"/><path fill="${W}" d="M6.5 18.5c.4-4 2.6-6 5.5-6s5.1 2 5.5 6z"/>` },
  conservation: { label: "Conservation", colour: "#2f8f4e", svg:
    `<circle cx="12" cy="12" r="11" fill="#2f8f4e"/><path fill="${W}" d="M12 4.5c3.5 3 5 6 5 8.6a5 5 0 0 1-10 0c0-2.6 1.5-5.6 5-8.6z"/><path d="M12 19.5V10" stroke="#2f8f4e" stroke-width="1.4"/>` },
  reputation: { label: "Reputation", colour: "#7048a8", svg:
    `<circle cx="12" cy="12" r="11" fill="#7048a8"/><path fill="${W}" d="m12 4.6 2.2 4.6 5 .6-3.7 3.4 1 5-4.5-2.5-4.5 2.5 1-5-3.7-3.4 5-.6z"/>` },
  x: { label: "X token", colour: "#2b2b2b", svg:
    `<circle cx="12" cy="12" r="11" fill="#2e2d2b"/><path d="m8 8 8 8m0-8-8 8" stroke="#f4d35e" stroke-width="2.6" stroke-linecap="round"/>` },
  card: { label: "Card", colour: "#4a6fa5", svg:
    `<rect x="5" y="2.5" width="14" height="19" rx="2" fill="#fbf8f1" stroke="#4a6fa5" stroke-width="1.6"/><rect x="5" y="2.5" width="14" height="5" rx="2" fill="#4a6fa5"/>` },
  worker: { label: "Worker", colour: "#3b6e8f", svg:
    `<circle cx="12" cy="6.6" r="3.4" fill="#3b6e8f"/><path fill="#3b6e8f" d="M5.5 20.5 7.4 12a2 2 0 0 1 2-1.6h5.2a2 2 0 0 1 2 1.6l1.9 8.5z"/>` },
  upgrade: { label: "Upgrade", colour: "#2f7a6c", svg:
    `<circle cx="12" cy="12" r="11" fill="#2f7a6c"/><path fill="${W}" d="M12 4.8 18 11h-3.6v7.6H9.6V11H6z"/>` },
  break: { label: "Break", colour: "#6d5a43", svg:
    `<path fill="#6d5a43" d="M6 3h12v2h-1.2c0 3.2-2 5-3.4 7 1.4 2 3.4 3.8 3.4 7H18v2H6v-2h1.2c0-3.2 2-5 3.4-7-1.4-2-3.4-3.8-3.4-7H6z"/><path fill="#f2c53d" d="M9.4 19c.3-2.3 1.5-3.6 2.6-4.8 1.1 1.2 2.3 2.5 2.6 4.8z"/>` },
  venom: { label: "Venom", colour: "#6a8f1f", svg:
    `<path fill="#7aa32a" stroke="#3d5a0c" stroke-width="1.2" d="M12 2.8c3.8 5.2 6 8.6 6 11.6a6 6 0 0 1-12 0c0-3 2.2-6.4 6-11.6z"/><circle cx="10" cy="14" r="1.5" fill="#fff"/>` },
  constriction: { label: "Constriction", colour: "#8a4f9e", svg:
    `<path d="M5 8c0-3 14-3 14 0s-14 3-14 6 14 3 14 0-14-3-14 3" stroke="#8a4f9e" stroke-width="2.6" fill="none" stroke-linecap="round"/><circle cx="5" cy="17" r="1.8" fill="#8a4f9e"/>` },
  size: { label: "Size", colour: "#8a6d3b", svg:
    `<path fill="#d8b874" stroke="#6b532a" stroke-width="1.4" d="M7 3.5h10l5 8.5-5 8.5H7L2 12z"/>` },
  kiosk: { label: "Kiosk", colour: "#c0392b", svg:
    `<path fill="#c0392b" d="M4 9 12 3l8 6z"/><path fill="#fff" d="M5.5 9h13v10h-13z" stroke="#c0392b" stroke-width="1.2"/><path fill="#c0392b" d="M5.5 9h3.25v3H5.5zm6.5 0h3.25v3H12z"/>` },
  pavilion: { label: "Pavilion", colour: "#7a4fa0", svg:
    `<path fill="#7a4fa0" d="M3.5 10 12 4l8.5 6z"/><path fill="#7a4fa0" d="M6 10.5h1.8V19H6zm5.1 0h1.8V19h-1.8zm5.1 0H18V19h-1.8zM4.5 19h15v1.6h-15z"/>` },
  partner: { label: "Partner zoo", colour: "#39648a", svg:
    `<circle cx="12" cy="12" r="11" fill="#39648a"/><path d="M6 13l3.4 3.2L18 8" stroke="#fff" stroke-width="2.4" fill="none" stroke-linecap="round" stroke-linejoin="round"/>` },
  university: { label: "University", colour: "#5b4a9b", svg:
    `<path fill="#5b4a9b" d="M12 3.5 22 8.5 12 13.5 2 8.5z"/><path fill="#5b4a9b" d="M6 11.2v4.6c1.6 1.6 3.6 2.4 6 2.4s4.4-.8 6-2.4v-4.6l-6 3z"/>` },
  project: { label: "Conservation project", colour: "#2f8f4e", svg:
    `<rect x="3" y="3" width="18" height="18" rx="4" fill="#2f8f4e"/><path fill="#fff" d="M7 16c0-5 3-8.5 10-9-.5 7-4 10-9 10z"/>` },
};

/** Value badges: appeal a disc, conservation a shield, reputation a star-cornered square. */
const VALUE_SHAPES = {
  appeal: () => s("circle", { cx: 12, cy: 12, r: 11, fill: "#d9711f", stroke: "#8a430c", "stroke-width": 1 }),
  conservation: () => s("path", { d: "M12 1.2 21.5 4.6v7.2c0 5.6-4 9.4-9.5 11-5.5-1.6-9.5-5.4-9.5-11V4.6z", fill: "#2f8f4e", stroke: "#1a5a30", "stroke-width": 1 }),
  reputation: () => s("path", { d: "M12 .8 15 5.2l5.3-.5-.5 5.3L23.2 12l-3.4 2 .5 5.3-5.3-.5L12 23.2 9 18.8l-5.3.5.5-5.3L.8 12l3.4-2-.5-5.3 5.3.5z", fill: "#7048a8", stroke: "#432669", "stroke-width": 1 }),
  x: () => s("circle", { cx: 12, cy: 12, r: 11, fill: "#2e2d2b" }),
};

let injected = false;

/** Put the sprite into the document once (hidden). */
export function injectSprite() {
  if (injected || document.getElementById("menagerie-sprite")) { injected = true; return; }
  const symbols = Object.entries(ICON_INFO).map(([id, v]) =>
    `<symbol id="i-${id}" viewBox="0 0 24 24"><title>${iconLabel(id).replace(/[<&>]/g, "")}</title>${v.svg}</symbol>`).join("");
  const div = document.createElement("div");
  div.innerHTML = `<svg id="menagerie-sprite" xmlns="http://www.w3.org/2000/svg" style="position:absolute;width:0;height:0;overflow:hidden" aria-hidden="true"><defs>` +
    `<pattern id="hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="6" height="6" fill="none"/><path d="M0 0v6" stroke="#6b5b3e" stroke-width="1.4" opacity=".45"/></pattern>` +
    `</defs>${symbols}</svg>`;
  document.body.prepend(div.firstChild);
  injected = true;
}

export function iconLabel(name) {
  // the label in the page's language (icon.<name>), the English label as the fallback
  return tOr(`icon.${name}`, (ICON_INFO[name] && ICON_INFO[name].label) || String(name).replace(/_/g, " "));
}

/** An HTML-embeddable icon: <svg class="icon"><use href="#i-name"/></svg> */
export function icon(name, opts = {}) {
  const known = !!ICON_INFO[name];
  const size = opts.size || 18;
  const el = s("svg", {
    class: ["icon", opts.class], width: size, height: size, viewBox: "0 0 24 24",
    role: "img", "aria-label": opts.label || iconLabel(name),
  });
  const t = s("title");
  t.textContent = opts.label || iconLabel(name);
  el.appendChild(t);
  const withValue = opts.value !== undefined && opts.value !== null && opts.value !== "";
  if (withValue && VALUE_SHAPES[name]) {
    // a number badge: the track's colour and its own shape (not colour alone)
    el.appendChild(VALUE_SHAPES[name]());
    el.appendChild(s("text", { x: 12, y: 12, dy: "0.36em", "text-anchor": "middle", class: "icon-value",
      "font-size": String(opts.value).length > 1 ? 11.5 : 14, "font-weight": 800, fill: "#fff" }, String(opts.value)));
    return el;
  }
  if (known) el.appendChild(s("use", { href: `#i-${name}` }));
  else el.appendChild(s("circle", { cx: 12, cy: 12, r: 10, fill: "#999" }));
  if (opts.value !== undefined && opts.value !== null) {
    el.appendChild(s("text", { x: 12, y: 12, dy: "0.36em", "text-anchor": "middle", class: "icon-value",
      "font-size": String(opts.value).length > 1 ? 11 : 13, "font-weight": 700,
      fill: opts.valueFill || (name === "money" ? "#5a3d00" : "#fff") }, String(opts.value)));
  }
  return el;
}

/** An icon placed inside another SVG at (x, y) with size. */
export function useIcon(name, x, y, size, extra = {}) {
  return s("use", { href: `#i-${name}`, x, y, width: size, height: size, ...extra });
}
