// @ts-check
// The rules of Trash in JavaScript, for tables "On this device" (docs/offline.md): a port
// of trashcards.engine (with rules, cards, views, events and chance) that must agree with
// it move for move. tests/web/test_js_engine.py replays every golden record and over
// 10,000 random ones in both and compares every state, view and event.
//
// Cards are their record text ("Ts", "X1"); a state is a plain object holding everything,
// hidden cards included: only view() and eventsJson() leave the worker that runs it.

import { DEFAULTS, FIRST_TO, FLAGS, NOTATION, PRESETS, RANGES } from "../spec.js";

// -- cards --------------------------------------------------------------------------------

export const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"];
export const SUITS = ["s", "h", "d", "c"];
const FACE_NUMBER = { J: 11, Q: 12, K: 13 };
export const WILD = 0;
export const TRASH = -1;

/** Rank 1 (Ace) … 13 (King), 0 for a Joker. */
export function rankOf(card) {
  return card[0] === "X" ? 0 : RANKS.indexOf(card[0]) + 1;
}

function sortKey(card) {
  if (card[0] === "X") return 1000 + Number(card.slice(1));
  return rankOf(card) * 4 + SUITS.indexOf(card[1]);
}

export function sortCards(cards) {
  return [...cards].sort((a, b) => sortKey(a) - sortKey(b));
}

const PACK = SUITS.flatMap((suit) => RANKS.map((rank) => rank + suit));
export function standardPack() { return PACK; }

// -- rules --------------------------------------------------------------------------------

// The presets, fields, defaults and ranges are trashcards.rules' own, generated into
// ../spec.js (scripts/write_spec.py): nothing of them is written here.

/** [canonical name, fields] of a preset name (as trashcards.rules: any case, no guess). */
export function presetFields(name) {
  const key = String(name).trim().toLowerCase();
  if (Object.hasOwn(PRESETS, key)) return [key, PRESETS[key]];
  const match = /^first-to-([0-9]+)$/.exec(key);
  const n = match ? Number(match[1]) : NaN;
  if (match && match[1].length <= FIRST_TO.digits && n >= FIRST_TO.min && n <= FIRST_TO.max) {
    return [`first-to-${n}`, { rounds_to_win: FIRST_TO.board - n }];
  }
  throw new Error(`unknown preset ${name}`);
}

/** Refuse a field's value as trashcards.rules does (its type and range, RANGES). */
function checkField(key, value, rules) {
  const range = RANGES[key];
  if (Object.hasOwn(FLAGS, key)) {
    if (typeof value !== "boolean") throw new Error(`${key} must be true or false`);
  } else if (key === "wild_ranks") {
    if (!Array.isArray(value) || new Set(value).size !== value.length
        || !value.every((r) => range.of.includes(r))) {
      throw new Error(`${key} must be distinct ranks from ${range.of.join(", ")}`);
    }
  } else if (value === null && range.none !== undefined) {
    // the default for the table
  } else {
    const max = typeof range.max === "string" ? rules[range.max] : range.max;
    if (!Number.isInteger(value) || value < range.min || value > max) {
      throw new Error(`${key} must be ${range.min} to ${max}`);
    }
  }
}

/** Rules from a record's rules object: a preset plus the fields that differ. */
export function makeRules(data = {}) {
  const [preset, fields] = presetFields(data.preset ?? "standard");
  const rules = { preset, ...structuredClone(DEFAULTS), ...structuredClone(fields) };
  for (const [key, value] of Object.entries(data)) {
    if (key === "preset") continue;
    if (!Object.hasOwn(DEFAULTS, key)) throw new Error(`unknown rules field ${key}`);
    rules[key] = key === "wild_ranks" && Array.isArray(value)
      ? value.map((r) => String(r).toUpperCase()) : value;
  }
  for (const key of Object.keys(DEFAULTS)) checkField(key, rules[key], rules);
  const target = rules.rounds_to_win ?? rules.start_size;
  rules.target = target;
  const wild = new Set(rules.wild_ranks.map((r) => FACE_NUMBER[r]));
  const roles = {};
  for (const card of PACK) {
    const rank = rankOf(card);
    roles[card] = rank <= 10 ? rank : (wild.has(rank) ? WILD : TRASH);
  }
  for (let n = 1; n <= 32; n += 1) roles[`X${n}`] = WILD;
  rules.roles = roles;
  return rules;
}

