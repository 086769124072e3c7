// The game page's tools (vacation notes, resign and abort, "Next game", the notification bell):
// in the header's own element (#game-tools) after the status line. On a desktop they stand in the
// header's line; on a phone (below 900 px, menagerie.css) a "⋯" button (#tools-toggle) shows
// them as rows of a drop-down under the header, which closes on a second tap, Escape, a tap
// elsewhere or once a tool is chosen. Whether it is open survives the header being drawn again
// (gamechrome.js draws it at every version).
import { $ } from "./dom.js";

let open = false;
let wired = false;

const parts = () => ({ box: $("#game-tools"), toggle: $("#tools-toggle"), menu: $("#tools-menu") });

/** Only where the "⋯" button shows (a phone) is there a menu to open or close. */
const folded = (toggle) => !!toggle && toggle.getClientRects().length > 0;

function show({ box, toggle }) {
  box.classList.toggle("open", open);
  toggle.setAttribute("aria-expanded", String(open));
}

function setOpen(value, { focus = false } = {}) {
  const p = parts();
  if (!p.box) return;
  open = value;
  show(p);
  if (focus) p.toggle.focus();
}

function wire({ box, toggle, menu }) {
  wired = true;
  toggle.addEventListener("click", () => setOpen(!open));
  // a chosen tool closes the menu (its own click has done its work: a confirm, a page change)
  menu.addEventListener("click", (e) => {
    if (open && e.target.closest("button, a")) setOpen(false);
  });
  document.addEventListener("click", (e) => {
    if (open && !box.contains(e.target)) setOpen(false);
  }, true);
  document.addEventListener("keydown", (e) => {
    if (e.key !== "Escape" || !open || !folded(toggle)) return;
    e.stopPropagation(); // the table's own Escape (cancel a placement) waits for the next one
    setOpen(false, { focus: true });
  }, true);
}

/** Put `items` (elements) into the tools; the toggle hides when there are none. */
export function renderTools(items) {
  const p = parts();
  if (!p.box) return;
  if (!wired) wire(p);
  p.menu.replaceChildren(...items);
  p.box.classList.toggle("empty", items.length === 0);
  // a note (someone on vacation) marks the folded menu's button with a dot
  p.box.classList.toggle("has-note", items.some((el) => el.classList && el.classList.contains("badge")));
  if (!items.length) open = false;
  show(p);
}
