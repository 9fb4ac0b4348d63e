// @ts-check
// A game review on this device (docs/offline.md): what POST /api/review answers
// (trashcards.ai.review.review and trashcards.web.advice.review_message), computed here
// for a record the page holds (a local table's, or any record when the server cannot be
// reached), so the Review page renders it unchanged. Each decision is judged from the
// view of the player to act, by the coach of local/coach.js on deals of this device
// (local/hint.js), with the server's rule: a move is a mistake only when a confirmation
// on fresh deals measures its cost above zero and at least THRESHOLD (above zero but
// under it: a small loss). Far fewer deals
// than a server's, and no match-odds table (positions are played to the end of the
// match): coarser, and `engine: "local"` says so.

import * as engine from "./engine.js";
import { confirmPaired, decisionJson, pyRound, THRESHOLD, verdict } from "./coach.js";
import { Deals, FRESH, LOCAL_BATCH, localCompare } from "./hint.js";

/** Deals (per selection deal) the confirmation may add (trashcards.ai.review). */
export const CONFIRM_EXTRA = 6;
/** How many luck swings each summary lists. */
export const TOP = 3;
/** A review's time on this device, in all, and a decision's at most (a hint's budget). */
export const REVIEW_BUDGET_MS = 60000;
export const DECISION_BUDGET_MS = 500;

/** A parsed trash/1 record's states: [state before move i, move, state after, events]. */
function* steps(record) {
  const rules = engine.makeRules(record.rules);
  let state = engine.newMatch(rules, record.players);
  for (const text of record.moves) {
    const move = engine.parseMove(String(text));
    const done = engine.apply(state, move, move.seat);
    yield [state, move, done.state];
    state = done.state;
  }
}

function swingsOf(points, players) {
  const out = [];
  for (let i = 1; i < points.length; i += 1) {
    const prev = points[i - 1];
    const next = points[i];
    for (let seat = 0; seat < players; seat += 1) {
      out.push({ seat, start: prev.move, end: next.move, round: next.round,
        change: next.before[seat] - prev.after[seat] });
    }
  }
  return out;
}

function compareKeys(x, y) {
  for (let i = 0; i < x.length; i += 1) if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
  return 0;
}

function summaryOf(seat, name, decisions, swings) {
  const mine = decisions.filter((d) => d.seat === seat);
  const mistakes = mine.filter((d) => d.kind === "mistake" || d.kind === "missed_call").length;
  const small = mine.filter((d) => d.kind === "small_loss").length;
  const losses = mine.filter((d) => d.kind !== "ok");
  const largest = [...losses].sort((a, b) => compareKeys([-a.cost, a.move], [-b.cost, b.move]))[0];
  const luck = swings.filter((s) => s.seat === seat)
    .sort((a, b) => compareKeys([-Math.abs(a.change), a.start], [-Math.abs(b.change), b.start]))
    .slice(0, TOP);
  const matched = mine.length - mistakes - small;
  return {
    seat, name, decisions: mine.length, mistakes, small_losses: small, matched,
    matched_share: mine.length ? pyRound(matched / mine.length, 4) : 1,
    largest_loss: largest === undefined ? null : {
      move: largest.move, kind: largest.kind, exact: largest.exact,
      cost: pyRound(largest.cost, 4), cost_ci: largest.cost_ci.map((v) => pyRound(v, 4)) },
    luck: luck.map((s) => ({ seat: s.seat, from_move: s.start, to_move: s.end, round: s.round,
      change: pyRound(s.change, 4) })),
  };
}

/** The decisions with a choice of a record: their move indices. */
export function decisionsOf(record) {
  const out = [];
  let index = 0;
  for (const [state] of steps(record)) {
    const seat = engine.toAct(state);
    if (seat !== null && engine.view(state, seat).legal.length > 1) out.push(index);
    index += 1;
  }
  return out;
}

/** The review of `record` (a parsed trash/1 object) as trashcards.ai.review.Review.to_json
 *  without a match-odds table: `judge(view, taken, index, missedCall)` → [decision,
 *  comparison] judges each decision from the view of the player to act; `progress(done,
 *  total)` after each. */
