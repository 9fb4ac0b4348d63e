// The table page's state and controller (js/table/state.js, controller.js) under Node,
// with the view and the socket faked: what a message does to the page, what a decision
// sends. Run by tests/web/test_js_modules.py (`node --test`).

import { test } from "node:test";
import assert from "node:assert/strict";
import {
  actingSeat, createTableState, noteTurnEnd, passPending, promptText, takeChances,
} from "../../../src/trashcards/web/static/js/table/state.js";
import { HINT_ERRORS, MAX_ANIMATED, TableController } from "../../../src/trashcards/web/static/js/table/controller.js";
import { ERROR_CODES } from "../../../src/trashcards/web/static/js/spec.js";

function view(seatToAct = 0, phase = "swap", legal = ["wild 3", "trash"]) {
  return {
    phase, round: 1, dealer: 1, to_act: seatToAct, in_hand: "3h", stock_count: 30,
    discard: ["5s"], round_winners: [], match_winner: null, legal, seat: 0, called: false,
    unclaimed: [], final_from: null, stock_known: null,
    players: [0, 1].map((seat) => ({ name: seat ? "Bo" : "Ana", rounds_won: 0, board_size: 10,
      slots: Array.from({ length: 10 }, () => ({ card: null, up: false })) })),
  };
}

function table(extra = {}) {
  return { table_id: "T1", rules: { preset: "standard" }, summary: "", status: "playing",
    players: 2, decks: 1, open: [], seats: [], version: 5, round_pause: 2, ready: [],
    rematch: null, hints: true, party: null, progress: null, ...extra };
}

/** A controller on a fake page: what it drew, sent, logged and played, in order. */
function harness({ motionOn = false } = {}) {
  const app = createTableState("T1", false, { seats: [{ seat: 0, token: "tok0" }],
    version: null, shown: null });
  const seen = { renders: 0, sent: [], log: [], sounds: [], errors: [], steps: [], slept: [],
    later: [], rejoined: 0, hints: [] };
  let clock = 1000;
  const fakeView = {
    render: () => { seen.renders += 1; },
    renderAids: () => {},
    renderLogButton: () => {},
    showError: (key, fallback) => { seen.errors.push(key ?? fallback); },
    clearChances: () => {},
    seatsChanged: () => {},
    goToTable: (id) => { seen.went = id; },
    log: {
      append: (lines) => seen.log.push(...lines.map((l) => l.text)),
      prepend: (lines) => seen.log.unshift(...lines.map((l) => l.text)),
      replace: (lines) => { seen.log = lines.map((l) => l.text); },
    },
    hint: { waiting: false, receive: (m) => seen.hints.push(m), refused: (c) => seen.hints.push(c) },
    motion: {
      on: () => motionOn,
      sources: () => [],
      animate: async (event) => { seen.steps.push(event.type); },
      animateDeal: async (event) => { seen.steps.push(event.type); },
      pause: () => 0,
      sound: (name) => seen.sounds.push(name),
      soundOf: (event) => (event.type === "placed" ? "place" : null),
      now: () => clock,
      sleep: async (ms) => { seen.slept.push(ms); clock += ms; },
      later: (fn, ms) => seen.later.push([fn, ms]),
    },
  };
  const socket = {
    send: (message) => { seen.sent.push(message); return true; },
    rejoin: () => { seen.rejoined += 1; },
  };
  const controller = new TableController(app, fakeView, socket);
  return { app, controller, seen, fakeView, tick: (ms) => { clock += ms; } };
}

function joined(h, seats = [0]) {
  h.app.online = true;
  h.controller.onMessage({ type: "joined", table_id: "T1", seats, version: 5, table: table() });
}

async function settle(h) {
  while (h.controller.draining || h.app.queue.length) await new Promise((r) => { setImmediate(r); });
}

test("a state frame makes it this seat's turn: its decision is sent with its token and version", async () => {
  const h = harness();
  joined(h);
  h.controller.onMessage({ type: "state", version: 5, seat: 0, state: view(0) });
  await settle(h);
  assert.equal(actingSeat(h.app), 0);
  assert.deepEqual(h.seen.sounds, ["turn"]);
  h.controller.act("wild 3");
  assert.deepEqual(h.seen.sent, [{ type: "act", token: "tok0", action: "wild 3", version: 5 }]);
  assert.equal(actingSeat(h.app), null, "nothing more is sent until the answer");
  h.controller.act("trash");
  assert.equal(h.seen.sent.length, 1);
});

test("an action the view does not offer is not sent, nor one of another seat's turn", async () => {
  const h = harness();
  joined(h);
  h.controller.onMessage({ type: "state", version: 5, seat: 0, state: view(0) });
  await settle(h);
  h.controller.act("stock");
  h.controller.onMessage({ type: "state", version: 6, seat: 0, state: view(1) });
  await settle(h);
  h.controller.act("wild 3");
  assert.deepEqual(h.seen.sent, []);
});

