// @ts-check
// Hints on this device (docs/offline.md): from a seat's view only, every legal action's
// chance of winning the match and the round, estimated as the server's reference engine
// does (trashcards.deals.sample_state, then everyone plays like the "good" computer to the
// end) but with far fewer deals, within a time budget: coarser, and labelled so. The
// actions are compared and explained as the server's coach does (local/coach.js: paired
// intervals on common deals, ties within the noise, reason codes).

import * as engine from "./engine.js";
import { decide } from "./bots.js";
import { comparisonOf, extraDeals, hintJson, plannedLooks, representative,
  sampleAdaptively } from "./coach.js";
import { minus, unseenCards } from "./deals.js";

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

/** Play `state` out with the greedy bot for every seat to the end of the match: each
 *  seat's match win (1 or 0) and the winners of the current round. */
export function playOut(state, rng) {
  let winners = null;
  const round = state.round;
  for (let moves = 0; moves < 20000; moves += 1) {
    if (winners === null && (state.phase === "round_over" || state.phase === "match_over"
        || state.round !== round)) {
      winners = state.round === round ? [...state.round_winners] : [];
    }
    if (state.phase === "match_over") break;
    const actor = engine.toAct(state);
    const move = actor === null ? engine.sampleChance(state, rng)
      : decide("greedy", engine.view(state, actor), rng, state.rules);
    state = engine.apply(state, move, actor).state;
  }
  return { match: state.names.map((_, s) => (state.match_winner === s ? 1 : 0)),
    round: winners ?? [] };
}

/** Where the deals of a confirmation start (trashcards.ai.review.FRESH): far beyond any
 *  selection's, so the deals that chose the best never measure its lead. */
export const FRESH = 2 ** 30;
/** Deals per batch of the adaptive sampling on this device (the server's are 200). */
export const LOCAL_BATCH = 8;

/** The outcomes of the actions of `view` on deal `k` of `seed`: deal k is the same for
 *  every action and every call (common random numbers), drawn from the view alone. Every
 *  wild placement gets the outcomes of the placement on the highest face-down slot
 *  (coach.js, representative: they are one move), deal by deal. */
export class Deals {
  constructor(view, rules, seed) {
    this.view = view;
    this.rules = rules;
    this.seed = BigInt(seed);
    this.cache = new Map();  // action → outcomes by deal
    this.played = 0;
  }

  outcome(asked, k) {
    const action = representative(this.view, asked);
    let known = this.cache.get(action);
    if (!known) { known = new Map(); this.cache.set(action, known); }
    if (!known.has(k)) {
      const rng = new engine.PyRandom(this.seed * 1000003n + BigInt(k));
      const base = sampleState(this.view, this.rules, rng);
      const chanceSeed = rng.uint32();
      const after = engine.apply(base, action, this.view.to_act).state;
      known.set(k, playOut(after, new engine.PyRandom(chanceSeed)));
      this.played += 1;
    }
    return known.get(k);
  }

  /** The outcomes of each action on deals start … start + count − 1 (coach.js's draw). */
  draw(actions, start, count) {
    return actions.map((action) => {
      const found = { match: [], round: [] };
      for (let k = start; k < start + count; k += 1) {
        const o = this.outcome(action, k);
        found.match.push(o.match);
        found.round.push(o.round);
      }
      return found;
    });
  }
}

/** The coach's comparison of the legal actions of `view` on this device: `samples` deals
 *  each, then up to `extra` (coach.js's extraDeals) on the contested pair in batches,
 *  as the server's compare; without `samples`, as many deals as half of `budgetMs`
 *  allows (at least `minSamples`, at most `maxSamples`), and the contested pair while
 *  the budget lasts. Returns the comparison and its deals. */
export function localCompare(view, rules, seed, { budgetMs = 500, minSamples = 8,
  maxSamples = 400, samples = null, extra = null, batch = LOCAL_BATCH } = {}) {
  const actions = view.legal;
  // Wild placements are one move and share one sample: the sampling runs on one of them.
  const standIn = Object.fromEntries(actions.map((a) => [a, representative(view, a)]));
  const played = [...new Set(Object.values(standIn))];
  const deals = new Deals(view, rules, seed);
  const started = performance.now();
  const more = () => performance.now() - started < budgetMs;
  let first = samples;
  if (first === null) {
    first = 0;
    while (first < maxSamples && (first < minSamples
           || performance.now() - started < budgetMs / 2)) {
      for (const action of played) deals.outcome(action, first);
      first += 1;
    }
  }
  const budget = extra ?? extraDeals(first, played.length);
  const shared = sampleAdaptively(played, view.to_act, (a, s, n) => deals.draw(a, s, n), first,
    budget, batch, more);
  const data = Object.fromEntries(actions.map((a) => [a, shared[standIn[a]]]));
  const greedy = decide("greedy", view, null, rules);
  return { comparison: comparisonOf(view, actions, data, greedy, plannedLooks(budget, batch)),
    deals, first };
}

/** The hint frame's fields for the seat to act of `view` (trashcards.ai.hints.Hint.to_json
 *  and the server's hint message: best, tied, always_call, every action with its chances,
 *  paired interval to the best and reason code), from the seat's view only, labelled
 *  `engine: "local"` (coarser). `rng` gives the seed of the deals. */
export function hint(view, rules, rng, options = {}) {
  const seed = options.seed ?? rng.uint32();
  const { comparison } = localCompare(view, rules, seed, options);
  return { ...hintJson(view, rules, comparison), engine: "local" };
}

/** Deals per legal action of the expert on this device, then up to 3 × as many on the
 *  contested pair: a fixed number, not a time budget, so that the same view and random
 *  stream give the same move on every device (a server's expert: 64 deals, each played to
 *  the round's end and valued with the match-odds table). */
export const EXPERT_DEALS = 16;

/** The expert's move on this device (trashcards.ai.expert.ExpertBot, coarser): calls
 *  "Trash!" when it may (calling is free), plays a forced move, else the hint's best —
 *  greedy's own choice unless another action beats it measurably (the paired 95 %
 *  interval), as the server's expert decides. Draws one number from `rng`. */
export function expertChoice(view, rules, rng) {
  if (view.legal.length === 1) return view.legal[0];
  if (view.legal.includes("call")) return "call";
  return hint(view, rules, rng, { samples: EXPERT_DEALS, extra: 3 * EXPERT_DEALS,
    budgetMs: Infinity }).best;
}