/** The record form: preset plus every field that differs from that preset. */
export function rulesToDict(rules) {
  const base = makeRules({ preset: rules.preset });
  const out = { preset: rules.preset };
  for (const key of Object.keys(DEFAULTS)) {
    if (JSON.stringify(rules[key]) !== JSON.stringify(base[key])) out[key] = rules[key];
  }
  return out;
}

export function deckCount(rules, players) {
  return rules.decks ?? (players <= 2 ? 1 : 2);
}

export function matchCards(rules, players) {
  const decks = deckCount(rules, players);
  const out = [];
  for (let d = 0; d < decks; d += 1) out.push(...PACK);
  for (let n = 1; n <= decks * rules.jokers_per_deck; n += 1) out.push(`X${n}`);
  return out;
}

// -- moves --------------------------------------------------------------------------------

/** A record move's text → {seat, verb, slot, cards}. */
export function parseMove(text) {
  let seat = null;
  let rest = text.trim();
  const prefix = /^([0-3])\s*:\s*(.*)$/s.exec(rest);
  if (prefix) { seat = Number(prefix[1]); rest = prefix[2]; }
  const words = rest.split(/\s+/).filter(Boolean);
  const verb = (words[0] || "").toLowerCase();
  // the words are the record notation's (NOTATION, from trashcards.actions)
  if (verb === "dealer") return { seat: null, verb, dealer: Number(words[1]) };
  if (NOTATION.chance.includes(verb)) return { seat: null, verb, cards: words.slice(1) };
  if (NOTATION.slotted.includes(verb)) return { seat, verb, slot: Number(words[1]) };
  if (NOTATION.actions.includes(verb) && words.length === 1) return { seat, verb };
  throw new Error(`not a move: ${text}`);
}

export function moveText(move) {
  if (move.verb === "dealer") return `dealer ${move.dealer}`;
  if (move.verb === "deck" || move.verb === "reshuffle") {
    return [move.verb, ...move.cards].join(" ");
  }
  return move.verb === "wild" ? `wild ${move.slot}` : move.verb;
}

// -- state --------------------------------------------------------------------------------

/** The state before the cut for the first dealer. */
export function newMatch(rules, names) {
  const players = names.length;
  if (players < 2 || players > 4) throw new Error("a table is 2 to 4 players");
  if (deckCount(rules, players) * (52 + rules.jokers_per_deck) < players * rules.start_size + 2) {
    throw new Error("too few cards for these boards: use more decks");
  }
  return {
    rules, names: [...names], phase: "chance", due: "dealer", round: 1, dealer: null,
    turn: null, in_hand: null, stock: [], discard: [],
    boards: names.map(() => ({ size: rules.start_size, cards: [], up: [] })),
    rounds_won: names.map(() => 0), called: false, must_play: false, unclaimed: [],
    final_from: null, round_winners: [], match_winner: null, stock_public: false,
  };
}

function clone(state) {
  return {
    ...state, names: state.names, stock: state.stock, discard: [...state.discard],
    boards: state.boards.map((b) => ({ size: b.size, cards: [...b.cards], up: [...b.up] })),
    rounds_won: [...state.rounds_won], unclaimed: [...state.unclaimed],
    round_winners: [...state.round_winners],
  };
}

const DECISION = new Set(["draw", "wild", "swap"]);
export function toAct(state) { return DECISION.has(state.phase) ? state.turn : null; }

function playable(card, board, roles) {
  const role = roles[card];
  if (role > 0) {
    if (role > board.size) return false;
    const k = role - 1;
    return !board.up[k] || roles[board.cards[k]] === WILD;
  }
  return role === WILD && board.up.includes(false);
}

/** The legal actions of the player to act, as text, in the fixed order. */
export function legalActions(state) {
  let acts;
  if (state.phase === "draw") {
    const board = state.boards[state.turn];
    const top = state.discard.length ? state.discard[state.discard.length - 1] : null;
    acts = top !== null && playable(top, board, state.rules.roles) ? ["stock", "discard"]
      : ["stock"];
  } else if (state.phase === "wild") {
    acts = [];
    state.boards[state.turn].up.forEach((up, k) => { if (!up) acts.push(`wild ${k + 1}`); });
    if (!state.must_play) acts.push("trash");
  } else if (state.phase === "swap") {
    acts = state.must_play ? ["swap"] : ["swap", "trash"];
  } else {
    return [];
  }
  if (state.rules.call_trash && !state.called) acts.push("call");
  return acts;
}

