// Hints on this device (docs/offline.md): from a seat's view only, every legal action's
// chance of winning the match and the round, estimated as the server's reference engine
// does (trashcards.deals.sample_state, then everyone plays like the "good" computer to the
// end) but with far fewer deals, within a time budget: coarser, and labelled so.

import * as engine from "./engine.js";
import { decide } from "./bots.js";

function counts(cards) {
  const out = new Map();
  for (const card of cards) out.set(card, (out.get(card) || 0) + 1);
  return out;
}

function minus(all, taken) {
  const left = counts(all);
  for (const card of taken) {
    const n = left.get(card) || 0;
    if (n <= 0) throw new Error("the view shows more of a card than the match has");
    left.set(card, n - 1);
  }
  const out = [];
  for (const [card, n] of left) for (let i = 0; i < n; i += 1) out.push(card);
  return engine.sortCards(out);
}

/** The cards not in sight: every card less the face-up ones, the discards and the hand. */
export function unseenCards(view, rules) {
  const seen = [...view.discard];
  for (const player of view.players) {
    for (const slot of player.slots) if (slot.up) seen.push(slot.card);
  }
  if (view.in_hand !== null) seen.push(view.in_hand);
  return minus(engine.matchCards(rules, view.players.length), seen);
}

/** A full state drawn uniformly among those that agree with `view` (a decision's view):
 *  trashcards.deals.sample_state. */
export function sampleState(view, rules, rng) {
  const unseen = unseenCards(view, rules);
  const hidden = view.players.reduce((n, p) => n + p.slots.filter((s) => !s.up).length, 0);
  let down;
  let stock;
  if (view.stock_known === null) {
    const cards = rng.shuffle([...unseen]);
    down = cards.slice(0, hidden);
    stock = cards.slice(hidden);
  } else {
    down = rng.shuffle(minus(unseen, view.stock_known));
    stock = rng.shuffle([...view.stock_known]);
  }
  let next = 0;
  const boards = view.players.map((player) => ({
    size: player.board_size,
    cards: player.slots.map((slot) => (slot.up ? slot.card : down[next++])),
    up: player.slots.map((slot) => slot.up),
  }));
  return {
    rules, names: view.players.map((p) => p.name), phase: view.phase, due: null,
    round: view.round, dealer: view.dealer, turn: view.to_act, in_hand: view.in_hand,
    stock, discard: [...view.discard], boards,
    rounds_won: view.players.map((p) => p.rounds_won), called: view.called,
    must_play: view.in_hand !== null && !view.legal.includes("trash"),
    unclaimed: [...view.unclaimed], final_from: view.final_from,
    round_winners: [...view.round_winners], match_winner: view.match_winner,
    stock_public: view.stock_known !== null,
  };
}

/** Play `state` out with the greedy bot for every seat: [won the round, won the match]. */
function playOut(state, seat, rng) {
  let roundWon = null;
  const round = state.round;
  for (let moves = 0; moves < 20000; moves += 1) {
    if (roundWon === null && (state.phase === "round_over" || state.phase === "match_over"
        || state.round !== round)) {
      roundWon = state.round_winners.includes(seat) && state.round === round;
    }
    if (state.phase === "match_over") break;
    const actor = engine.toAct(state);
    const move = actor === null ? engine.sampleChance(state, rng)
      : decide("greedy", engine.view(state, actor), rng, state.rules);
    state = engine.apply(state, move, actor).state;
  }
  return [Boolean(roundWon), state.match_winner === seat];
}

function interval(wins, n) {
  const p = wins / n;
  const half = 1.96 * Math.sqrt((p * (1 - p)) / n);
  return [Math.max(0, p - half), Math.min(1, p + half)];
}

/** The hint frame's fields for the seat to act of `view`: at least `minSamples` deals,
 *  more while `budgetMs` lasts, at most `maxSamples`; the same deal and chance stream
 *  for every action (common random numbers). */
export function hint(view, rules, rng, { budgetMs = 500, minSamples = 8, maxSamples = 400 } = {}) {
  const seat = view.to_act;
  const actions = view.legal;
  const tally = actions.map(() => ({ round: 0, match: 0 }));
  const started = performance.now();
  let samples = 0;
  while (samples < maxSamples
         && (samples < minSamples || performance.now() - started < budgetMs)) {
    const base = sampleState(view, rules, rng);
    const chanceSeed = rng.uint32();
    actions.forEach((action, i) => {
      const after = engine.apply(base, action, seat).state;
      const [round, match] = playOut(after, seat, new engine.PyRandom(chanceSeed));
      tally[i].round += round;
      tally[i].match += match;
    });
    samples += 1;
  }
  const lines = actions.map((action, i) => ({
    action, match_win: tally[i].match / samples, match_win_ci: interval(tally[i].match, samples),
    round_win: tally[i].round / samples, round_win_ci: interval(tally[i].round, samples),
    reason: "",
  }));
  lines.sort((a, b) => b.match_win - a.match_win || b.round_win - a.round_win);
  return { best: lines[0].action, samples, engine: "local", actions: lines };
}
