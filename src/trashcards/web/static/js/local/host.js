// @ts-check
// A table "On this device": what `trashcards serve` does for one table, in a Web Worker
// (docs/offline.md). It holds the whole state (hidden cards included) and answers the
// page with the frames of docs/protocol.md — joined, state, events, history, table,
// rematch, error, pong — so table.js cannot tell it from the websocket. Only views and
// public events leave it. Every move is saved (IndexedDB) before it is shown.

import * as engine from "./engine.js";
import { decide } from "./bots.js";
import { getTable, putTable } from "./db.js";
import { expertChoice, hint } from "./hint.js";
import { computeInSlices } from "./chances.js";
import { FLAGS } from "../spec.js";

export const LOCAL_PREFIX = "local-";
/** The computer levels that run on this device; the expert searches here as a hint does
 *  (local/hint.js expertChoice), on fewer deals than a server's. */
export const LOCAL_LEVELS = ["sometimes", "kid", "greedy", "expert"];
const HISTORY_PAGE = 200;
const FACE = { J: "J", Q: "Q", K: "K" };

function randomId(bytes) {
  const data = crypto.getRandomValues(new Uint8Array(bytes));
  return btoa(String.fromCharCode(...data)).replace(/\+/g, "-").replace(/\//g, "_")
    .replace(/=+$/, "");
}

/** Tests only: seeded streams in place of crypto, one per use, so that the order in
 *  which a table's aids and moves ask cannot change its deals (a page that sets
 *  window.trashTestSeed before loading gets the same shuffles and bots on every run, as
 *  `serve --test-seed` gives a server's tables; the transport hands it to the worker). */
const testStreams = new Map();
let testSeed = null;
export function seedForTests(seed) {
  testSeed = seed === undefined || seed === null || !Number.isInteger(Number(seed))
    ? null : Number(seed);
  testStreams.clear();
}
seedForTests(globalThis.trashTestSeed);

/** A fresh 64-bit seed for `use` ("deal", "bot" or "aid"): from crypto, or from the
 *  tests' stream of that use. */
function seedFromCrypto(use) {
  if (testSeed !== null) {
    if (!testStreams.has(use)) {
      testStreams.set(use, new engine.PyRandom(testSeed * 8 + ["deal", "bot", "aid"].indexOf(use)));
    }
    const stream = testStreams.get(use);
    return BigInt(stream.uint32()) * 4294967296n + BigInt(stream.uint32());
  }
  const [a, b] = crypto.getRandomValues(new Uint32Array(2));
  return BigInt(a) * 4294967296n + BigInt(b);
}

function saveRandom(rng) { return { mt: Array.from(rng.mt), index: rng.index }; }
function loadRandom(saved) {
  const rng = new engine.PyRandom(0);
  rng.mt.set(saved.mt);
  rng.index = saved.index;
  return rng;
}

/** One line for people, as trashcards.rules.Rules.describe. */
export function describe(rules) {
  const wild = rules.wild_ranks.map((r) => FACE[r]).join("/") || "no face card";
  const parts = [`${wild} wild`, `boards of ${rules.start_size}`,
    `first to ${rules.target} round${rules.target > 1 ? "s" : ""}`];
  if (rules.jokers_per_deck) parts.push(`${rules.jokers_per_deck} Jokers per pack`);
  if (rules.decks !== null) parts.push(`${rules.decks} pack${rules.decks > 1 ? "s" : ""}`);
  for (const [flag, words] of Object.entries(FLAGS)) if (rules[flag]) parts.push(words);
  const changed = Object.keys(engine.rulesToDict(rules)).filter((k) => k !== "preset");
  const label = changed.length ? `${rules.preset} (changed: ${changed.join(", ")})` : rules.preset;
  return `${label}: ${parts.join(", ")}`;
}

/** Seat names as the server gives them: people's names, bots `bot:KIND` (`:2`…). */
function seatNames(seats) {
  const copies = {};
  return seats.map((seat) => {
    if (seat.kind !== "bot") return seat.name;
    copies[seat.bot] = (copies[seat.bot] || 0) + 1;
    return copies[seat.bot] === 1 ? `bot:${seat.bot}` : `bot:${seat.bot}:${copies[seat.bot]}`;
  });
}

/** Make a table on this device: {table_id, seats: [{seat, token, name}], invite}. Seats
 *  are {kind: "me" | "hotseat" | "bot", name, bot}; `hints`: whether the seats may ask
 *  for hints and see the win chances (the lobby's option, as on a server); `opening`:
 *  the record's first chance moves (the guided game's stacked deal, js/learn.js), played
 *  instead of a shuffle when the table opens. */
export async function createLocalTable(rulesJson, seatSpecs, copyFrom = null, hints = true,
  opening = []) {
  const rules = engine.makeRules(rulesJson);
  if (seatSpecs.length < 2 || seatSpecs.length > 4) throw new Error("a table has 2 to 4 seats");
  for (const seat of seatSpecs) {
    if (seat.kind === "open") throw new Error("open seats need a server");
    if (seat.kind === "bot" && !LOCAL_LEVELS.includes(seat.bot)) {
      throw new Error(`the ${seat.bot} bot plays on a server only`);
    }
  }
  const names = seatNames(seatSpecs);
  let state = engine.newMatch(rules, names);  // refuses a table these rules cannot deal
  for (const text of opening) {  // refuses an opening that is not chance moves it allows
    if (engine.chanceDue(state) === null) throw new Error("an opening holds chance moves only");
    state = engine.apply(state, engine.parseMove(text)).state;
  }
  const id = LOCAL_PREFIX + randomId(9);
  const seats = seatSpecs.map((spec, seat) => ({
    seat, kind: spec.kind, name: names[seat], bot: spec.kind === "bot" ? spec.bot : undefined,
    token: spec.kind === "bot" ? null : (copyFrom && copyFrom[seat]) || randomId(18),
  }));
  const bots = {};
  for (const seat of seats) {
    if (seat.kind === "bot") bots[seat.seat] = saveRandom(new engine.PyRandom(seedFromCrypto("bot")));
  }
  const table = {
    id, rules: engine.rulesToDict(rules), seats, moves: [...opening], cuts: null, bots,
    created: Date.now(), ready: [], rematch: null, status: "playing", info: null,
    hints: hints !== false,
  };
  table.info = tableInfo(table, null);
  await putTable(table);
  return {
    table_id: id, invite: `/t/${id}`,
    seats: seats.filter((s) => s.token).map((s) => ({ seat: s.seat, token: s.token, name: s.name })),
  };
}

/** The table info object (docs/protocol.md) of a stored table and its state. */
export function tableInfo(table, state) {
  const rules = engine.makeRules(table.rules);
  let progress = null;
  if (state) {
    progress = { round: state.round, to_act: engine.toAct(state),
      rounds_won: [...state.rounds_won], match_winner: state.match_winner };
  }
  return {
    table_id: table.id, rules: table.rules, summary: describe(rules), status: table.status,
    players: table.seats.length, open: [],
    seats: table.seats.map((s) => ({ seat: s.seat, kind: s.kind, name: s.name, taken: true,
      ...(s.kind === "bot" ? { bot: s.bot } : {}) })),
    version: table.moves.length, round_pause: 0, ready: [...table.ready],
    rematch: table.rematch, decks: engine.deckCount(rules, table.seats.length), party: null,
    // reactions are for online tables: everyone here is at this one device
    progress, hints: table.hints !== false, reactions: false, local: true,
  };
}

function roundStart(moves) {
  const decks = [];
  moves.forEach((move, index) => { if (move.startsWith("deck ")) decks.push(index); });
  return decks.length <= 1 ? 0 : decks[decks.length - 1];
}

/** The record text (trash/1) as the server's download: while the match goes on it stops
 *  before the current round's deck, which would show the face-down cards. */
export function recordText(table, complete) {
  let moves = table.moves;
  if (!complete) {
    const last = moves.reduce((at, move, index) => (move.startsWith("deck ") ? index : at), -1);
    if (last >= 0) moves = moves.slice(0, last);
  }
  const rules = JSON.stringify(table.rules);
  const players = JSON.stringify(table.seats.map((s) => s.name));
  const body = moves.map((m) => JSON.stringify(m)).join(",\n  ");
  return `{"format": "trash/1", "rules": ${rules}, "players": ${players}, "moves": [`
    + (body ? `\n  ${body}\n]}\n` : "]}\n");
}

export class Host {
  /** @param {(msg: object) => void} post sends a frame to the page */
  constructor(post, { botDelay = 500, hintBudget = 500, chancesBudget = 400 } = {}) {
    this.post = post;
    this.botDelay = botDelay;
    this.hintBudget = hintBudget;
    this.chancesBudget = chancesBudget;
    this.chances = null;  // the latest win-chance frame sent, and the version computing
    this.chancesAt = -1;
    this.table = null;
    this.state = null;
    this.moveEvents = [];  // the browser events of each move
    this.seats = [];  // the seats of the page's tokens
    this.timer = null;
    this.joined = false;
    this.chain = Promise.resolve();
  }

  /** Run `work` after everything queued before it: one message or bot move at a time,
   *  so no frame is built while a move is being saved. */
  run(work) {
    const done = this.chain.then(work);
    this.chain = done.catch(() => {});
    return done;
  }

  async open(tableId) {
    const table = await getTable(tableId);
    if (!table) return false;
    this.table = table;
    this.rules = engine.makeRules(table.rules);
    let state = engine.newMatch(this.rules, table.seats.map((s) => s.name));
    const cuts = table.cuts;
    for (const text of table.moves) {
      const move = engine.parseMove(text);
      if (move.verb === "dealer" && cuts) move.cuts = cuts;
      const done = engine.apply(state, move, move.seat);
      state = done.state;
      this.moveEvents.push(engine.eventsJson(done.events, state));
    }
    this.state = state;
    this.bots = {};
    for (const [seat, saved] of Object.entries(table.bots)) this.bots[seat] = loadRandom(saved);
    if (!table.moves.length) await this.step(null, null, true);
    return true;
  }

  info() { return tableInfo(this.table, this.state); }

  /** Apply `first` (an action text of `seat`) and every chance move it makes due (the
   *  next round's deal only with `deal`); save; then send. Throws engine.IllegalMove. */
  async step(first, seat, deal = false) {
    let state = this.state;
    const entries = [];
    const texts = [];
    if (first !== null) {
      const done = engine.apply(state, engine.parseMove(first), seat);
      state = done.state;
      entries.push(`${seat}: ${first}`);
      texts.push(engine.eventsJson(done.events, state));
    }
    while (engine.chanceDue(state) !== null && (deal || state.phase !== "round_over")) {
      deal = false;
      const rng = new engine.PyRandom(seedFromCrypto("deal"));
      const move = engine.sampleChance(state, rng);
      if (move.verb === "dealer") this.table.cuts = move.cuts;
      const done = engine.apply(state, move);
      state = done.state;
      entries.push(engine.moveText(move));
      texts.push(engine.eventsJson(done.events, state));
    }
    if (!entries.length) return;
    const from = this.table.moves.length;
    this.table.moves.push(...entries);
    this.table.status = state.phase === "match_over" ? "over" : "playing";
    if (state.phase !== "round_over") this.table.ready = [];
    for (const [s, rng] of Object.entries(this.bots)) this.table.bots[s] = saveRandom(rng);
    this.table.info = tableInfo(this.table, state);
    this.table.updated = Date.now();
    await putTable(this.table);
    this.state = state;
    this.moveEvents.push(...texts);
    if (this.joined) {
      this.post({ type: "events", from_version: from, version: this.table.moves.length,
        seat: this.viewSeat(), events: texts.flat(), state: this.view() });
    }
    this.sendRecord();
    this.schedule();
    this.updateChances();
  }

  viewSeat() { return this.seats.length ? this.seats[0] : null; }
  view() { return engine.view(this.state, this.viewSeat()); }

  sendRecord() {
    const complete = this.table.status === "over";
    this.post({ type: "local_record", complete, text: recordText(this.table, complete) });
  }

  schedule() {
    clearTimeout(this.timer);
    const seat = engine.toAct(this.state);
    if (seat === null) return;
    const row = this.table.seats[seat];
    if (row.kind !== "bot") return;
    const version = this.table.moves.length;
    this.timer = setTimeout(() => this.run(() => this.botMove(seat, row.bot, version)),
      this.botDelay);
  }

  async botMove(seat, bot, version) {
    if (this.table.moves.length !== version) return;
    const view = engine.view(this.state, seat);
    const action = bot === "expert" ? expertChoice(view, this.rules, this.bots[seat])
      : decide(bot, view, this.bots[seat], this.rules);
    await this.step(action, seat);
  }

  error(code, message) { this.post({ type: "error", code, message }); }

  seatOf(token) {
    const row = this.table.seats.find((s) => s.token && s.token === token);
    return row ? row.seat : null;
  }

  /** A client frame from the page. */
  async handle(msg) {
    switch (msg.type) {
      case "join": return this.join(msg);
      case "ping": this.post({ type: "pong" }); return undefined;
      case "act": return this.act(msg);
      case "next_round": return this.nextRound(msg);
      case "rematch": return this.rematchTable(msg);
      case "history": this.sendHistory(Number(msg.before)); return undefined;
      case "hint": this.hintFor(msg); return undefined;
      default:
        this.error("unknown_type", "not a client message");
        return undefined;
    }
  }

  join(msg) {
    const seats = [];
    for (const token of msg.tokens || []) {
      const seat = this.seatOf(token);
      if (seat === null) this.error("bad_token", "not a seat of this table");
      else if (!seats.includes(seat)) seats.push(seat);
    }
    this.seats = seats.sort((a, b) => a - b);
    this.joined = true;
    const version = this.table.moves.length;
    this.post({ type: "joined", table_id: this.table.id, seats: this.seats, version,
      table: this.info() });
    if (msg.version !== null && msg.version !== undefined && msg.version >= 0
        && msg.version < version && version - msg.version <= 500) {
      this.post({ type: "events", from_version: msg.version, version, seat: this.viewSeat(),
        events: this.moveEvents.slice(msg.version).flat(), state: this.view() });
    } else if (msg.version !== version) {
      this.post({ type: "state", version, seat: this.viewSeat(), state: this.view() });
      if (msg.history) this.sendHistory(version);
    }
    this.sendRecord();
    this.schedule();
    this.updateChances();
  }

  /** After a version's frames: its win chances (local/chances.js), from the public view,
   *  computed in slices between moves and dropped when the table moves on. As on a
   *  server, players see them where the table allows hints, a page with no seat always. */
  updateChances() {
    const version = this.table.moves.length;
    if (!this.joined || (this.table.hints === false && this.seats.length)) return;
    if (this.chances && this.chances.version === version) {
      this.post(this.chances);
      return;
    }
    if (this.chancesAt === version) return;  // being computed: sent when done
    this.chancesAt = version;
    computeInSlices(this.state, this.rules,
      new engine.PyRandom(seedFromCrypto("aid")), version,
      (frame) => { this.chances = frame; this.post(frame); },
      () => this.table.moves.length !== version, { budgetMs: this.chancesBudget });
  }

  sendHistory(before) {
    const moves = this.table.moves;
    const end = Math.max(0, Math.min(before, moves.length));
    const roundFrom = roundStart(moves);
    const start = Math.max(end - HISTORY_PAGE, 0);
    this.post({ type: "history", from_version: start, version: end, round_from: roundFrom,
      events: this.moveEvents.slice(start, end).flat() });
  }

  async act(msg) {
    const seat = this.seatOf(msg.token);
    if (seat === null) { this.error("bad_token", "not a seat of this table"); return; }
    if (msg.version !== this.table.moves.length) {
      this.error("stale_version", "the table has moved on");
      this.post({ type: "state", version: this.table.moves.length, seat: this.viewSeat(),
        state: this.view() });
      return;
    }
    const actor = engine.toAct(this.state);
    if (actor !== seat) {
      this.error("not_your_turn", actor === null ? "nobody is to act"
        : `seat ${actor} is to act, not seat ${seat}`);
      return;
    }
    try {
      await this.step(String(msg.action).trim().toLowerCase().replace(/\s+/g, " "), seat);
    } catch (error) {
      if (error instanceof engine.IllegalMove) this.error("illegal", error.message);
      else this.error("bad_action", String(error.message || error));
    }
  }

  /** A hint for the seat of `msg.token`, from its view only (local/hint.js). */
  hintFor(msg) {
    const seat = this.seatOf(msg.token);
    const version = this.table.moves.length;
    if (seat === null) { this.error("bad_token", "not a seat of this table"); return; }
    if (this.table.hints === false) {
      this.error("hints_off", "the creator of this table did not allow hints");
      return;
    }
    if (msg.version !== version) { this.error("stale_version", "the table has moved on"); return; }
    if (engine.toAct(this.state) !== seat) {
      this.error("not_your_turn", "a hint is for the seat to act");
      return;
    }
    const answer = hint(engine.view(this.state, seat), this.rules,
      new engine.PyRandom(seedFromCrypto("aid")), { budgetMs: this.hintBudget });
    this.post({ type: "hint", version, seat, ...answer });
  }

  async nextRound(msg) {
    const seat = this.seatOf(msg.token);
    if (seat === null) { this.error("bad_token", "not a seat of this table"); return; }
    if (this.state.phase !== "round_over") { this.error("bad_phase", "the round is not over"); return; }
    if (!this.table.ready.includes(seat)) this.table.ready.push(seat);
    const people = this.table.seats.filter((s) => s.kind !== "bot").map((s) => s.seat);
    if (people.every((s) => this.table.ready.includes(s))) {
      await this.step(null, null, true);
    } else {
      await putTable(this.table);
      this.post({ type: "table", table: this.info() });
    }
  }

  async rematchTable(msg) {
    if (this.seatOf(msg.token) === null) { this.error("bad_token", "not a seat of this table"); return; }
    if (this.state.phase !== "match_over") { this.error("bad_phase", "the match is not over"); return; }
    if (!this.table.rematch) {
      const specs = this.table.seats.map((s) => (s.kind === "bot" ? { kind: "bot", bot: s.bot }
        : { kind: s.kind, name: s.name }));
      const made = await createLocalTable(this.table.rules, specs,
        this.table.seats.map((s) => s.token), this.table.hints);
      this.table.rematch = made.table_id;
      await putTable(this.table);
    }
    this.post({ type: "rematch", table_id: this.table.rematch, url: `/t/${this.table.rematch}` });
  }
}
