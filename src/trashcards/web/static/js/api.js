// @ts-check
// The HTTP half of the protocol: small JSON helpers around fetch.

import { paths } from "./config.js";
import { localTableInfo } from "./local/tables.js";

export class ApiError extends Error {
  constructor(status, body) {
    super((body && (body.message || body.detail || body.error)) || `HTTP ${status}`);
    this.status = status;
    this.body = body;
  }
}

async function request(url, options = {}) {
  const response = await fetch(url, {
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    ...options,
  });
  let body = null;
  try { body = await response.json(); } catch { body = null; }
  if (!response.ok) throw new ApiError(response.status, body);
  return body;
}

/** A list from a response that is either the list itself or {key: list}. */
function listOf(body, key) {
  if (Array.isArray(body)) return body;
  if (body && Array.isArray(body[key])) return body[key];
  return [];
}

export const api = {
  createTable: (rules, seats, hints = null, reactions = true) =>
    request(paths.tables, { method: "POST",
      body: JSON.stringify({ rules, seats, hints, reactions }) }),
  openTables: async () => listOf(await request(paths.tables), "tables"),
  table: (id) => localTableInfo(id) ?? request(paths.table(id)),
  join: (id, name, seat) =>
    request(paths.join(id), {
      method: "POST",
      body: JSON.stringify(seat === undefined ? { name } : { name, seat }),
    }),
  createParty: (rules, seats, final, hints = null, reactions = true) =>
    request(paths.parties, {
      method: "POST", body: JSON.stringify({ rules, seats, final, hints, reactions }) }),
  party: (id) => request(paths.party(id)),
  presets: async () => listOf(await request(paths.presets), "presets"),
  bots: async () => listOf(await request(paths.bots), "bots"),
  levels: async () => listOf(await request(paths.levels), "levels"),
};
