// The browser's rules engine against the Python engine (docs/offline.md). Run by
// tests/web/test_js_engine.py: `node --test` with TRASH_CORPUS naming the JSON-lines file
// of trashcards records and the Python engine's digests (tests/web/jscorpus.py).
//
// For every record: the JS engine replays it and, at every move (or the last one), the
// digest of {events, revealed state, view} must be the Python one. For the chance moves,
// the JS port of random.Random seeded as the Python side draws the same cut and decks;
// for the records of the local bots, each bot decides the recorded action from the view
// and its own seeded stream.

import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import * as engine from "../../../src/trashcards/web/static/js/local/engine.js";
import { decide } from "../../../src/trashcards/web/static/js/local/bots.js";

const lines = readFileSync(process.env.TRASH_CORPUS, "utf8").split("\n").filter(Boolean);
const items = lines.map((line) => JSON.parse(line));

function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

function digest(state, events, index) {
  const seat = engine.toAct(state) ?? index % state.names.length;
  const text = canonical({ events: engine.eventsJson(events, state),
    state: engine.revealed(state), view: engine.view(state, seat) });
  return createHash("sha256").update(text).digest("hex").slice(0, 16);
}

function replay(item) {
  const rules = engine.makeRules(item.record.rules);
  let state = engine.newMatch(rules, item.record.players);
  const moves = item.record.moves;
  const chance = item.seed === undefined ? null : new engine.PyRandom(item.seed);
  const bots = item.bots ? item.bots.map((_, s) => new engine.PyRandom(item.seed * 10 + s)) : null;
  moves.forEach((text, index) => {
    const move = engine.parseMove(text);
    if (chance && engine.chanceDue(state) !== null && engine.toAct(state) === null) {
      const drawn = engine.sampleChance(state, chance);
      assert.equal(engine.moveText(drawn), engine.moveText(move),
        `${item.kind} ${item.seed}: chance move ${index}`);
      if (drawn.cuts) move.cuts = drawn.cuts;
    }
    if (bots && engine.toAct(state) !== null) {
      const seat = engine.toAct(state);
      const choice = decide(item.bots[seat], engine.view(state, seat), bots[seat], rules);
      assert.equal(choice, engine.moveText(move),
        `bots ${item.seed}: ${item.bots[seat]} at move ${index}`);
    }
    const done = engine.apply(state, move, move.seat);
    state = done.state;
    if (!item.last || index === moves.length - 1) {
      const want = item.last ? item.digests[0] : item.digests[index];
      assert.equal(digest(state, done.events, index), want,
        `${item.kind} ${item.name ?? item.seed}: move ${index} (${text})`);
    }
  });
  return moves.length;
}

for (const kind of ["golden", "random", "bots"]) {
  test(`the ${kind} records replay to the Python engine's states`, () => {
    const mine = items.filter((item) => item.kind === kind);
    assert.ok(mine.length > 0, `no ${kind} records`);
    let moves = 0;
    for (const item of mine) moves += replay(item);
    console.log(`checked ${kind} ${mine.length} records ${moves} moves`);
  });
}

test("an illegal move is refused and changes nothing", () => {
  const rules = engine.makeRules({ preset: "standard" });
  const state = engine.newMatch(rules, ["A", "B"]);
  assert.throws(() => engine.apply(state, "stock"), engine.IllegalMove);
  assert.throws(() => engine.apply(state, "deck As"), engine.IllegalMove);
  const cut = engine.apply(state, "dealer 1").state;
  assert.equal(state.dealer, null);
  assert.equal(cut.dealer, 1);
});
