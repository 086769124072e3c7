// Mounting a game's table (the game page and the replay page): load the game's catalog (cards,
// maps, translations) into the page state, then build the table that draws that game.
// Each game with its own drawing has one client module (`static/js/<game>/index.js`) exporting
//   { Table, indexCatalog?, install?(st), since?(st, table) }:
// its table class, how its catalog becomes `st.byId` (a Map of cards by id), what the page adds for
// it (e.g. the card zoom) and its "since your turn" panel (game page only, not the replay). A game
// without a module gets the generic table.
import { api } from "./api.js";
import { arknova } from "./arknova/index.js";
import { zoocracy } from "./zoocracy/index.js";
import { GenericUI } from "./generic.js";

const GAMES = { arknova, zoocracy };
const GENERIC = { Table: GenericUI };

/** Fill `st.catalogInfo`, `st.catalog` and `st.byId` for `game`; return its table UI. */
export async function mountTable(st, game, hooks) {
  const mod = GAMES[game] || GENERIC;
  try {
    const [all, cat] = await Promise.all([api.catalog().catch(() => null), api.gameCatalog(game).catch(() => ({}))]);
    const list = Array.isArray(all) ? all : (all && (all.games || Object.values(all))) || [];
    st.catalogInfo = list.find((x) => x && x.name === game) || null;
    st.catalog = cat || {};
    st.byId = mod.indexCatalog ? mod.indexCatalog(st.catalog) : new Map();
  } catch {
    st.catalog = {};
  }
  if (mod.install) mod.install(st);
  const table = new mod.Table(st, hooks);
  // the other seats' moves since this seat's last decision (not on the replay page)
  if (mod.since && !document.body.classList.contains("replay-page")) table.since = mod.since(st, table);
  return table;
}