export function chanceDue(state) {
  if (state.phase === "chance") return state.due;
  if (state.phase === "round_over") return "deck";
  return null;
}

export class IllegalMove extends Error {}

function sameMultiset(a, b) {
  if (a.length !== b.length) return false;
  const count = new Map();
  for (const c of a) count.set(c, (count.get(c) || 0) + 1);
  for (const c of b) {
    const n = count.get(c);
    if (!n) return false;
    count.set(c, n - 1);
  }
  return true;
}

function verify(state, move, seat) {
  const text = moveText(move);
  if (["dealer", "deck", "reshuffle"].includes(move.verb)) {
    const due = chanceDue(state);
    const wanted = { dealer: "dealer", deck: "deck", reshuffle: "reshuffle",
      penalty_reshuffle: "reshuffle" }[due];
    if (wanted !== move.verb) throw new IllegalMove(`${text}: not due`);
    if (move.verb === "dealer" && !(move.dealer >= 0 && move.dealer < state.names.length)) {
      throw new IllegalMove(`${text}: no such seat`);
    }
    if (move.verb === "deck" && !sameMultiset(move.cards, matchCards(state.rules, state.names.length))) {
      throw new IllegalMove(`${text}: must be exactly the match's cards`);
    }
    if (move.verb === "reshuffle" && !sameMultiset(move.cards, state.discard.slice(0, -1))) {
      throw new IllegalMove(`${text}: must be exactly the discard pile less its top card`);
    }
    return;
  }
  const actor = toAct(state);
  if (actor === null) throw new IllegalMove(`${text}: no player is to act`);
  if (seat !== null && seat !== undefined && seat !== actor) {
    throw new IllegalMove(`${text}: it is seat ${actor}'s turn, not seat ${seat}'s`);
  }
  if (!legalActions(state).includes(text)) throw new IllegalMove(`${text}: not legal now`);
}

function standings(state) {
  const keys = state.names.map((_, seat) => [seat === state.match_winner ? 0 : 1,
    -state.rounds_won[seat], state.boards[seat].up.filter((u) => !u).length]);
  const less = (a, b) => a[0] < b[0] || (a[0] === b[0] && (a[1] < b[1]
    || (a[1] === b[1] && a[2] < b[2])));
  return keys.map((mine) => 1 + keys.filter((other) => less(other, mine)).length);
}

/** Play one move: {state, events}; the given state is unchanged. Throws IllegalMove. */
export function apply(state, move, seat = null) {
  if (typeof move === "string") {
    const parsed = parseMove(move);
    if (parsed.seat !== null) seat = parsed.seat;
    move = parsed;
  }
  verify(state, move, seat);
  const w = new Work(clone(state));
  if (move.verb === "dealer") w.chooseDealer(move);
  else if (move.verb === "deck") w.deal(move.cards);
  else if (move.verb === "reshuffle") w.reshuffle(move.cards);
  else w.act(move);
  return { state: w.s, events: w.events };
}

class Work {
  constructor(s) {
    this.s = s;
    this.roles = s.rules.roles;
    this.events = [];
  }

  chooseDealer(move) {
    this.s.dealer = move.dealer;
    this.s.due = "deck";
    this.events.push({ type: "dealer_chosen", seat: move.dealer, cuts: move.cuts || [] });
  }

  deal(cards) {
    const s = this.s;
    const players = s.names.length;
    if (s.phase === "round_over") {
      s.round += 1;
      s.dealer = (s.dealer + 1) % players;
    }
    const sizes = s.rounds_won.map((won) => s.rules.start_size - won);
    const hands = sizes.map(() => []);
    let seat = s.dealer;
    let pos = 0;
    const total = sizes.reduce((a, b) => a + b, 0);
    for (let i = 0; i < total; i += 1) {
      seat = (seat + 1) % players;
      while (hands[seat].length === sizes[seat]) seat = (seat + 1) % players;
      hands[seat].push(cards[pos]);
      pos += 1;
    }
    s.boards = sizes.map((size, k) => ({ size, cards: hands[k], up: hands[k].map(() => false) }));
    s.stock = cards.slice(pos);
    s.stock_public = false;
    s.discard = [];
    s.in_hand = null;
    s.round_winners = [];
    s.unclaimed = [];
    s.final_from = null;
    s.called = false;
    s.must_play = false;
    s.turn = (s.dealer + 1) % players;
    s.phase = "draw";
    s.due = null;
    this.events.push({ type: "dealt", round: s.round, dealer: s.dealer, sizes, first: s.turn });
  }

