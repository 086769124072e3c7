// Mounting a game's table (the game page and the replay page): load the game's catalog (cards,
// maps, translations) into the page state, then build the table that draws that game.
import { api } from "./api.js";
import { indexCatalog } from "./arknova/cards.js";
import { ArkNovaUI } from "./arknova/ui.js";
import { ZoocracyUI } from "./zoocracy/ui.js";
import { GenericUI } from "./generic.js";
import { installCardZoom } from "./cardzoom.js";
import { SinceTurn } from "./arknova/since.js";

const TABLES = { arknova: ArkNovaUI, zoocracy: ZoocracyUI };

/** Fill `st.catalogInfo`, `st.catalog` and `st.byId` for `game`; return its table UI. */
export async function mountTable(st, game, hooks) {
  try {
    const [all, cat] = await Promise.all([api.catalog().catch(() => null), api.gameCatalog(game).catch(() => ({}))]);
    const list = Array.isArray(all) ? all : (all && (all.games || Object.values(all))) || [];
    st.catalogInfo = list.find((x) => x && x.name === game) || null;
    st.catalog = cat || {};
    st.byId = indexCatalog(st.catalog);
  } catch {
    st.catalog = {};
  }
  if (game === "arknova") installCardZoom(st);
  const Table = TABLES[game] || GenericUI;
  const table = new Table(st, hooks);
  // the other seats' moves since this seat's last decision (not on the replay page)
  if (game === "arknova" && !document.body.classList.contains("replay-page")) table.since = new SinceTurn(st, table);
  return table;
}
