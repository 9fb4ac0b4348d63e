// Drives static/js/connection.js with a fake WebSocket and a virtual clock, and prints
// what happened as JSON lines (read by tests/web/test_client_connection.py).
// Usage: node connection_harness.mjs DIR SCENARIO, where DIR holds connection.js and
// config.js (as an ES module package) and SCENARIO is "frozen" or "answering".

const [dir, scenario] = process.argv.slice(2);

let now = 0;
let nextId = 1;
const timers = new Map();
globalThis.setTimeout = (fn, ms) => { const id = nextId++; timers.set(id, { at: now + (ms || 0), fn }); return id; };
globalThis.setInterval = (fn, ms) => { const id = nextId++; timers.set(id, { at: now + ms, fn, every: ms }); return id; };
globalThis.clearTimeout = (id) => { timers.delete(id); };
globalThis.clearInterval = (id) => { timers.delete(id); };
function advance(ms) {
  const end = now + ms;
  for (;;) {
    let first = null;
    for (const [id, t] of timers) if (t.at <= end && (first === null || t.at < first[1].at)) first = [id, t];
    if (first === null) break;
    const [id, t] = first;
    now = t.at;
    if (t.every) t.at += t.every; else timers.delete(id);
    t.fn();
  }
  now = end;
}

const sockets = [];
const log = [];
class FakeSocket {
  static OPEN = 1;
  constructor(url) {
    this.url = url; this.readyState = 0; this.sent = []; this.closed = false;
    this.listeners = {};
    sockets.push(this);
    log.push({ t: now, socket: sockets.length, event: "new" });
  }
  addEventListener(kind, fn) { (this.listeners[kind] ||= []).push(fn); }
  fire(kind, event) { for (const fn of this.listeners[kind] || []) fn(event); }
  send(text) {
    const msg = JSON.parse(text);
    this.sent.push(msg);
    log.push({ t: now, socket: sockets.indexOf(this) + 1, sent: msg.type });
    if (scenario === "answering" && msg.type === "ping") {
      setTimeout(() => this.fire("message", { data: '{"type": "pong"}' }), 50);
    }
  }
  close() { this.closed = true; this.readyState = 2; log.push({ t: now, socket: sockets.indexOf(this) + 1, event: "close()" }); }
}
globalThis.WebSocket = FakeSocket;
globalThis.location = { protocol: "http:", host: "example.test" };

const { Connection } = await import(`${dir}/connection.js`);
const statuses = [];
const conn = new Connection("t1", {
  tokens: () => [], version: () => 0, history: () => false,
  onMessage: () => {}, onStatus: (s) => { statuses.push({ t: now, status: s }); },
});
conn.open();
const open = (socket) => { socket.readyState = 1; socket.fire("open", {}); };
open(sockets[0]);
// the server freezes now: nothing more comes from socket 1
for (let step = 0; step < 600; step++) {
  advance(100);
  const last = sockets[sockets.length - 1];
  if (last.readyState === 0) open(last);
}
console.log(JSON.stringify({ sockets: sockets.length, closed: sockets.map((s) => s.closed),
                             statuses, log }));