  reshuffle(cards) {
    const s = this.s;
    s.discard = s.discard.slice(-1);
    s.stock = cards;
    s.stock_public = true;
    this.events.push({ type: "reshuffled", size: cards.length });
    const due = s.due;
    s.due = null;
    const seat = s.turn;
    const card = s.stock[0];
    s.stock = s.stock.slice(1);
    if (due === "penalty_reshuffle") {
      this.penaltyCard(seat, card);
    } else {
      this.events.push({ type: "drew", seat, source: "stock", card });
      this.resolve(card);
    }
  }

  act(move) {
    const s = this.s;
    const seat = s.turn;
    const verb = move.verb;
    if (verb === "call") {
      s.called = true;
      this.events.push({ type: "called", seat });
      return;
    }
    if (verb === "stock") {
      if (!s.stock.length) { this.stockEmpty("reshuffle"); return; }
      const card = s.stock[0];
      s.stock = s.stock.slice(1);
      this.events.push({ type: "drew", seat, source: "stock", card });
      this.resolve(card);
      return;
    }
    if (verb === "discard") {
      const card = s.discard.pop();
      this.events.push({ type: "drew", seat, source: "discard", card });
      s.must_play = true;
      this.resolve(card);
      return;
    }
    const held = s.in_hand;
    const board = s.boards[seat];
    if (verb === "wild") {
      this.place(move.slot - 1, held, true);
    } else if (verb === "swap") {
      const k = this.roles[held] - 1;
      const wildCard = board.cards[k];
      board.cards[k] = held;
      this.events.push({ type: "swapped", seat, slot: k + 1, card: held, wild: wildCard });
      s.must_play = false;
      this.resolve(wildCard);
    } else {
      this.discardCard(held);
      this.endTurn();
    }
  }

  stockEmpty(due) {
    const s = this.s;
    s.in_hand = null;
    if (s.discard.length <= 1 || (due === "reshuffle" && this.stuck())) {
      this.events.push({ type: "round_void", round: s.round });
      s.phase = "round_over"; s.due = null; s.turn = null;
      return;
    }
    this.events.push({ type: "stock_empty", seat: s.turn });
    s.phase = "chance";
    s.due = due;
  }

  stuck() {
    const s = this.s;
    if (s.unclaimed.length || s.final_from !== null) return false;
    const cards = new Set(s.discard);
    for (const card of cards) {
      for (const board of s.boards) if (playable(card, board, this.roles)) return false;
    }
    return true;
  }

  discardCard(card) {
    this.s.discard.push(card);
    this.s.in_hand = null;
    this.events.push({ type: "discarded", seat: this.s.turn, card });
  }

  place(k, card, wildCard) {
    const s = this.s;
    const seat = s.turn;
    const board = s.boards[seat];
    const turned = board.cards[k];
    board.cards[k] = card;
    board.up[k] = true;
    s.must_play = false;
    this.events.push({ type: "placed", seat, slot: k + 1, card, wild: wildCard });
    this.events.push({ type: "turned_up", seat, slot: k + 1, card: turned });
    if (!board.up.includes(false)) {
      s.in_hand = turned;
      this.complete();
    } else {
      this.resolve(turned);
    }
  }

  resolve(card) {
    const s = this.s;
    const board = s.boards[s.turn];
    const role = this.roles[card];
    if (role > 0 && role <= board.size) {
      const k = role - 1;
      if (!board.up[k]) { this.place(k, card, false); return; }
      if (this.roles[board.cards[k]] === WILD) {
        s.in_hand = card;
        s.phase = "swap";
        return;
      }
    } else if (role === WILD) {
      s.in_hand = card;
      s.phase = "wild";
      return;
    }
    this.discardCard(card);
    this.endTurn();
  }

  complete() {
    const s = this.s;
    const seat = s.turn;
    this.discardCard(s.in_hand);
    const claimed = !s.rules.call_trash || s.called;
    this.events.push({ type: "completed", seat, claimed });
    if (claimed) {
      if (this.win(seat)) this.endTurn();
      return;
    }
    s.unclaimed.push(seat);
    if (!s.stock.length) { this.stockEmpty("penalty_reshuffle"); return; }
    const card = s.stock[0];
    s.stock = s.stock.slice(1);
    this.penaltyCard(seat, card);
  }

