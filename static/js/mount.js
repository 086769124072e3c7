// Mounting a game's table (the game page and the replay page): load the game's catalog (cards,
// maps, translations) into the page state, then build the table that draws that game.
import { api } from "./api.js";
import { indexCatalog } from "./arknova/cards.js";
import { ArkNovaUI } from "./arknova/ui.js";
import { ZoocracyUI } from "./zoocracy/ui.js";
import { GenericUI } from "./generic.js";
import { installCardZoom } from "./cardzoom.js";

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
  return new Table(st, hooks);
}
