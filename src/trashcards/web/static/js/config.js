// @ts-check
// Every server address the client uses, in one place (see docs/protocol.md).
//
// The app may be served under any path (https://user.github.io/REPO/, docs/offline.md):
// every page has the app's root as it reaches it in a trash-root tag ("/" from
// `trashcards serve`, "../" in a static build's t/index.html), and every address here
// starts from it.

const page = globalThis.document;
/** The app's root path: "/" at a host's root, "/REPO/" under a path. */
export const root = page
  ? new URL(page.querySelector('meta[name="trash-root"]')?.getAttribute("content") || "/",
    location.href).pathname
  : "/";

/** The parts of this page's address below the app's root: ["t", "ID"], ["rules", "es"]. */
export function routeParts() {
  const path = location.pathname;
  return (path.startsWith(root) ? path.slice(root.length) : path).split("/").filter(Boolean);
}

/** The game server: this page's own origin, or the address a static copy of the app was
 *  given (`trashcards build-static --server URL` puts it in a meta tag of every page). */
const server = (page?.querySelector('meta[name="trash-server"]')?.getAttribute("content") || "")
  .replace(/\/+$/, "");
/** Where the API is: the given server, or the app's root on this origin. */
const api = server || root.replace(/\/$/, "");

export const paths = {
  catalog: (lang) => `${root}static/i18n/${lang}.json`,
  rulesFragment: (lang) => `${root}static/rules/${lang}.html`,
  tables: `${api}/api/tables`,
  table: (id) => `${api}/api/tables/${encodeURIComponent(id)}`,
  join: (id) => `${api}/api/tables/${encodeURIComponent(id)}/join`,
  record: (id) => `${api}/api/tables/${encodeURIComponent(id)}/record`,
  presets: `${api}/api/presets`,
  bots: `${api}/api/bots`,
  levels: `${api}/api/levels`,
  health: `${api}/healthz`,
  review: `${api}/api/review`,
  reviewPage: (id) => `${root}review?table=${encodeURIComponent(id)}`,
  tablePage: (id) => `${root}t/${encodeURIComponent(id)}`,
  partyPage: (id) => `${root}p/${encodeURIComponent(id)}`,
  partyWatchPage: (id) => `${root}p/${encodeURIComponent(id)}?watch=1`,
  parties: `${api}/api/parties`,
  party: (id) => `${api}/api/parties/${encodeURIComponent(id)}`,
  /** The file name the server gives a record download (its Content-Disposition). */
  recordFile: (id) => `trash-${id}.trash.json`,
  watchPage: (id) => `${root}t/${encodeURIComponent(id)}?watch=1`,
  rulesPage: (lang) => `${root}rules/${lang}`,
  socket: (id) => {
    const where = server ? new URL(server) : location;
    const scheme = where.protocol === "https:" ? "wss:" : "ws:";
    return `${scheme}//${where.host}${server ? "/" : root}ws/${encodeURIComponent(id)}`;
  },
};
