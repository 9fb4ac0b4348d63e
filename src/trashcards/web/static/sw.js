// The service worker of the offline app (docs/offline.md). The server fills in VERSION
// (a hash of every shell file), SHELL (their addresses) and PAGES (page address → file):
// trashcards.web.offline.service_worker.
//
// One cache per version. A new version installs beside the old one and waits; the page
// offers "reload to update" and asks it to take over (message "skip-waiting"), then
// reloads. Until then every page and file is answered from the old version's cache, so
// no page mixes two versions. The API and the websocket always go to the network.

const VERSION = "__VERSION__";
const SHELL = "__SHELL__";
const PAGES = "__PAGES__";
const PREFIX = "trash-shell-";
const CACHE = PREFIX + VERSION;

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await cache.addAll(SHELL.map((url) => new Request(url, { cache: "reload" })));
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) {
      if (key.startsWith(PREFIX) && key !== CACHE) await caches.delete(key);
    }
    await self.clients.claim();
  })());
});

self.addEventListener("message", (event) => {
  if (event.data && event.data.type === "skip-waiting") self.skipWaiting();
  if (event.data && event.data.type === "version" && event.ports[0]) {
    event.ports[0].postMessage({ version: VERSION });
  }
});

/** The cached file that answers a page address, or null. */
function pageFile(pathname) {
  if (Object.prototype.hasOwnProperty.call(PAGES, pathname)) return PAGES[pathname];
  for (const [prefix, file] of Object.entries(PAGES)) {
    if (prefix.length > 1 && prefix.endsWith("/") && pathname.startsWith(prefix)) return file;
  }
  return null;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  let key = null;
  if (request.mode === "navigate") key = pageFile(url.pathname);
  else if (url.pathname.startsWith("/static/") || SHELL.includes(url.pathname)) {
    key = url.pathname;
  }
  if (key === null) return;  // the API, the websocket: the network only
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    const hit = await cache.match(key);
    if (hit) return hit;
    return fetch(request);
  })());
});
