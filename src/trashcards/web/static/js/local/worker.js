// @ts-check
// The Web Worker that runs one table "On this device" (docs/offline.md): the page sends
// {type: "open", tableId} and then the client frames of docs/protocol.md; the worker
// answers with the server's frames (local/host.js). The state with the hidden cards stays
// here: the page gets views only.
//
// One worker at a time runs a table: it holds a Web Lock named after the table for its
// life. Another tab of the same table waits 3 s for it, then gets the error
// `open_elsewhere` and plays nothing.

import { Host, seedForTests } from "./host.js";

const LOCK_WAIT_MS = 3000;
let host = null;
let ready = null;

function start(msg) {
  seedForTests(msg.testSeed);
  host = new Host((frame) => self.postMessage(frame), { botDelay: msg.botDelay ?? 500 });
  const opening = () => host.open(msg.tableId).then((found) => {
    if (!found) self.postMessage({ type: "local_gone" });
    return found ? "open" : "gone";
  }, (error) => {
    self.postMessage({ type: "error", code: "internal", message: String(error) });
    return "broken";
  });
  if (!self.navigator.locks) return opening();
  // A reloaded page's old worker may still hold the lock for a moment: wait a little.
  const signal = AbortSignal.timeout ? AbortSignal.timeout(LOCK_WAIT_MS) : undefined;
  return new Promise((resolve) => {
    self.navigator.locks.request(`trash-local-${msg.tableId}`, { signal }, () => {
      opening().then(resolve);
      return new Promise(() => {});  // held until this worker ends
    }).catch(() => resolve("elsewhere"));
  });
}

self.addEventListener("message", (event) => {
  const msg = event.data || {};
  if (msg.type === "open") {
    ready = start(msg);
    return;
  }
  if (!ready) return;
  ready.then(async (status) => {
    if (status === "elsewhere") {
      if (msg.type === "join") {
        self.postMessage({ type: "error", code: "open_elsewhere",
          message: "this table is open in another tab or window of this browser" });
      }
      return;
    }
    if (status !== "open") return;
    try {
      await host.run(() => host.handle(msg));
    } catch (error) {
      self.postMessage({ type: "error", code: "internal", message: String(error) });
    }
  });
});
