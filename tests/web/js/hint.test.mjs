// Hints on this device (static/js/local/hint.js): the deals it samples agree with the
// view, hold exactly the match's cards, and its answer ranks every legal action with
// chances and intervals that make sense. Run by tests/web/test_js_engine.py.

import { test } from "node:test";
import assert from "node:assert/strict";
import * as engine from "../../../src/trashcards/web/static/js/local/engine.js";
import { decide } from "../../../src/trashcards/web/static/js/local/bots.js";
import {
  EXPERT_DEALS, expertChoice, hint, sampleState,
} from "../../../src/trashcards/web/static/js/local/hint.js";

/** Decision points of seeded matches: [rules, state] pairs, every `every`-th move, at
 *  most `perMatch` of one match. */
function positions(count, every = 7, perMatch = 60) {
  const out = [];
  const presets = ["standard", "kids", "jokers", "call-trash", "last-chance", "classic"];
  for (let seed = 0; out.length < count; seed += 1) {
    // Every fifth match is four players on one pack: a stock of 12 cards, reshuffled.
    const crowded = seed % 5 === 4;
    const rules = engine.makeRules({ preset: presets[seed % presets.length],
      call_trash: seed % 3 === 0, last_chance: seed % 4 === 0, ...(crowded ? { decks: 1 } : {}) });
    const rng = new engine.PyRandom(seed);
    let state = engine.newMatch(rules, ["a", "b", "c", "d"].slice(0, crowded ? 4 : 2 + (seed % 3)));
    let taken = 0;
    for (let n = 0; n < 2000 && state.phase !== "match_over"; n += 1) {
      const seat = engine.toAct(state);
      if (seat !== null && n % every === 0 && taken < perMatch) {
        out.push([rules, state]);
        taken += 1;
      }
      const move = seat === null ? engine.sampleChance(state, rng)
        : decide(seed % 2 ? "random" : "greedy", engine.view(state, seat), rng, rules);
      state = engine.apply(state, move, seat).state;
    }
  }
  return out.slice(0, count);
}

function allCards(state) {
  const cards = [...state.stock, ...state.discard, ...state.boards.flatMap((b) => b.cards)];
  if (state.in_hand !== null) cards.push(state.in_hand);
  return engine.sortCards(cards);
}

test("a sampled deal agrees with the view and holds the match's cards", () => {
  const rng = new engine.PyRandom(1);
  let reshuffled = 0;
  for (const [rules, state] of positions(800, 11)) {
    const seat = engine.toAct(state);
    const view = engine.view(state, seat);
    const sampled = sampleState(view, rules, rng);
    assert.deepEqual(engine.view(sampled, seat), view);
    assert.deepEqual(allCards(sampled), allCards(state));
    assert.deepEqual(engine.legalActions(sampled), engine.legalActions(state));
    if (view.stock_known !== null) reshuffled += 1;
  }
  assert.ok(reshuffled > 0, "no position after a reshuffle");
});

test("a hint ranks every legal action with sensible chances", () => {
  for (const [rules, state] of positions(30, 31)) {
    const seat = engine.toAct(state);
    const view = engine.view(state, seat);
    const answer = hint(view, rules, new engine.PyRandom(5), { budgetMs: 0, minSamples: 12 });
    assert.equal(answer.samples, 12);
    assert.equal(answer.engine, "local");
    assert.deepEqual(answer.actions.map((a) => a.action).sort(), [...view.legal].sort());
    assert.equal(answer.best, answer.actions[0].action);
    for (const line of answer.actions) {
      for (const [p, [low, high]] of [[line.match_win, line.match_win_ci],
        [line.round_win, line.round_win_ci]]) {
        assert.ok(p >= 0 && p <= 1 && low <= p && p <= high && low >= 0 && high <= 1);
      }
      assert.ok(line.match_win <= line.round_win || rules.target > 1,
        "a one-round match is won with its round");
    }
    // The tie group first (the best leads it), then the measurably worse by chance.
    const tied = answer.actions.filter((a) => a.equal_to_best).map((a) => a.action);
    assert.deepEqual(answer.actions.slice(0, tied.length).map((a) => a.action), tied);
    assert.deepEqual(answer.tied, tied);
    const rest = answer.actions.slice(tied.length);
    for (let i = 1; i < rest.length; i += 1) assert.ok(rest[i - 1].match_win >= rest[i].match_win);
    for (const line of rest) assert.ok(line.match_win <= answer.actions[0].match_win);
    for (const line of answer.actions) assert.equal(typeof line.reason.code, "string");
    const again = hint(view, rules, new engine.PyRandom(5), { budgetMs: 0, minSamples: 12 });
    assert.deepEqual(again, answer);
  }
});

