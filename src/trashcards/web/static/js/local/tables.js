// @ts-check
// The page's side of the tables "On this device" (docs/offline.md): making one (the
// lobby), reading its public info (the lobby's "Your tables", the table page) and its
// record (the Review page).

import { getTable } from "./db.js";
import { LOCAL_PREFIX, createLocalTable, recordText } from "./host.js";

export { createLocalTable, LOCAL_PREFIX };
export { LOCAL_LEVELS } from "./host.js";

/** The table info of a local table (a promise), as GET /api/tables/{id} answers; an
 *  error with status 404 when this browser does not hold it; null for a server table. */
export function localTableInfo(id) {
  if (!String(id).startsWith(LOCAL_PREFIX)) return null;
  return getTable(id).then((table) => {
    if (!table) {
      throw Object.assign(new Error("there is no such table on this device"),
        { status: 404, body: { error: "no_table" } });
    }
    return table.info;
  });
}

export function isLocalTableId(id) { return String(id).startsWith(LOCAL_PREFIX); }

/** A local table's record (trash/1 text), as GET /api/tables/{id}/record answers: whole
 *  once the match is over, else up to the current round's deck; null when this browser
 *  does not hold it. */
export async function localRecordText(id) {
  const table = await getTable(id);
  return table ? recordText(table, table.status === "over") : null;
}
