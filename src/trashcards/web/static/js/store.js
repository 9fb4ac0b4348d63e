// @ts-check
// What the browser remembers: seat tokens per table, the last version seen, the player's
// name. Everything lives in localStorage so a reload (or a new tab) finds it again.

const PREFIX = "trash.table.";
const NAME_KEY = "trash.name";
const PARTIES_KEY = "trash.parties";

function read(key, fallback) {
  try {
    const raw = localStorage.getItem(key);
    return raw ? JSON.parse(raw) : fallback;
  } catch {
    return fallback;
  }
}

function write(key, value) {
  try { localStorage.setItem(key, JSON.stringify(value)); } catch { /* private mode */ }
}

/** The saved entry of a table: {seats: [{seat, token}], version, shown}. */
export function loadTable(id) {
  const entry = read(PREFIX + id, null);
  return { seats: [], version: null, shown: null, ...(entry || {}) };
}

export function saveTable(id, entry) { write(PREFIX + id, entry); }

/** Add seat tokens (from creating or joining a table) to what this browser holds. */
export function addSeats(id, seats) {
  const entry = loadTable(id);
  for (const { seat, token } of seats) {
    entry.seats = entry.seats.filter((s) => s.seat !== seat);
    entry.seats.push({ seat, token });
  }
  entry.seats.sort((a, b) => a.seat - b.seat);
  saveTable(id, entry);
  return entry;
}

/** The parties this browser created or joined, newest first: [{id, created}]. */
export function myParties() {
  return read(PARTIES_KEY, []);
}

/** Remember a party (made here, or opened from its link). */
export function rememberParty(id) {
  const parties = myParties().filter((p) => p.id !== id);
  parties.unshift({ id, created: Date.now() });
  write(PARTIES_KEY, parties.slice(0, 20));
}

/** A party's final table has the two winners' seats with the same tokens (as a rematch
 *  copies them): remember the ones this browser held under the final's id, so the
 *  final's page knows this browser. `info` is the party as /api/parties/{id} shows it;
 *  returns the final's seats this browser holds. */
export function adoptFinalSeats(info) {
  if (!info || !info.final) return [];
  const seats = [];
  info.tables.forEach((table, number) => {
    const winner = info.winners[number];
    if (!table || winner === null || winner === undefined) return;
    const held = loadTable(table.table_id).seats.find((s) => s.seat === winner);
    if (held) seats.push({ seat: number, token: held.token });
  });
  const finalId = info.final.table_id;
  const known = loadTable(finalId).seats;
  const fresh = seats.filter((s) => !known.some((k) => k.seat === s.seat && k.token === s.token));
  if (fresh.length) {
    addSeats(finalId, fresh);
    updateTable(finalId, { created: Date.now() });
  }
  return loadTable(finalId).seats;
}

/** Forget a table (it does not exist any more). */
export function forgetTable(id) {
  try { localStorage.removeItem(PREFIX + id); } catch { /* private mode */ }
}

export function updateTable(id, changes) {
  const entry = { ...loadTable(id), ...changes };
  saveTable(id, entry);
  return entry;
}

/** Tables this browser holds seats at (newest first), for the lobby's "your tables". */
export function myTables() {
  const out = [];
  try {
    for (let i = 0; i < localStorage.length; i += 1) {
      const key = localStorage.key(i);
      if (key && key.startsWith(PREFIX)) {
        const entry = read(key, null);
        if (entry && entry.seats && entry.seats.length) {
          out.push({ id: key.slice(PREFIX.length), ...entry });
        }
      }
    }
  } catch { /* private mode */ }
  return out.sort((a, b) => (b.created || 0) - (a.created || 0));
}

export function savedName() { return read(NAME_KEY, ""); }
export function saveName(name) { write(NAME_KEY, name); }
