// The coach on this device (static/js/local/coach.js, local/review.js) against the
// Python coach (trashcards.ai.compare, .reasons, .review) on the same made-up outcomes:
// the same ranking, ties, paired intervals, reasons, judgements and whole reviews. The
// cases are written by tests/web/jscoach.py (run from tests/web/test_js_coach.py, which
// passes their file in TRASH_COACH_CASES); without it this file checks nothing.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as engine from "../../../src/trashcards/web/static/js/local/engine.js";
import { decide } from "../../../src/trashcards/web/static/js/local/bots.js";
import { comparisonOf, confirmPaired, decisionJson, extraDeals, hintJson, plannedLooks,
  sampleAdaptively, verdict } from "../../../src/trashcards/web/static/js/local/coach.js";
import { hint } from "../../../src/trashcards/web/static/js/local/hint.js";
import { localReview, positionsOf, reviewRecord }
  from "../../../src/trashcards/web/static/js/local/review.js";

const FILE = process.env.TRASH_COACH_CASES;
const cases = FILE ? readFileSync(FILE, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l))
  : [];
const SAMPLES = 16;
const EXTRA = 200;
const BATCH = 16;

/** -0 is 0 (Python writes -0.0 where JavaScript's JSON writes 0). */
const norm = (value) => JSON.parse(JSON.stringify(value, (_k, v) => (Object.is(v, -0) ? 0 : v)));

function drawFrom(table) {
  return (actions, start, count) => actions.map((a) => ({
    match: table[a].match.slice(start, start + count),
    round: table[a].round.slice(start, start + count),
  }));
}

function compared(view, rules, table) {
  const data = sampleAdaptively(view.legal, view.to_act, drawFrom(table), SAMPLES, EXTRA, BATCH);
  return comparisonOf(view, view.legal, data, decide("greedy", view, null, rules),
    plannedLooks(EXTRA, BATCH));
}

function checker(view, fresh, taken) {
  const seat = view.to_act;
  return (versus) => confirmPaired((start, count) => [
    fresh[versus].match.slice(start, start + count).map((m) => m[seat]),
    fresh[taken].match.slice(start, start + count).map((m) => m[seat])], 2 * SAMPLES, EXTRA, BATCH);
}

test("hints: the same best, ties, chances, paired intervals and reasons", () => {
  const hints = cases.filter((c) => c.kind === "hint");
  const codes = new Set();
  for (const [i, item] of hints.entries()) {
    const rules = engine.makeRules(item.rules);
    const found = compared(item.view, rules, item.outcomes);
    const answer = hintJson(item.view, rules, found);
    assert.deepEqual(norm(answer), norm(item.hint), `case ${i}`);
    for (const line of answer.actions) codes.add(line.reason.code);
    const judged = verdict(item.view, item.taken, found, checker(item.view, item.fresh, item.taken),
      0.005, item.missed);
    assert.deepEqual(norm(decisionJson(judged)), norm(item.decision), `decision of case ${i}`);
  }
  console.log(`checked hint ${hints.length} cases, ${codes.size} reason codes`);
});

test("confirmations: the same sequential interval", () => {
  const items = cases.filter((c) => c.kind === "confirm");
  for (const [i, item] of items.entries()) {
    const got = confirmPaired((s, c) => [item.a.slice(s, s + c), item.b.slice(s, s + c)],
      item.samples, item.extra, item.batch);
    assert.equal(got.n, item.paired.n, `case ${i}`);
    for (const key of ["mean", "low", "high"]) {
      assert.ok(Math.abs(got[key] - item.paired[key]) < 1e-12, `case ${i} ${key}`);
    }
  }
  console.log(`checked confirm ${items.length} cases`);
});

test("budgets: the same extra deals for each number of moves", () => {
  const items = cases.filter((c) => c.kind === "budget");
  for (const [i, item] of items.entries()) {
    assert.equal(extraDeals(item.samples, item.moves), item.extra, `case ${i}`);
  }
  console.log(`checked budget ${items.length} cases`);
});

