// The Web Worker that runs one table "On this device" (docs/offline.md): the page sends
// {type: "open", tableId} and then the client frames of docs/protocol.md; the worker
// answers with the server's frames (local/host.js). The state with the hidden cards stays
// here: the page gets views only.

import { Host } from "./host.js";

let host = null;
let ready = null;

self.addEventListener("message", (event) => {
  const msg = event.data || {};
  if (msg.type === "open") {
    host = new Host((frame) => self.postMessage(frame), { botDelay: msg.botDelay ?? 500 });
    ready = host.open(msg.tableId).then((found) => {
      if (!found) self.postMessage({ type: "local_gone" });
      return found;
    }, (error) => {
      self.postMessage({ type: "error", code: "internal", message: String(error) });
      return false;
    });
    return;
  }
  if (!ready) return;
  ready.then(async (found) => {
    if (!found) return;
    try {
      await host.run(() => host.handle(msg));
    } catch (error) {
      self.postMessage({ type: "error", code: "internal", message: String(error) });
    }
  });
});
