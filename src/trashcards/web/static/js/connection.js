// @ts-check
// The websocket half of the protocol: one socket per page, joined with every seat token
// this browser holds and the last version it saw; reconnects on its own with backoff.
// The server's close codes (docs/protocol.md) decide what happens next: a table that does
// not exist is not tried again, too many connections from this address waits longer, a
// page that was too slow or did not join in time reconnects at once. A socket whose
// server answers no ping within PONG_MS (its process froze, or the path to it died
// without a close) is given up and another is opened, which may land on another process.

import { paths } from "./config.js";
import { isLocalTable, LocalConnection } from "./local/transport.js";

const PING_MS = 10000;
/** How long a ping may go unanswered (by its pong or any other frame). */
const PONG_MS = 5000;
const MAX_BACKOFF_MS = 8000;
/** Close codes of the server (docs/protocol.md). */
const NO_TABLE = 4404;
const NO_JOIN = 4400;
const TOO_SLOW = 4408;
const TOO_MANY = 4429;
const CROWDED_MS = 15000;
/** Not the server's: this page closed a socket whose pings went unanswered. */
const NO_PONG = 4000;

export class Connection {
  /**
   * @param {string} tableId
   * @param {{tokens: () => string[], version: () => (number|null), history: () => boolean,
   *          onMessage: (msg: object) => void, onStatus: (status: string) => void}} hooks
   *   status: "connecting", "online", "offline", "crowded" (too many connections from
   *   this address: trying again later), "slow" or "no_join" (closed for reading too
   *   slowly or not joining in time: "offline" follows) or "gone" (no such table, or
   *   one set aside: not tried again)
   */
  constructor(tableId, hooks) {
    // A table "On this device" plays in a worker, over the same frames (docs/offline.md).
    if (isLocalTable(tableId)) {
      // eslint-disable-next-line no-constructor-return
      return /** @type {Connection} */ (/** @type {unknown} */ (new LocalConnection(tableId, hooks)));
    }
    this.tableId = tableId;
    this.hooks = hooks;
    this.socket = null;
    this.backoff = 500;
    this.closed = false;
    this.pingTimer = null;
    this.pongTimer = null;
    this.retryTimer = null;
  }

  /** Ping, and give the socket up if nothing comes back in time. */
  ping(socket) {
    if (this.socket !== socket || !this.send({ type: "ping" })) return;
    if (this.pongTimer !== null) return;  // the last ping's deadline still runs
    this.pongTimer = setTimeout(() => {
      this.pongTimer = null;
      if (this.socket !== socket) return;
      // No close handshake with a server that does not answer: drop it and go on.
      this.socket = null;
      clearInterval(this.pingTimer);
      try { socket.close(); } catch { /* already closing */ }
      if (!this.closed) this.onClose(NO_PONG);
    }, PONG_MS);
  }

  open() {
    this.closed = false;
    clearTimeout(this.retryTimer);
    clearTimeout(this.pongTimer);
    this.pongTimer = null;
    this.hooks.onStatus("connecting");
    const socket = new WebSocket(paths.socket(this.tableId));
    this.socket = socket;
    socket.addEventListener("open", () => {
      this.backoff = 500;
      socket.send(JSON.stringify({
        type: "join", tokens: this.hooks.tokens(), version: this.hooks.version(),
        history: this.hooks.history ? this.hooks.history() : false,
      }));
      this.hooks.onStatus("online");
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.ping(socket), PING_MS);
    });
    socket.addEventListener("message", (event) => {
      // A socket replaced by a rejoin may still deliver frames: they were for the old
      // join (a spectator's win chances, say), not for this one.
      if (this.socket !== socket) return;
      clearTimeout(this.pongTimer);  // the server is alive
      this.pongTimer = null;
      let msg;
      try { msg = JSON.parse(event.data); } catch { return; }
      this.hooks.onMessage(msg);
    });
    socket.addEventListener("close", (event) => {
      if (this.socket !== socket) return;
      clearInterval(this.pingTimer);
      clearTimeout(this.pongTimer);
      this.pongTimer = null;
      this.socket = null;
      if (this.closed) return;
      this.onClose(event.code);
    });
  }

  onClose(code) {
    if (code === NO_TABLE) {
      this.closed = true;
      this.hooks.onStatus("gone");
      return;
    }
    let wait = this.backoff;
    if (code === TOO_MANY) {
      this.hooks.onStatus("crowded");
      wait = CROWDED_MS;
    } else {
      // A page too slow to read, or one that did not join in time, comes back at once.
      if (code === TOO_SLOW) this.hooks.onStatus("slow");
      else if (code === NO_JOIN) this.hooks.onStatus("no_join");
      this.hooks.onStatus("offline");
      if (code === NO_JOIN || code === TOO_SLOW) wait = 0;
      this.backoff = Math.min(this.backoff * 2, MAX_BACKOFF_MS);
    }
    this.retryTimer = setTimeout(() => { if (!this.closed) this.open(); }, wait);
  }

  /** Send if connected; returns false when offline (the state that comes back on
   *  reconnect shows what still needs doing, so nothing is queued). */
  send(msg) {
    if (this.socket && this.socket.readyState === WebSocket.OPEN) {
      this.socket.send(JSON.stringify(msg));
      return true;
    }
    return false;
  }

  /** Reconnect now (e.g. to join with a newly acquired token). */
  rejoin() {
    const old = this.socket;
    this.socket = null;
    if (old) old.close();
    this.open();
  }

  close() {
    this.closed = true;
    clearInterval(this.pingTimer);
    clearTimeout(this.pongTimer);
    this.pongTimer = null;
    clearTimeout(this.retryTimer);
    if (this.socket) this.socket.close();
  }
}

/** Follow a table as a spectator, to learn when it changes (the party page, and a
 *  party table's end screen waiting for the final): `onChange()` after any frame that
 *  may change it, when the socket is back after a cut (what happened meanwhile), and when
 *  the table is gone. Returns the open connection (close it to stop). */
export function watchTable(tableId, onChange) {
  let first = true;
  const connection = new Connection(tableId, {
    tokens: () => [],
    version: () => null,
    history: () => false,
    onMessage: (msg) => {
      if (["table", "events", "state"].includes(msg.type)) onChange();
    },
    onStatus: (status) => {
      if (status === "online" && !first) onChange();
      if (status === "online") first = false;
      if (status === "gone") onChange();
    },
  });
  connection.open();
  return connection;
}
