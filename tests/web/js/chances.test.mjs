// The win-chance bar on this device (static/js/local/chances.js): computed from the public
// view only (other face-down cards and another stock order give the same answer for a
// seed), every seat's match chances sum to 1 (and the bar's whole percentages to 100),
// repeatable with a seed, sent as the server's `chances` frame marked coarser, and never
// sent once the table has moved on. Run by tests/web/test_js_engine.py.

import { test } from "node:test";
import assert from "node:assert/strict";
import * as engine from "../../../src/trashcards/web/static/js/local/engine.js";
import { decide } from "../../../src/trashcards/web/static/js/local/bots.js";
import {
  LOCAL_COARSE, chancesFrame, chancesOf, computeInSlices,
} from "../../../src/trashcards/web/static/js/local/chances.js";
import { shares } from "../../../src/trashcards/web/static/js/winbar.js";

/** Positions of seeded matches, every `every`-th move: decisions, the pauses between
 *  rounds and the end of the match. */
function positions(count, every = 9) {
  const out = [];
  const presets = ["standard", "kids", "jokers", "call-trash", "last-chance"];
  for (let seed = 0; out.length < count; seed += 1) {
    const crowded = seed % 5 === 4;  // four players on one pack: reshuffles
    const rules = engine.makeRules({ preset: presets[seed % presets.length], rounds_to_win: 2,
      ...(crowded ? { decks: 1 } : {}) });
    const rng = new engine.PyRandom(seed);
    let state = engine.newMatch(rules, ["a", "b", "c", "d"].slice(0, crowded ? 4 : 2 + (seed % 3)));
    for (let n = 0; n < 3000; n += 1) {
      const seat = engine.toAct(state);
      if ((seat !== null && n % every === 0) || state.phase === "round_over"
          || state.phase === "match_over") {
        out.push([rules, state]);
      }
      if (state.phase === "match_over") break;
      const move = seat === null ? engine.sampleChance(state, rng)
        : decide("greedy", engine.view(state, seat), rng, rules);
      state = engine.apply(state, move, seat).state;
    }
  }
  return out.slice(0, count);
}

/** `state` with its hidden cards dealt again: the face-down cards (and, while the stock's
 *  content is not public, the stock) shuffled together, the stock's order shuffled. */
function redealHidden(state, rng) {
  const copy = structuredClone(state);
  const slots = [];
  copy.boards.forEach((board, b) => board.up.forEach((up, i) => { if (!up) slots.push([b, i]); }));
  const down = slots.map(([b, i]) => copy.boards[b].cards[i]);
  let pool = copy.stock_public ? down : [...down, ...copy.stock];
  pool = rng.shuffle([...pool]);
  slots.forEach(([b, i], k) => { copy.boards[b].cards[i] = pool[k]; });
  copy.stock = copy.stock_public ? rng.shuffle([...copy.stock]) : pool.slice(slots.length);
  return copy;
}

test("the chances read the public view only: other hidden cards, the same answer", () => {
  const rng = new engine.PyRandom(99);
  let changed = 0;
  for (const [rules, state] of positions(40)) {
    if (state.phase !== "draw" && state.phase !== "swap" && state.phase !== "wild") continue;
    const other = redealHidden(state, rng);
    assert.deepEqual(engine.view(other, null), engine.view(state, null));
    if (JSON.stringify(other) === JSON.stringify(state)) continue;
    changed += 1;
    assert.deepEqual(chancesOf(other, rules, new engine.PyRandom(7), 6),
      chancesOf(state, rules, new engine.PyRandom(7), 6));
  }
  assert.ok(changed >= 20, `only ${changed} positions had hidden cards to change`);
});

test("every seat's match chances sum to 1 and repeat with a seed", () => {
  const sources = new Set();
  for (const [rules, state] of positions(60, 13)) {
    const found = chancesOf(state, rules, new engine.PyRandom(3), 5);
    if (found === null) continue;
    sources.add(found.source);
    const players = state.names.length;
    assert.equal(found.match_win.length, players);
    assert.ok(Math.abs(found.match_win.reduce((a, b) => a + b, 0) - 1) < 1e-9);
    assert.ok(found.match_win.every((p) => p >= 0 && p <= 1));
    if (found.round_win !== null) {
      assert.equal(found.round_win.length, players);
      assert.ok(found.round_win.every((p) => p >= 0 && p <= 1));
    }
    assert.deepEqual(chancesOf(state, rules, new engine.PyRandom(3), 5), found);
    const frame = chancesFrame(found, 12, 5);
    assert.equal(shares(frame.match_win, found.source === "final").reduce((a, b) => a + b, 0), 100);
    if (state.phase === "match_over") {
      assert.equal(found.source, "final");
      assert.equal(found.match_win[state.match_winner], 1);
    }
  }
  assert.deepEqual([...sources].sort(), ["final", "search"]);
});

test("the frame is the server's chances frame, marked as computed on this device", async () => {
  const [[rules, state]] = positions(1);
  const sent = [];
  computeInSlices(state, rules, new engine.PyRandom(1), 4, (frame) => sent.push(frame),
    () => false, { budgetMs: 0, minSamples: 3 });
  await new Promise((resolve) => { setTimeout(resolve, 50); });
  assert.equal(sent.length, 1);
  const [frame] = sent;
  assert.deepEqual(Object.keys(frame).sort(),
    ["coarse", "engine", "match_win", "round_win", "samples", "source", "type", "version"]);
  assert.equal(frame.type, "chances");
  assert.equal(frame.version, 4);
  assert.equal(frame.coarse, LOCAL_COARSE);
  assert.equal(frame.engine, "local");
  assert.ok(frame.samples >= 3);
});

test("chances for a version the table has left are never sent", async () => {
  const [[rules, state]] = positions(1);
  const sent = [];
  let slices = 0;
  computeInSlices(state, rules, new engine.PyRandom(1), 4, (frame) => sent.push(frame),
    () => { slices += 1; return slices > 2; }, { budgetMs: 1000, sliceMs: 1, minSamples: 400 });
  await new Promise((resolve) => { setTimeout(resolve, 200); });
  assert.deepEqual(sent, []);
  assert.ok(slices >= 3);
});