test("reviews: the same decisions, curve and summaries", () => {
  const items = cases.filter((c) => c.kind === "review");
  for (const [i, item] of items.entries()) {
    const rules = engine.makeRules(item.record.rules);
    const judge = (view, taken, index, missed) => {
      const tables = item.tables[String(index)];
      const found = compared(view, rules, tables.outcomes);
      return [verdict(view, taken, found, checker(view, tables.fresh, taken), 0.005, missed), found];
    };
    const got = reviewRecord(item.record, judge, { samples: SAMPLES, horizon: item.review.horizon,
      engine: item.review.engine });
    assert.deepEqual(norm(got), norm(item.review), `review ${i}`);
  }
  console.log(`checked review ${items.length} cases`);
});

test("a review on this device: the server's positions, every decision judged from deals", () => {
  const items = cases.filter((c) => c.kind === "review");
  const sizes = items.map((item) => item.review.decisions.length);
  for (const [i, item] of items.entries()) {
    assert.deepEqual(positionsOf(item.record), item.positions, `positions of review ${i}`);
    if (sizes[i] !== Math.min(...sizes)) continue;  // one whole review here is enough
    const seen = [];
    const text = JSON.stringify(item.record);
    const got = localReview(text, { budgetMs: 1, progress: (done, total) => seen.push([done, total]) });
    const total = item.review.decisions.length;
    assert.equal(got.engine, "local");
    assert.equal(got.horizon, "match");
    assert.deepEqual(got.positions, item.positions);
    assert.deepEqual(got.decisions.map((d) => [d.move, d.seat, d.taken]),
      item.review.decisions.map((d) => [d.move, d.seat, d.taken]));
    assert.deepEqual(seen.at(-1), [total, total]);
    assert.ok(got.samples >= 8, "at least 8 deals per decision");
    for (const d of got.decisions) {
      assert.ok(d.options >= 2);
      // Only confirmed mistakes: a fresh interval above 0 and a cost of at least 0.5 points.
      if (d.kind === "mistake") assert.ok(d.cost_ci[0] > 0 && d.cost >= 0.005, JSON.stringify(d));
      if (d.kind === "ok") assert.equal(d.cost, 0);
      assert.equal(d.equal_to_best, d.tied.includes(d.taken));
    }
    assert.deepEqual(got.summary.map((s) => s.decisions).reduce((a, b) => a + b, 0), total);
    assert.equal(got.winner, item.review.winner);
    assert.deepEqual(localReview(text, { budgetMs: 1 }).decisions, got.decisions,
      "the same record, seed and deals give the same review");
  }
  console.log(`checked local-review ${items.length} cases`);
});

test("a hint on this device depends on the seat's view only, not on the hidden cards", () => {
  const rules = engine.makeRules({ preset: "kids", call_trash: true });
  const rng = new engine.PyRandom(11);
  let state = engine.newMatch(rules, ["a", "b"]);
  let checked = 0;
  for (let n = 0; n < 400 && checked < 6 && state.phase !== "match_over"; n += 1) {
    const seat = engine.toAct(state);
    if (seat !== null && n % 5 === 0 && engine.legalActions(state).length > 1) {
      // The same view with the face-down cards and the stock dealt otherwise.
      const view = engine.view(state, seat);
      const other = { ...state, stock: [...state.stock], boards: state.boards.map((b) => ({ ...b,
        cards: [...b.cards], up: [...b.up] })) };
      const hidden = [...other.stock];
      for (const b of other.boards) b.cards.forEach((c, i) => { if (!b.up[i]) hidden.push(c); });
      new engine.PyRandom(n).shuffle(hidden);
      let next = 0;
      for (const b of other.boards) b.cards.forEach((_, i) => { if (!b.up[i]) b.cards[i] = hidden[next++]; });
      if (!state.stock_public) other.stock = hidden.slice(next);
      assert.deepEqual(engine.view(other, seat), view);
      assert.notDeepEqual(other.boards.map((b) => b.cards), state.boards.map((b) => b.cards));
      const options = { seed: 5, samples: 8, extra: 16, budgetMs: Infinity };
      assert.deepEqual(hint(engine.view(other, seat), rules, null, options),
        hint(view, rules, null, options));
      checked += 1;
    }
    const move = seat === null ? engine.sampleChance(state, rng)
      : decide("greedy", engine.view(state, seat), rng, rules);
    state = engine.apply(state, move, seat).state;
  }
  assert.ok(checked >= 3);
});