export function reviewRecord(record, judge, { samples = 0, seed = 0, horizon = "match",
  engine: used = "local", progress = null } = {}) {
  const players = record.players.length;
  const total = decisionsOf(record).length;
  const decisions = [];
  const points = [];
  let last = null;
  let index = 0;
  for (const [state, move, after] of steps(record)) {
    const seat = engine.toAct(state);
    if (seat !== null && engine.view(state, seat).legal.length > 1) {
      const seatView = engine.view(state, seat);
      const taken = engine.moveText(move);
      const missed = after.unclaimed.includes(seat) && !state.unclaimed.includes(seat);
      const [decision, found] = judge(seatView, taken, index, missed);
      decision.move = index;
      decisions.push(decision);
      points.push({ move: index, round: state.round, decision: true,
        before: found.values[found.best].match_wins, after: found.values[taken].match_wins });
      if (progress) progress(decisions.length, total);
    }
    if (after.phase === "match_over") {
      const final = record.players.map((_, s) => (s === after.match_winner ? 1 : 0));
      points.push({ move: index, round: after.round, decision: false, before: final, after: final });
    }
    last = after;
    index += 1;
  }
  const swings = swingsOf(points, players);
  return {
    players: [...record.players], winner: last ? last.match_winner : null, samples, seed,
    horizon, engine: used,
    summary: record.players.map((name, seat) => summaryOf(seat, name, decisions, swings)),
    decisions: decisions.map(decisionJson),
    curve: points.map((p) => ({ move: p.move, round: p.round, decision: p.decision,
      before: p.before.map((v) => pyRound(v, 4)), after: p.after.map((v) => pyRound(v, 4)) })),
    notes: [],
  };
}

/** The spectators' view before the first move and after every move (review_message's
 *  `positions`). */
export function positionsOf(record) {
  const rules = engine.makeRules(record.rules);
  const out = [engine.view(engine.newMatch(rules, record.players), null)];
  for (const [, , after] of steps(record)) out.push(engine.view(after, null));
  return out;
}

/** A decision judged on this device: the selection by the coach on deals of `seed`, the
 *  confirmation on fresh deals (twice the selection's, then up to CONFIRM_EXTRA times
 *  more in batches), each within `budgetMs` (a hint's budget at most). */
export function localJudge(rules, seed, budgetMs, { minSamples = 8, maxSamples = 400 } = {}) {
  return (view, taken, index, missed) => {
    const at = BigInt(seed) * 1000003n + BigInt(index);
    const { comparison, first } = localCompare(view, rules, at,
      { budgetMs, minSamples, maxSamples });
    const fresh = new Deals(view, rules, at);
    const seat = view.to_act;
    const started = performance.now();
    const check = (versus) => confirmPaired((start, count) => {
      const [a, b] = fresh.draw([versus, taken], FRESH + start, count);
      return [a.match.map((m) => m[seat]), b.match.map((m) => m[seat])];
    }, 2 * first, CONFIRM_EXTRA * first, LOCAL_BATCH,
    () => performance.now() - started < budgetMs);
    return [verdict(view, taken, comparison, check, THRESHOLD, missed), comparison];
  };
}

/** POST /api/review's answer for the record `text`, computed on this device: the review
 *  and the positions, `engine: "local"`. `budgetMs` is the review's time in all: a
 *  decision gets its share, at most a hint's budget (and at least 8 deals). Throws on a
 *  record that is not legal. */
export function localReview(text, { budgetMs = REVIEW_BUDGET_MS, seed = 0, progress = null } = {}) {
  const record = JSON.parse(text);
  if (record.format !== "trash/1" || !Array.isArray(record.moves)) {
    throw new Error("not a trash/1 record");
  }
  const rules = engine.makeRules(record.rules ?? {});
  const positions = positionsOf(record);  // checks every move
  const count = Math.max(1, decisionsOf(record).length);
  const each = Math.min(DECISION_BUDGET_MS, budgetMs / count / 2);
  let smallest = Infinity;
  const judge = localJudge(rules, seed, each);
  const counted = (view, taken, index, missed) => {
    const out = judge(view, taken, index, missed);
    smallest = Math.min(smallest, out[1].samples);
    return out;
  };
  const review = reviewRecord(record, counted, { seed, progress });
  review.samples = Number.isFinite(smallest) ? smallest : 0;
  return { ...review, positions };
}
