// @ts-check
// The win-chance bar on this device (docs/offline.md): every seat's chance of winning the
// match (and, during a round, the round), estimated from the PUBLIC view only (what a
// spectator sees) as the server's `chances` are (trashcards.ai.hints.chances): deals of
// the unseen cards drawn as trashcards.deals.sample_state does, every legal action of the
// seat to act played out by everyone like the "good" computer to the end of the match,
// and the best of them for that seat (by match, then round, then legal order) gives
// every seat's chances. Played out to the end of the match (there is no match-odds table
// here), with the deals a time budget allows, spent in short slices so that moves never
// wait: the frame says it is coarser ("coarse", as the server marks its own chances
// without an odds table, and engine "local").

import * as engine from "./engine.js";
import { playOut, sampleState } from "./hint.js";

/** Why these chances are coarser than a server's (the frame's `coarse`). */
export const LOCAL_COARSE = ("computed on this device: no match-odds table, played out to "
  + "the end of the match, with the deals its time allows");
const DECISIONS = new Set(["draw", "wild", "swap"]);

/** An estimate of every seat's chances at one position, built up a few deals at a time
 *  (`step`), so that a worker can stop between slices. */
export class ChancesJob {
  /** `view`: the public view (any seat's would do: the chances read only what every
   *  player sees); `rng`: engine.PyRandom, the only source of chance. */
  constructor(view, rules, rng) {
    this.view = view;
    this.rules = rules;
    this.rng = rng;
    this.players = view.players.length;
    this.samples = 0;
    this.final = null;
    if (view.phase === "match_over") {
      this.final = view.players.map((_, seat) => (seat === view.match_winner ? 1 : 0));
      this.actions = [];
    } else if (DECISIONS.has(view.phase) && view.to_act !== null) {
      this.actions = [...view.legal];
    } else if (view.phase === "round_over" && view.dealer !== null) {
      this.actions = [null];  // the next deal is all there is to play
    } else {
      this.actions = [];  // a chance move is due: no chances here (as the server)
    }
    const zeros = () => new Array(this.players).fill(0);
    this.tally = this.actions.map(() => ({ round: zeros(), match: zeros() }));
  }

  /** Whether there are chances to give at this position at all. */
  get possible() { return this.final !== null || this.actions.length > 0; }

  /** One more deal of the unseen cards, every action played out on it (the same deal
   *  and chance stream for every action). */
  sample() {
    const base = sampleState(this.view, this.rules, this.rng);
    const chanceSeed = this.rng.uint32();
    this.actions.forEach((action, i) => {
      const start = action === null ? base : engine.apply(base, action, this.view.to_act).state;
      const { round, match } = playOut(start, new engine.PyRandom(chanceSeed));
      for (const seat of round) this.tally[i].round[seat] += 1;
      match.forEach((won, seat) => { this.tally[i].match[seat] += won; });
    });
    this.samples += 1;
  }

  /** Deals until `ms` have passed (at least one), at most `maxSamples` in all; returns
   *  whether more deals are allowed. */
  step(ms, maxSamples) {
    if (!this.possible || this.final) return false;
    const started = performance.now();
    do this.sample();
    while (this.samples < maxSamples && performance.now() - started < ms);
    return this.samples < maxSamples;
  }

  /** {match_win, round_win, source} as fractions (match_win sums to 1), or null. */
  result() {
    if (this.final) return { match_win: this.final, round_win: null, source: "final" };
    if (!this.possible || this.samples === 0) return null;
    const n = this.samples;
    const seat = this.view.to_act;
    let best = 0;
    if (seat !== null) {
      this.tally.forEach((t, i) => {
        const b = this.tally[best];
        if (t.match[seat] > b.match[seat]
            || (t.match[seat] === b.match[seat] && t.round[seat] > b.round[seat])) best = i;
      });
    }
    const chosen = this.tally[best];
    const decided = chosen.match.reduce((a, b) => a + b, 0);
    return {
      // a play-out cut short (it never is in practice) counts for nobody: share by wins
      match_win: chosen.match.map((w) => (decided ? w / decided : 1 / this.players)),
      round_win: this.actions[best] === null ? null : chosen.round.map((w) => w / n),
      source: "search",
    };
  }
}

/** Every seat's chances at `view` from exactly `samples` deals (at least one) drawn with
 *  `rng`: the same view and seed give the same answer. */
export function chances(view, rules, rng, samples) {
  const job = new ChancesJob(view, rules, rng);
  while (job.possible && !job.final && job.samples < Math.max(1, samples)) job.sample();
  return job.result();
}

/** The chances of the position of `state` (which holds the hidden cards), read from its
 *  public view only: as `chances`. */
export function chancesOf(state, rules, rng, samples) {
  return chances(engine.view(state, null), rules, rng, samples);
}

/** The `chances` frame (docs/protocol.md) of `result` at `version`, marked coarser. */
export function chancesFrame(result, version, samples) {
  const round4 = (values) => values && values.map((v) => Math.round(v * 10000) / 10000);
  const frame = { type: "chances", version, match_win: round4(result.match_win),
    round_win: round4(result.round_win), source: result.source };
  if (result.source !== "final") Object.assign(frame, { coarse: LOCAL_COARSE, engine: "local", samples });
  return frame;
}

/** Compute the chances of `state` (at `version`; from its public view only) in slices of
 *  `sliceMs`, letting other work (the next move, a bot) run between them, for `budgetMs`
 *  of work at most, at least `minSamples` deals; then `send(frame)`. Stops without
 *  sending as soon as `stale()` says the table has moved on. */
export function computeInSlices(state, rules, rng, version, send, stale,
  { budgetMs = 400, sliceMs = 20, minSamples = 8, maxSamples = 400 } = {}) {
  const job = new ChancesJob(engine.view(state, null), rules, rng);
  if (!job.possible) return;
  let spent = 0;
  const slice = () => {
    if (stale()) return;
    const started = performance.now();
    const more = job.step(sliceMs, maxSamples);
    spent += performance.now() - started;
    if (more && (job.samples < minSamples || spent < budgetMs)) {
      setTimeout(slice, 0);
      return;
    }
    const result = job.result();
    if (result && !stale()) send(chancesFrame(result, version, job.samples));
  };
  setTimeout(slice, 0);
}