  penaltyCard(seat, card) {
    this.s.discard.push(card);
    this.events.push({ type: "penalty_drawn", seat, card });
    this.endTurn();
  }

  win(seat) {
    const s = this.s;
    s.rounds_won[seat] += 1;
    s.round_winners.push(seat);
    this.events.push({ type: "round_won", seat, round: s.round, rounds_won: s.rounds_won[seat] });
    s.in_hand = null;
    if (s.rounds_won[seat] >= s.rules.target) {
      s.match_winner = seat;
      s.phase = "match_over"; s.due = null; s.turn = null;
      s.called = false; s.must_play = false;
      this.events.push({ type: "match_won", seat, standings: standings(s) });
      return false;
    }
    if (s.rules.last_chance) {
      if (s.final_from === null) {
        s.final_from = seat;
        this.events.push({ type: "final_cycle", seat });
      }
      return true;
    }
    s.phase = "round_over"; s.due = null; s.turn = null;
    s.called = false; s.must_play = false;
    return false;
  }

  endTurn() {
    const s = this.s;
    const players = s.names.length;
    let seat = s.turn;
    s.in_hand = null;
    s.called = false;
    s.must_play = false;
    for (;;) {
      seat = (seat + 1) % players;
      if (seat === s.final_from) {
        s.phase = "round_over"; s.due = null; s.turn = null;
        return;
      }
      s.turn = seat;
      if (s.unclaimed.includes(seat)) {
        s.unclaimed = s.unclaimed.filter((x) => x !== seat);
        this.events.push({ type: "claimed", seat });
        if (!this.win(seat)) return;
        continue;
      }
      s.phase = "draw";
      s.due = null;
      this.events.push({ type: "turn_passed", seat });
      return;
    }
  }
}

// -- what a seat may know -----------------------------------------------------------------

/** The view JSON of seat (null: a spectator), exactly trashcards.statejson.view_json. */
export function view(state, seat = null) {
  const out = {
    phase: state.phase, round: state.round, dealer: state.dealer, to_act: toAct(state),
    in_hand: state.in_hand, stock_count: state.stock.length, discard: [...state.discard],
    players: state.names.map((name, k) => {
      const board = state.boards[k];
      return {
        name, rounds_won: state.rounds_won[k], board_size: board.size,
        slots: board.cards.map((card, i) => (board.up[i] ? { card, up: true }
          : { card: null, up: false })),
      };
    }),
    round_winners: [...state.round_winners], match_winner: state.match_winner,
    legal: legalActions(state), seat, called: state.called, unclaimed: [...state.unclaimed],
    final_from: state.final_from,
    stock_known: state.stock_public ? sortCards(state.stock) : null,
  };
  if (state.phase === "match_over") out.standings = standings(state);
  return out;
}

/** The whole state as JSON, exactly trashcards.statejson.revealed_json. */
export function revealed(state) {
  const out = view(state, null);
  out.stock = [...state.stock];
  out.players.forEach((player, k) => {
    const board = state.boards[k];
    player.slots = board.cards.map((card, i) => ({ card, up: board.up[i] }));
  });
  return out;
}

function discardWhy(rules, card, slots) {
  const role = rules.roles[card];
  if (role === TRASH) return { reason: "trash" };
  if (role === WILD) return { reason: "wild" };
  if (role > slots.length) return { reason: "no_slot", slot: role, size: slots.length };
  const held = slots[role - 1];
  if (held === null) return null;
  if (rules.roles[held] === WILD) return { reason: "kept_wild", slot: role, held };
  return { reason: "taken", slot: role, held };
}

/** The events of one move as browsers get them (trashcards.web.eventjson): a discard
 *  says why, and the event that ends a round (its last round_won, or its round_void)
 *  carries the cards that stayed face down; `state` is the state after the move. */
export function eventsJson(events, state) {
  let lastEnd = -1;
  if (state.phase === "round_over" || state.phase === "match_over") {
    events.forEach((event, index) => {
      if (event.type === "round_won" || event.type === "round_void") lastEnd = index;
    });
  }
  return events.map((event, index) => {
    let out = event;
    if (event.type === "discarded") {
      const following = events[index + 1];
      let why;
      if (following && following.type === "completed") {
        why = { reason: "complete" };
      } else {
        const board = state.boards[event.seat];
        why = discardWhy(state.rules, event.card,
          board.cards.map((card, i) => (board.up[i] ? card : null)));
      }
      if (why !== null) out = { ...event, why };
    }
    if (index === lastEnd) {
      out = { ...out, revealed: state.boards.map((board) => board.cards.map(
        (card, i) => (board.up[i] ? null : card))) };
    }
    return out;
  });
}

