// Every server address the client uses, in one place (see docs/protocol.md).

export const paths = {
  catalog: (lang) => `/static/i18n/${lang}.json`,
  rulesFragment: (lang) => `/static/rules/${lang}.html`,
  tables: "/api/tables",
  table: (id) => `/api/tables/${encodeURIComponent(id)}`,
  join: (id) => `/api/tables/${encodeURIComponent(id)}/join`,
  record: (id) => `/api/tables/${encodeURIComponent(id)}/record`,
  presets: "/api/presets",
  bots: "/api/bots",
  levels: "/api/levels",
  health: "/healthz",
  review: "/api/review",
  reviewPage: (id) => `/review?table=${encodeURIComponent(id)}`,
  tablePage: (id) => `/t/${encodeURIComponent(id)}`,
  partyPage: (id) => `/p/${encodeURIComponent(id)}`,
  partyWatchPage: (id) => `/p/${encodeURIComponent(id)}?watch=1`,
  parties: "/api/parties",
  party: (id) => `/api/parties/${encodeURIComponent(id)}`,
  /** The file name the server gives a record download (its Content-Disposition). */
  recordFile: (id) => `trash-${id}.trash.json`,
  watchPage: (id) => `/t/${encodeURIComponent(id)}?watch=1`,
  rulesPage: (lang) => `/rules/${lang}`,
  socket: (id) => {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    return `${scheme}//${location.host}/ws/${encodeURIComponent(id)}`;
  },
};
