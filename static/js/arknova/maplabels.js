// The texts of the zoo map: measured widths, names shortened the way a player reads them, and
// the layout that keeps every label (building names, animal chips, enclosure sizes) off every
// other label and off the markers of the spaces around it (water, rock, free placement
// bonuses, kiosk and pavilion icons). A shortened name stays readable whole: the chip's title
// (hover) and the card zoom (hover or tap on the chip).

// ------------------------------------------------------------------ measured text widths
// A fixed average width per character is only a guess: wide fonts (DejaVu Sans Bold, a common
// fallback) draw bold text wider than 0.62 em per character, and a name placed by that guess at
// the map's edge stuck out of the map. The map's labels are laid out with the widths the browser
// measures in the map's own font (a canvas measures the same font, even while the map is hidden).
let measurer = null;
let measureFamily = "";

/** The width of `text` in user units at font size fs and weight `weight`, with a small margin. */
export function textWidth(text, fs, weight = 700) {
  if (!text) return 0;
  if (measurer === null) {
    try { measurer = document.createElement("canvas").getContext("2d") || false; } catch { measurer = false; }
  }
  if (!measureFamily && typeof getComputedStyle === "function") {
    measureFamily = getComputedStyle(document.documentElement).getPropertyValue("--font").trim();
  }
  if (!measurer) return text.length * 0.8 * fs;  // no canvas: wider than any bold font's average
  measurer.font = `${weight} 100px ${measureFamily || "sans-serif"}`;
  return (measurer.measureText(text).width / 100) * fs * 1.03 + 1;
}

/** `text`, shortened with an ellipsis until it fits into width `room` (at least one letter). */
export function fitText(text, room, fs, weight = 700) {
  if (!text || textWidth(text, fs, weight) <= room) return text || "";
  for (let n = text.length - 1; n > 1; n--) {
    const shorter = `${text.slice(0, n).trimEnd()}…`;
    if (textWidth(shorter, fs, weight) <= room) return shorter;
  }
  return `${text.slice(0, 1)}…`;
}

const upper = (w) => (w ? w[0].toLocaleUpperCase() + w.slice(1) : w);

/**
 * A name shortened the way a player reads it: whole if it fits; else without its leading words
 * (the kind of animal comes last in English, German and Ukrainian names alike: "Common
 * Hippopotamus" -> "Hippopotamus", "Schwarzschwanz-Präriehund" -> "Präriehund", "Рудий
 * кенгуру" -> "Кенгуру"); else its last word cut with an ellipsis.
 */
export function abbreviate(name, room, fs, weight = 700) {
  const text = String(name || "");
  if (textWidth(text, fs, weight) <= room) return text;
  const tails = [];
  for (const m of text.matchAll(/[\s-]+/g)) tails.push(upper(text.slice(m.index + m[0].length)));
  for (const tail of tails) if (tail && textWidth(tail, fs, weight) <= room) return tail;
  return fitText(tails.length && tails[tails.length - 1] ? tails[tails.length - 1] : text, room, fs, weight);
}

// ------------------------------------------------------------------ label layout
const GAP = 2;   // user units between two labels, or a label and a marker

/**
 * Make the labels as wide as they may be without touching one another or an obstacle.
 * labels: [{x, y, hh, hw, min, shift, id}] (centre, half height, wanted half width, the least
 * half width, how far it may move inward at the map's edge); obstacles: [{x, y, hh, hw, id}] (fixed; an obstacle never blocks its own building's
 * labels); width: the map's width (a label stays inside it). The labels' `hw` shrink in place.
 * Labels one above the other never need to shrink: the map puts a building's name and its chip
 * apart, and labels of one column are a whole hex apart.
 */
export function layoutLabels(labels, obstacles, width) {
  for (const a of labels) {
    // at the map's edge a label first moves inward (by up to `shift`), then it narrows
    if (a.shift) a.x = Math.max(a.x - a.shift, Math.min(a.x + a.shift, Math.max(a.hw + GAP, Math.min(width - a.hw - GAP, a.x))));
    a.hw = Math.max(a.min || 0, Math.min(a.hw, a.x - GAP, width - a.x - GAP));
  }
  const across = (a, b) => Math.abs(a.y - b.y) < a.hh + b.hh + GAP;
  for (let round = 0; round < 40; round++) {
    let changed = false;
    for (let i = 0; i < labels.length; i++) {
      const a = labels[i];
      for (const o of obstacles) {
        if (o.id !== undefined && o.id === a.id) continue;
        if (!across(a, o)) continue;
        const room = Math.abs(a.x - o.x) - o.hw - GAP;
        if (a.hw > room && room >= (a.min || 0)) { a.hw = room; changed = true; }
      }
      for (let j = i + 1; j < labels.length; j++) {
        const b = labels[j];
        if (!across(a, b)) continue;
        const room = Math.abs(a.x - b.x) - GAP;
        if (a.hw + b.hw <= room + 1e-6) continue;
        const fair = room / 2;
        const [ah, bh] = [a.hw, b.hw];
        if (a.hw <= fair) b.hw = Math.max(b.min || 0, room - a.hw);
        else if (b.hw <= fair) a.hw = Math.max(a.min || 0, room - b.hw);
        else { a.hw = Math.max(a.min || 0, fair); b.hw = Math.max(b.min || 0, fair); }
        if (a.hw !== ah || b.hw !== bh) changed = true;
      }
    }
    if (!changed) break;
  }
  return labels;
}