// -- chance: Python's random.Random, exactly ----------------------------------------------

/** Mersenne Twister MT19937 seeded and drawn as CPython's random.Random (int seeds). */
export class PyRandom {
  /** @param {number|bigint} [seed] */
  constructor(seed = 0) {
    this.mt = new Uint32Array(624);
    this.index = 624;
    this.seed(seed);
  }

  initGenrand(s) {
    const mt = this.mt;
    mt[0] = s >>> 0;
    for (let i = 1; i < 624; i += 1) {
      const prev = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = (Math.imul(1812433253, prev) + i) >>> 0;
    }
    this.index = 624;
  }

  /** random.seed(n) for a non-negative integer n (a Number or a BigInt).
   *  @param {number|bigint} n */
  seed(n) {
    let big = BigInt(n);
    if (big < 0n) big = -big;
    const key = [];
    while (big > 0n) { key.push(Number(big & 0xffffffffn)); big >>= 32n; }
    if (!key.length) key.push(0);
    this.initGenrand(19650218);
    const mt = this.mt;
    let i = 1;
    let j = 0;
    for (let k = Math.max(624, key.length); k > 0; k -= 1) {
      const prev = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = ((mt[i] ^ Math.imul(prev, 1664525)) + key[j] + j) >>> 0;
      i += 1; j += 1;
      if (i >= 624) { mt[0] = mt[623]; i = 1; }
      if (j >= key.length) j = 0;
    }
    for (let k = 623; k > 0; k -= 1) {
      const prev = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = ((mt[i] ^ Math.imul(prev, 1566083941)) - i) >>> 0;
      i += 1;
      if (i >= 624) { mt[0] = mt[623]; i = 1; }
    }
    mt[0] = 0x80000000;
    this.index = 624;
  }

  uint32() {
    const mt = this.mt;
    if (this.index >= 624) {
      for (let k = 0; k < 624; k += 1) {
        const y = (mt[k] & 0x80000000) | (mt[(k + 1) % 624] & 0x7fffffff);
        mt[k] = mt[(k + 397) % 624] ^ (y >>> 1) ^ (y & 1 ? 0x9908b0df : 0);
      }
      this.index = 0;
    }
    let y = mt[this.index];
    this.index += 1;
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  }

  /** random.random(): 53 random bits in [0, 1). */
  random() {
    const a = this.uint32() >>> 5;
    const b = this.uint32() >>> 6;
    return (a * 67108864 + b) / 9007199254740992;
  }

  /** random.getrandbits(k) for 0 < k ≤ 32. */
  getrandbits(k) { return this.uint32() >>> (32 - k); }

  /** random._randbelow(n) for 0 < n < 2**32. */
  randbelow(n) {
    const k = 32 - Math.clz32(n);  // n.bit_length()
    let r = this.getrandbits(k);
    while (r >= n) r = this.getrandbits(k);
    return r;
  }

  /** random.shuffle(list), in place. */
  shuffle(list) {
    for (let i = list.length - 1; i > 0; i -= 1) {
      const j = this.randbelow(i + 1);
      [list[i], list[j]] = [list[j], list[i]];
    }
    return list;
  }
}

/** The chance move that is due, decided by rng (trashcards.chance.sample_chance). */
export function sampleChance(state, rng) {
  const due = chanceDue(state);
  if (due === "dealer") {
    let contenders = state.names.map((_, seat) => seat);
    const cuts = [];
    for (;;) {
      const pack = rng.shuffle([...PACK]);
      const drawn = contenders.map((seat, i) => [seat, pack[i]]);
      cuts.push(...drawn);
      const low = Math.min(...drawn.map(([, card]) => rankOf(card)));
      contenders = drawn.filter(([, card]) => rankOf(card) === low).map(([seat]) => seat);
      if (contenders.length === 1) return { seat: null, verb: "dealer", dealer: contenders[0], cuts };
    }
  }
  if (due === "deck") {
    return { seat: null, verb: "deck", cards: rng.shuffle(matchCards(state.rules, state.names.length)) };
  }
  if (due === "reshuffle" || due === "penalty_reshuffle") {
    return { seat: null, verb: "reshuffle", cards: rng.shuffle(state.discard.slice(0, -1)) };
  }
  throw new Error("no chance move is due");
}
