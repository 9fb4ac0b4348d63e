// The service worker of the offline app (docs/offline.md). The server fills in VERSION
// (a hash of every shell file), SHELL (their addresses), PAGES (page address → file) and
// ROOT_MARK: trashcards.web.offline.service_worker.
//
// The app may live under any path (https://user.github.io/REPO/): every address here is
// relative to ROOT, the folder of this script (its scope). A static build's copies of the
// pages carry ROOT_MARK where their addresses start: a page is answered with ROOT there.
//
// One cache per version. A new version installs beside the old one and waits; the page
// offers "reload to update" and asks it to take over (message "skip-waiting"), then
// reloads. Until then every page and file is answered from the old version's cache, so
// no page mixes two versions. The API and the websocket always go to the network.

const VERSION = "__VERSION__";
const SHELL = "__SHELL__";
const PAGES = "__PAGES__";
const ROOT_MARK = "__ROOT_MARK__";
const ROOT = new URL("./", self.location.href).pathname;
// The caches are the origin's, shared by every app on it (GitHub Pages serves all of a
// user's project sites from one origin): this app's are named after its ROOT.
const PREFIX = `trash-shell-${ROOT}`;
const CACHE = PREFIX + VERSION;

/** Whether cache `key` is one of this app's (any version), or of the versions before
 *  the caches were named after the root ("trash-shell-VERSION"). */
function ours(key) {
  if (key.startsWith(PREFIX)) return !key.slice(PREFIX.length).includes("/");
  return /^trash-shell-[0-9a-f]+$/.test(key);
}

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await cache.addAll(SHELL.map((path) => new Request(ROOT + path, { cache: "reload" })));
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) {
      if (ours(key) && key !== CACHE) await caches.delete(key);
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

/** The cached file that answers a page address (below ROOT), or null. */
function pageFile(path) {
  if (Object.prototype.hasOwnProperty.call(PAGES, path)) return PAGES[path];
  for (const [prefix, file] of Object.entries(PAGES)) {
    if (prefix.length > 1 && prefix.endsWith("/") && path.startsWith(prefix)) return file;
  }
  return null;
}

/** A cached page with its addresses starting at ROOT. */
async function rooted(response) {
  const text = await response.text();
  return new Response(text.split(ROOT_MARK).join(ROOT),
    { status: response.status, statusText: response.statusText, headers: response.headers });
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || !url.pathname.startsWith(ROOT)) return;
  const path = url.pathname.slice(ROOT.length);
  const page = request.mode === "navigate";
  let key = null;
  if (page) key = pageFile(path);
  else if (path.startsWith("static/") || SHELL.includes(path)) key = path;
  if (key === null) return;  // the API, the websocket: the network only
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    const hit = await cache.match(ROOT + key);
    if (hit) return page ? rooted(hit) : hit;
    return fetch(request);
  })());
});
