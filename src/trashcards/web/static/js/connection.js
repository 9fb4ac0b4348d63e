// The websocket half of the protocol: one socket per page, joined with every seat token
// this browser holds and the last version it saw; reconnects on its own with backoff.

import { paths } from "./config.js";

const PING_MS = 20000;
const MAX_BACKOFF_MS = 8000;
/** Close code of the server for a table that does not exist (docs/protocol.md). */
const NO_TABLE = 4404;

export class Connection {
  /**
   * @param {string} tableId
   * @param {{tokens: () => string[], version: () => (number|null),
   *          onMessage: (msg: object) => void, onStatus: (status: string) => void}} hooks
   */
  constructor(tableId, hooks) {
    this.tableId = tableId;
    this.hooks = hooks;
    this.socket = null;
    this.backoff = 500;
    this.closed = false;
    this.pingTimer = null;
  }

  open() {
    this.closed = false;
    this.hooks.onStatus("connecting");
    const socket = new WebSocket(paths.socket(this.tableId));
    this.socket = socket;
    socket.addEventListener("open", () => {
      this.backoff = 500;
      socket.send(JSON.stringify({
        type: "join", tokens: this.hooks.tokens(), version: this.hooks.version(),
      }));
      this.hooks.onStatus("online");
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.send({ type: "ping" }), PING_MS);
    });
    socket.addEventListener("message", (event) => {
      let msg;
      try { msg = JSON.parse(event.data); } catch { return; }
      this.hooks.onMessage(msg);
    });
    socket.addEventListener("close", (event) => {
      clearInterval(this.pingTimer);
      if (this.socket !== socket) return;
      this.socket = null;
      if (this.closed) return;
      if (event.code === NO_TABLE) {
        this.closed = true;
        this.hooks.onStatus("gone");
        return;
      }
      this.hooks.onStatus("offline");
      setTimeout(() => { if (!this.closed) this.open(); }, this.backoff);
      this.backoff = Math.min(this.backoff * 2, MAX_BACKOFF_MS);
    });
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
    if (this.socket) this.socket.close();
  }
}
