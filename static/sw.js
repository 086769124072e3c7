// Menagerie's service worker (served at /sw.js by the server, which fills in the version and
// the file list: app/static.py).
//
// - The static client (HTML, CSS, JS, icons, translations) is kept in one cache per version
//   and served from it first, so the table opens at once; a deploy changes the version, the new
//   worker fills a new cache and deletes the old ones.
// - Everything else goes to the network untouched and is never stored: the API (/api/...),
//   the sockets, the rules pages, and any other URL. Nothing about a game is ever served stale.
// - Web Push: a "push" shows the notification the server sent; a click on it opens the game.
//   Once shown, the worker tells its open pages ({type: "push_shown", title, body, tag, url}),
//   so a page can know a push arrived (the browser tests wait for it).

const VERSION = "__VERSION__";
const PRECACHE = "__PRECACHE__";
const PREFIX = "menagerie-static-";
const CACHE = PREFIX + VERSION;
const SCOPE = new URL(self.registration.scope);
const KEPT = new Set(PRECACHE.map((f) => new URL(f, SCOPE).pathname));

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    // "reload": the files themselves, not an older copy from the browser's HTTP cache
    await cache.addAll(PRECACHE.map((f) => new Request(new URL(f, SCOPE), { cache: "reload" })));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    const names = await caches.keys();
    await Promise.all(names.filter((n) => n.startsWith(PREFIX) && n !== CACHE).map((n) => caches.delete(n)));
    await self.clients.claim();
  })());
});

/** Whether a request is for a file of the static client (anything else: network only). */
function isClientFile(request) {
  if (request.method !== "GET") return false;
  const url = new URL(request.url);
  if (url.origin !== SCOPE.origin) return false;
  const rest = url.pathname.slice(SCOPE.pathname.length);
  if (rest.startsWith("api/") || rest === "api" || rest.startsWith("ws") || rest.startsWith("rules/")) return false;
  return KEPT.has(url.pathname);
}

self.addEventListener("fetch", (event) => {
  if (!isClientFile(event.request)) return; // the browser fetches it as if there were no worker
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    // game.html?id=7 is the same file as game.html: the query is for the page's script
    const hit = await cache.match(event.request, { ignoreSearch: true, ignoreVary: true });
    return hit || fetch(event.request);
  })());
});

self.addEventListener("push", (event) => {
  let data;
  try { data = event.data ? event.data.json() : {}; } catch { data = {}; }
  const title = typeof data.title === "string" && data.title ? data.title : "Menagerie";
  const options = {
    body: typeof data.body === "string" ? data.body : "",
    tag: typeof data.tag === "string" ? data.tag : undefined,
    icon: new URL("icons/icon-192.png", SCOPE).href,
    data: { url: typeof data.url === "string" ? data.url : "./" },
  };
  event.waitUntil((async () => {
    await self.registration.showNotification(title, options);
    const shown = { type: "push_shown", title, body: options.body, tag: options.tag, url: options.data.url };
    for (const client of await self.clients.matchAll({ type: "window" })) client.postMessage(shown);
  })());
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const wanted = new URL((event.notification.data && event.notification.data.url) || "./", SCOPE);
  if (wanted.origin !== SCOPE.origin) return; // only pages of this site
  event.waitUntil((async () => {
    const open = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    for (const client of open) {
      if (client.url === wanted.href && "focus" in client) return client.focus();
    }
    return self.clients.openWindow(wanted.href);
  })());
});
