// Zoocracy on the game and replay pages (static/js/mount.js): its table, which indexes the catalog
// itself (zoocracy/common.js indexZoocracy), so `st.byId` stays empty.
import { ZoocracyUI } from "./ui.js";

export const zoocracy = { Table: ZoocracyUI };
