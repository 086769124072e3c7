// Ark Nova on the game and replay pages (static/js/mount.js): its table, how its catalog is indexed
// into `st.byId`, what the page installs for it (the card zoom on hover or tap) and its "since
// your turn" panel.
import { indexCatalog } from "./catalog.js";
import { ArkNovaUI } from "./ui.js";
import { SinceTurn } from "./since.js";
import { installCardZoom } from "../cardzoom.js";

export const arknova = {
  Table: ArkNovaUI,
  indexCatalog,
  install: (st) => installCardZoom(st),
  since: (st, table) => new SinceTurn(st, table),
};
