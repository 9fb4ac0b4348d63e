// @ts-check
// The local transport: the Connection of a table "On this device" (docs/offline.md). It
// has the websocket Connection's interface and hooks (connection.js hands a local table's
// id to it), and talks to a Web Worker (local/worker.js) that plays the table and answers
// with the same frames as the server, so table.js does not know the difference.
//
// It keeps the page's "Download record" link pointing at the table's record (trash/1;
// while the match goes on it stops before the current round's deck, as the server's).
// Every frame handed to the page is also dispatched on window as a "trash-local-frame"
// event (the tests check that only views reach the page).

import { LOCAL_PREFIX } from "./host.js";

export function isLocalTable(id) { return String(id).startsWith(LOCAL_PREFIX); }

/** The bots' pause before acting, in ms (a page can set window.trashBotDelay first). */
function botDelay() {
  const wanted = Number(globalThis.trashBotDelay);
  return Number.isFinite(wanted) && wanted >= 0 ? wanted : 600;
}

export class LocalConnection {
  constructor(tableId, hooks) {
    this.tableId = tableId;
    this.hooks = hooks;
    this.worker = null;
    this.recordUrl = null;
  }

  open() {
    this.hooks.onStatus("connecting");
    if (!this.worker) {
      this.worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
      this.worker.addEventListener("message", (event) => this.receive(event.data));
      this.worker.postMessage({ type: "open", tableId: this.tableId, botDelay: botDelay(),
                                testSeed: globalThis.trashTestSeed });
    }
    this.worker.postMessage({
      type: "join", tokens: this.hooks.tokens(), version: this.hooks.version(),
      history: this.hooks.history ? this.hooks.history() : false,
    });
    this.hooks.onStatus("online");
  }

  receive(frame) {
    if (frame.type === "local_gone") {
      this.hooks.onStatus("gone");
      return;
    }
    if (frame.type === "local_record") {
      this.showRecord(frame.text);
      return;
    }
    globalThis.dispatchEvent?.(new CustomEvent("trash-local-frame", { detail: frame }));
    this.hooks.onMessage(frame);
  }

  showRecord(text) {
    const link = document.getElementById("download");
    if (!(link instanceof HTMLAnchorElement)) return;
    if (this.recordUrl) URL.revokeObjectURL(this.recordUrl);
    this.recordUrl = URL.createObjectURL(new Blob([text], { type: "application/json" }));
    link.href = this.recordUrl;
    link.setAttribute("download", `trash-${this.tableId}.trash.json`);
  }

  send(msg) {
    if (!this.worker) return false;
    this.worker.postMessage(msg);
    return true;
  }

  rejoin() { this.open(); }

  close() {
    if (this.worker) this.worker.terminate();
    this.worker = null;
  }
}