test("a hint sees a board one card from complete: the playable discard wins the round", () => {
  // Seat 0 holds A-9 face up with slot 10 face down; the top discard is a ten.
  const rules = engine.makeRules({ preset: "standard" });
  let state = engine.newMatch(rules, ["a", "b"]);
  state = { ...state, phase: "draw", due: null, dealer: 1, turn: 0,
    boards: [
      { size: 10, cards: ["As", "2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s", "Kh"],
        up: [true, true, true, true, true, true, true, true, true, false] },
      { size: 10, cards: ["Ah", "2h", "3h", "4h", "5h", "6h", "7h", "8h", "9h", "Th"],
        up: [false, false, false, false, false, false, false, false, false, false] }],
    discard: ["Ts"], stock: [] };
  const used = new Set(["As", "2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s", "Kh", "Ah", "2h",
    "3h", "4h", "5h", "6h", "7h", "8h", "9h", "Th", "Ts"]);
  state.stock = engine.matchCards(rules, 2).filter((c) => !used.has(c));
  const answer = hint(engine.view(state, 0), rules, new engine.PyRandom(3),
    { budgetMs: 0, minSamples: 20 });
  assert.equal(answer.best, "discard");
  assert.equal(answer.actions[0].round_win, 1);
});

test("the expert on this device: legal, the same move from the same stream, greedy's unless "
  + "another beats it measurably, the call first", () => {
  let decisions = 0;
  for (const [rules, state] of positions(24, 29)) {
    const seat = engine.toAct(state);
    const view = engine.view(state, seat);
    const move = expertChoice(view, rules, new engine.PyRandom(9));
    assert.ok(view.legal.includes(move), move);
    assert.equal(expertChoice(view, rules, new engine.PyRandom(9)), move);
    if (view.legal.includes("call")) {
      assert.equal(move, "call");
      continue;
    }
    if (view.legal.length === 1) continue;
    decisions += 1;
    const greedy = decide("greedy", view, null, rules);
    const answer = hint(view, rules, new engine.PyRandom(9), { samples: EXPERT_DEALS,
      extra: 3 * EXPERT_DEALS, budgetMs: Infinity });
    assert.equal(move, answer.best);
    if (move !== greedy) assert.ok(!answer.tied.includes(greedy), "left greedy's move on noise");
  }
  assert.ok(decisions >= 6, `only ${decisions} decisions`);
});

test("the expert on this device takes the discard that completes its board", () => {
  const rules = engine.makeRules({ preset: "standard" });
  let state = engine.newMatch(rules, ["a", "b"]);
  state = { ...state, phase: "draw", due: null, dealer: 1, turn: 0,
    boards: [
      { size: 10, cards: ["As", "2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s", "Kh"],
        up: [true, true, true, true, true, true, true, true, true, false] },
      { size: 10, cards: ["Ah", "2h", "3h", "4h", "5h", "6h", "7h", "8h", "9h", "Th"],
        up: [false, false, false, false, false, false, false, false, false, false] }],
    discard: ["Ts"], stock: [] };
  const used = new Set(["As", "2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s", "Kh", "Ah", "2h",
    "3h", "4h", "5h", "6h", "7h", "8h", "9h", "Th", "Ts"]);
  state.stock = engine.matchCards(rules, 2).filter((c) => !used.has(c));
  assert.equal(expertChoice(engine.view(state, 0), rules, new engine.PyRandom(3)), "discard");
});
