// Every server address the client uses, in one place (see docs/protocol.md).

/** The game server: this page's own origin, or the address a static copy of the app was
 *  given (`trashcards build-static --server URL` puts it in a meta tag of every page). */
const server = (globalThis.document?.querySelector('meta[name="trash-server"]')?.content || "")
  .replace(/\/+$/, "");

export const paths = {
  catalog: (lang) => `/static/i18n/${lang}.json`,
  rulesFragment: (lang) => `/static/rules/${lang}.html`,
  tables: `${server}/api/tables`,
  table: (id) => `${server}/api/tables/${encodeURIComponent(id)}`,
  join: (id) => `${server}/api/tables/${encodeURIComponent(id)}/join`,
  record: (id) => `${server}/api/tables/${encodeURIComponent(id)}/record`,
  presets: `${server}/api/presets`,
  bots: `${server}/api/bots`,
  levels: `${server}/api/levels`,
  health: `${server}/healthz`,
  review: `${server}/api/review`,
  reviewPage: (id) => `/review?table=${encodeURIComponent(id)}`,
  tablePage: (id) => `/t/${encodeURIComponent(id)}`,
  partyPage: (id) => `/p/${encodeURIComponent(id)}`,
  partyWatchPage: (id) => `/p/${encodeURIComponent(id)}?watch=1`,
  parties: `${server}/api/parties`,
  party: (id) => `${server}/api/parties/${encodeURIComponent(id)}`,
  /** The file name the server gives a record download (its Content-Disposition). */
  recordFile: (id) => `trash-${id}.trash.json`,
  watchPage: (id) => `/t/${encodeURIComponent(id)}?watch=1`,
  rulesPage: (lang) => `/rules/${lang}`,
  socket: (id) => {
    const where = server ? new URL(server) : location;
    const scheme = where.protocol === "https:" ? "wss:" : "ws:";
    return `${scheme}//${where.host}/ws/${encodeURIComponent(id)}`;
  },
};
