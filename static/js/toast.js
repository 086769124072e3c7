// The page's toasts: a short note in the corner (the page's #toasts) that goes away by itself.
import { h, $ } from "./dom.js";

/**
 * Show `text` as a toast; nothing on a page without #toasts.
 * opts: {class (added to "toast"), role ("alert"), ms (how long it stays, 5000)}.
 */
export function toast(text, opts = {}) {
  const host = $("#toasts");
  if (!host) return;
  const note = h("div", { class: ["toast", opts.class], role: opts.role || "alert" }, text);
  host.appendChild(note);
  setTimeout(() => note.remove(), opts.ms || 5000);
}
