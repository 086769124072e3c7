// A proposed answer drawn on the table, the way the table previews an answer: a card outlined
// (hand, display, trays), the action card lifted, a placement drawn as the zoo map's ghost, a
// display folder marked. Used by the hint on the game page and by the better answer of a mistake
// on the replay page. Returns how many marks it drew (0: nothing of it is on the table now).
const ACTION_CARDS = new Set(["animals", "build", "cards", "association", "sponsors"]);
const CARD_ID = /^[A-Z]\d{2,3}$/;

function cardIds(action) {
  const out = [];
  for (const key of ["card", "project", "cards"]) {
    const v = action[key];
    for (const x of Array.isArray(v) ? v : [v]) if (typeof x === "string" && CARD_ID.test(x)) out.push(x);
  }
  return out;
}

const cellsKey = (cells) => cells.map((c) => `${c[0]},${c[1]}`).sort().join(";");

const esc = (v) => (window.CSS && CSS.escape ? CSS.escape(String(v)) : String(v).replace(/["\\]/g, "\\$&"));

export function clearSuggestion(ui, { placement = true } = {}) {
  for (const el of document.querySelectorAll(".suggested")) el.classList.remove("suggested");
  if (placement && ui && ui.zoo && ui.zoo.suggesting) {
    ui.zoo.suggesting = false;
    ui.zoo.setPlacements(null);
  }
}

/** Draw `action` (or a list: an answer and the seat's own follow-ups, such as the folder a
 * Cards action draws from); `bring` also scrolls it into sight (the first time it is drawn).
 * `placement: false` marks the cards and action cards again but leaves the zoo map's preview
 * where it is (a redraw of the bar while the player browses the placements). */
export function showSuggestion(ui, action, bring = true, { placement = true } = {}) {
  clearSuggestion(ui, { placement });
  const list = (Array.isArray(action) ? action : [action]).filter((a) => a && typeof a === "object");
  if (!list.length) return 0;
  let n = 0;
  let placed = !placement;
  for (const a of list) {
    n += mark(ui, a, placed);
    placed = placed || a.type === "place";
  }
  if (bring) {
    // the most telling mark (the action card, the card, the placement), once the page settled
    const pick = () => document.querySelector("#player .slot.suggested, .tray-card.suggested, #player .card.suggested, #board .suggested")
      || document.querySelector("#zoo-map .ghost-outline") || document.querySelector(".suggested");
    requestAnimationFrame(() => requestAnimationFrame(() => reveal(pick())));
  }
  return n;
}

function mark(ui, action, placed) {
  let n = 0;
  const add = (selector) => {
    for (const el of document.querySelectorAll(selector)) {
      el.classList.add("suggested");
      n++;
    }
  };
  for (const id of cardIds(action)) add(`.card[data-id="${esc(id)}"], .tray-card[data-id="${esc(id)}"]`);
  for (const key of ["card", "task", "choice"]) {
    const v = action[key];
    if (typeof v === "string" && ACTION_CARDS.has(v)) add(`.slot[data-card="${esc(v)}"], .mini-slot[data-card="${esc(v)}"]`);
  }
  if (Number.isInteger(action.folder)) add(`.folder[data-folder="${esc(action.folder)}"]`);
  if (!placed && action.type === "place" && Array.isArray(action.cells) && ui && ui.zoo && ui.zoo.setPlacements) {
    // the zoo map's own preview (its ghost outline) of exactly this placement: among the
    // placements the table offers now (the player's decision), else on its own (a replay)
    const same = (cells) => cellsKey(cells) === cellsKey(action.cells);
    const idx = Array.isArray(ui.zoo.placements) ? ui.zoo.placements.findIndex(same) : -1;
    if (idx < 0) {
      ui.zoo.setPlacements([action.cells]);
      ui.zoo.suggesting = true;
    }
    ui.zoo.showPlacement(Math.max(idx, 0));
    n++;
  }
  return n;
}

/** Bring the mark into sight: on a phone the swipeable panel that holds it first (as its tab
 * would), then the mark itself, clear of the fixed bar at the bottom, by the least scroll that
 * takes (nothing when it is in sight already): centring it scrolled the zoo map out of view. */
function reveal(el) {
  if (!el) return;
  const panels = document.getElementById("panels");
  const panel = el.closest(".panel");
  if (panels && panel && panels.scrollWidth > panels.clientWidth + 4) {
    panels.scrollTo({ left: panel.offsetLeft - panels.offsetLeft });
  }
  const bar = document.getElementById("decision");
  const inBar = bar && bar.contains(el);
  const barTop = bar && !bar.hidden && !inBar ? bar.getBoundingClientRect().top : window.innerHeight;
  const margin = 12;
  const shift = (r, top, bottom) => {
    if (r.bottom > bottom) return Math.max(0, Math.min(r.bottom - bottom, r.top - top));
    if (r.top < top) return r.top - top;
    return 0;
  };
  for (let box = el.parentElement; box && box !== document.body; box = box.parentElement) {
    if (box === bar) break;
    const oy = getComputedStyle(box).overflowY;
    if ((oy !== "auto" && oy !== "scroll") || box.scrollHeight <= box.clientHeight) continue;
    const b = box.getBoundingClientRect();
    const dy = shift(el.getBoundingClientRect(), Math.max(b.top, 0) + margin, Math.min(b.bottom, barTop) - margin);
    if (dy) box.scrollTop += dy;
  }
  if (inBar) return;
  const dy = shift(el.getBoundingClientRect(), margin, barTop - margin);
  if (dy) window.scrollBy(0, dy);
}
