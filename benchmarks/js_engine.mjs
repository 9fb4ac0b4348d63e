// Microseconds per move of the browser's rules engine (static/js/local/engine.js) under
// Node, replaying a golden record many times: the figure docs/offline.md sets against
// Pyodide running the Python engine (benchmarks/pyodide_probe.mjs).
//
//     node benchmarks/js_engine.mjs [tests/data/lastchance-calltrash-jokers-4p.trash.json]

import { readFileSync } from "node:fs";
import * as engine from "../src/trashcards/web/static/js/local/engine.js";

const path = process.argv[2] || new URL("../tests/data/lastchance-calltrash-jokers-4p.trash.json",
  import.meta.url);
const record = JSON.parse(readFileSync(path, "utf8"));
const rules = engine.makeRules(record.rules);
const moves = record.moves.map((text) => engine.parseMove(text));

function replay() {
  let state = engine.newMatch(rules, record.players);
  for (const move of moves) state = engine.apply(state, move, move.seat).state;
  return state;
}

for (let i = 0; i < 200; i += 1) replay();  // warm up
const reps = 2000;
const began = performance.now();
for (let i = 0; i < reps; i += 1) replay();
const elapsed = performance.now() - began;
console.log(JSON.stringify({ moves: moves.length, per_move_us: (elapsed * 1000) / reps / moves.length }));
