// The expert on this device under Node (docs/offline.md): the time of its decisions
// (local/hint.js expertChoice, 16 deals per action then up to 48 on the contested pair),
// as seat 1 of a seeded match against the "good" computer, and the ratio to a hint's
// default 0.5 s budget. Speed is printed, never asserted; note the load beside it.
//
//     node benchmarks/js_expert.mjs [preset=standard] [seed=7]

import * as engine from "../src/trashcards/web/static/js/local/engine.js";
import { decide } from "../src/trashcards/web/static/js/local/bots.js";
import { expertChoice } from "../src/trashcards/web/static/js/local/hint.js";

const preset = process.argv[2] || "standard";
const seed = Number(process.argv[3] || 7);
const rules = engine.makeRules({ preset });
const rng = new engine.PyRandom(seed);
let state = engine.newMatch(rules, ["good", "expert"]);
const times = [];
for (let moves = 0; moves < 400 && state.phase !== "match_over"; moves += 1) {
  const seat = engine.toAct(state);
  let move;
  if (seat === null) {
    move = engine.sampleChance(state, rng);
  } else if (seat === 1) {
    const view = engine.view(state, seat);
    const started = performance.now();
    move = expertChoice(view, rules, rng);
    if (view.legal.length > 1 && !view.legal.includes("call")) {
      times.push(performance.now() - started);
    }
  } else {
    move = decide("greedy", engine.view(state, seat), rng, rules);
  }
  state = engine.apply(state, move, seat).state;
}
times.sort((a, b) => a - b);
const mean = times.reduce((a, b) => a + b, 0) / times.length;
console.log(`${preset}, seed ${seed}: ${times.length} searched decisions of the expert, `
  + `mean ${mean.toFixed(0)} ms, median ${times[times.length >> 1].toFixed(0)} ms, `
  + `max ${times[times.length - 1].toFixed(0)} ms (mean / 500 ms hint budget: `
  + `${(mean / 500).toFixed(2)})`);
