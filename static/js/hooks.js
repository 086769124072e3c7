// The pages' automation surface: `window.menagerie`, the one object the browser tests
// (tests/e2e) and outside tools (the console, a screenshot or load script) may rely on. Only this
// module writes it (tests/test_client_structure.py checks that); a page entry calls expose() once,
// with what it offers:
//   game page (game.js)     state, ui, live, send, endTurn, resync, refreshLegal, chat, feed, unfilled
//   replay page (replay.js) state, ui, replay, goTo, analysis, unfilled
//   lobby (lobby.js)        feed, refresh, unfilled
//   profile (profile.js), daily (dailypage.js), rules (rules.js): unfilled
// What may be relied on: `state` is the page state (st: version, view, legal, legalVersion, seat,
// pending, waitingFor, byId…), to be read, not written; `ui` the mounted table (null until it is
// mounted; its `bar` is the decision bar); `live` the game socket (`live.drop(ms)` closes it and
// reconnects after ms; `live.onMessage(msg)` takes a message as if it came from the socket); `feed`
// the per-user "your turn" socket; `replay` the replay's position and `goTo(v)` moves it;
// `analysis` the replay's analysis box (null unless the game is finished); the functions
// (send, endTurn, resync, refreshLegal, refresh) do what the page's own buttons and socket do;
// `unfilled()` lists the messages whose {placeholders} a call of the page left unfilled (i18n.js).
// The object is frozen: its names cannot be reassigned, added or removed; a value the page sets
// later (the table) is a getter.

/** Publish the page's hooks as `window.menagerie` (once per page). `hooks` is an object literal;
 * a name whose value comes later is a getter (`get ui() { return ui; }`). */
export function expose(hooks) {
  if (Object.prototype.hasOwnProperty.call(window, "menagerie")) throw new Error("window.menagerie is exposed once per page");
  const surface = Object.freeze(Object.defineProperties({}, Object.getOwnPropertyDescriptors(hooks)));
  Object.defineProperty(window, "menagerie", { value: surface, enumerable: true, writable: false, configurable: false });
}