test("an events frame plays its steps in order, logs them and then takes its view", async () => {
  const h = harness({ motionOn: true });
  joined(h);
  h.controller.onMessage({ type: "state", version: 5, seat: 0, state: view(0) });
  await settle(h);
  const events = [{ type: "placed", seat: 0, slot: 3, card: "3h" },
    { type: "discarded", seat: 0, card: "Qs", reason: "no_place" }];
  h.controller.onMessage({ type: "events", from_version: 5, version: 7, seat: 0, events,
    state: view(1) });
  await settle(h);
  assert.deepEqual(h.seen.steps, ["placed", "discarded"]);
  assert.ok(h.seen.sounds.includes("place"));
  assert.equal(h.app.version, 7);
  assert.equal(h.app.busy, false);
  assert.ok(h.seen.log.length >= 1);
});

test("a chain longer than MAX_ANIMATED, or one that does not follow on, is drawn at once", async () => {
  const h = harness({ motionOn: true });
  joined(h);
  h.controller.onMessage({ type: "state", version: 5, seat: 0, state: view(0) });
  await settle(h);
  const many = Array.from({ length: MAX_ANIMATED + 1 }, () => ({ type: "turned_up", seat: 1, slot: 1, card: "2s" }));
  h.controller.onMessage({ type: "events", from_version: 5, version: 6, seat: 0, events: many, state: view(1) });
  h.controller.onMessage({ type: "events", from_version: 9, version: 10, seat: 0,
    events: [{ type: "placed", seat: 1, slot: 2, card: "2h" }], state: view(0) });
  await settle(h);
  assert.deepEqual(h.seen.steps, []);
  assert.equal(h.app.version, 10);
});

test("why this player's turn ended is said while the others play, and forgotten at its next turn", async () => {
  const h = harness();
  joined(h);
  noteTurnEnd(h.app, [{ type: "discarded", seat: 0, card: "Qs", why: { reason: "trash" } }]);
  h.app.state = view(1);
  assert.ok(h.app.reason, "a reason is kept");
  assert.equal(promptText(h.app), "prompt.with_reason"); // (no catalog: the key)
  h.controller.setState(view(0), 8);
  assert.equal(h.app.reason, null);
});

test("a join refused for its rate joins again once allowed; a stale version says nothing", () => {
  const h = harness();
  h.controller.onMessage({ type: "error", code: "rate_limited", message: "m", retry_after: 3 });
  assert.equal(h.seen.later.length, 1);
  assert.equal(h.seen.later[0][1], 3000);
  h.seen.later[0][0]();
  assert.equal(h.seen.rejoined, 1);
  h.controller.onMessage({ type: "error", code: "stale_version", message: "m" });
  assert.equal(h.seen.errors.length, 1);
});

test("the hint panel's error codes are the server's", () => {
  for (const code of HINT_ERRORS) assert.ok(ERROR_CODES.includes(code), code);
});

test("an error answering a hint goes to the hint panel, not the page", () => {
  const h = harness();
  joined(h);
  h.fakeView.hint.waiting = true;
  h.controller.onMessage({ type: "error", code: "busy", message: "m", retry_after: 1 });
  assert.deepEqual(h.seen.hints, ["busy"]);
  assert.deepEqual(h.seen.errors, []);
});

test("the round-over panel stays up for the pause unless the next deal came early", async () => {
  const h = harness();
  joined(h);
  h.controller.onMessage({ type: "state", version: 5, seat: 0, state: view(null, "round_over", []) });
  await settle(h);
  h.tick(1600); // the deal comes when the server's pause ends, this page is behind
  h.controller.onMessage({ type: "state", version: 9, seat: 0, state: view(0) });
  await settle(h);
  assert.deepEqual(h.seen.slept, [400], "the rest of the 2 s pause");
  const early = harness();
  joined(early);
  early.controller.onMessage({ type: "state", version: 5, seat: 0, state: view(null, "round_over", []) });
  await settle(early);
  early.controller.nextRound();
  assert.deepEqual(early.seen.sent, [{ type: "next_round", token: "tok0" }]);
  early.controller.onMessage({ type: "state", version: 9, seat: 0, state: view(0) });
  await settle(early);
  assert.deepEqual(early.seen.slept, []);
});

test("chances wait for the board to reach their version", async () => {
  const h = harness();
  joined(h);
  h.controller.onMessage({ type: "state", version: 5, seat: 0, state: view(0) });
  await settle(h);
  const at = (version) => ({ type: "chances", version, match_win: [0.5, 0.5], round_win: null,
    source: "search" });
  h.controller.onMessage(at(7));
  h.controller.onMessage(at(5));
  assert.equal(takeChances(h.app).version, 5);
  h.controller.setState(view(1), 7);
  assert.equal(takeChances(h.app).version, 7);
});

test("a hot seat waits behind the pass screen until the next player takes it", async () => {
  const h = harness();
  h.app.entry.seats.push({ seat: 1, token: "tok1" });
  joined(h, [0, 1]);
  h.app.entry.shown = 0;
  h.controller.onMessage({ type: "state", version: 5, seat: 1, state: view(1) });
  await settle(h);
  assert.equal(passPending(h.app), true);
  assert.equal(actingSeat(h.app), null);
  h.controller.passed();
  assert.equal(actingSeat(h.app), 1);
});
