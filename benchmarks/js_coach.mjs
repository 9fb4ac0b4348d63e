// The coach on this device under Node (docs/offline.md): a hint's time and deals, how
// often it is a tie, and a whole review's time, on seeded matches of the "good" computer
// against itself.
//
//     node benchmarks/js_coach.mjs [hints=40] [preset=standard]

import * as engine from "../src/trashcards/web/static/js/local/engine.js";
import { decide } from "../src/trashcards/web/static/js/local/bots.js";
import { hint } from "../src/trashcards/web/static/js/local/hint.js";
import { localReview } from "../src/trashcards/web/static/js/local/review.js";
import { recordText } from "../src/trashcards/web/static/js/local/host.js";

const wanted = Number(process.argv[2] || 40);
const preset = process.argv[3] || "standard";

/** A seeded match of greedy against greedy: its record and its decisions with a choice. */
function play(seed) {
  const rules = engine.makeRules({ preset });
  const rng = new engine.PyRandom(seed);
  let state = engine.newMatch(rules, ["a", "b"]);
  const moves = [];
  const decisions = [];
  while (state.phase !== "match_over") {
    const seat = engine.toAct(state);
    let text;
    if (seat === null) {
      const move = engine.sampleChance(state, rng);
      state = engine.apply(state, move).state;
      text = engine.moveText(move);
    } else {
      const view = engine.view(state, seat);
      if (view.legal.length > 1) decisions.push(view);
      text = decide("greedy", view, rng, rules);
      state = engine.apply(state, engine.parseMove(text), seat).state;
      text = `${seat}: ${text}`;
    }
    moves.push(text);
  }
  return { rules, decisions, moves };
}

const quantile = (xs, q) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1,
  Math.floor(q * xs.length))];

const times = [];
const deals = [];
let tied = 0;
for (let seed = 0; times.length < wanted; seed += 1) {
  const { rules, decisions } = play(seed);
  for (const view of decisions.filter((_, i) => i % 9 === 0)) {
    if (times.length >= wanted) break;
    const began = performance.now();
    const answer = hint(view, rules, new engine.PyRandom(seed));
    times.push(performance.now() - began);
    deals.push(answer.samples);
    if (answer.tied.length > 1) tied += 1;
  }
}
const { moves, decisions } = play(1000);
const table = { rules: { preset }, seats: [{ name: "a" }, { name: "b" }], moves };
const began = performance.now();
const review = localReview(recordText(table, true));
const reviewSeconds = (performance.now() - began) / 1000;
console.log(JSON.stringify({
  preset, hints: times.length, hint_ms_p50: quantile(times, 0.5), hint_ms_p95: quantile(times, 0.95),
  hint_ms_max: Math.max(...times), deals_p50: quantile(deals, 0.5), deals_min: Math.min(...deals),
  tied_share: tied / times.length, review_moves: moves.length, review_decisions: decisions.length,
  review_s: reviewSeconds, review_fewest_deals: review.samples,
  review_mistakes: review.summary.map((s) => s.mistakes),
}));
