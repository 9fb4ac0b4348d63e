// @ts-check
// The coach on this device (docs/offline.md): how trashcards.ai.compare judges a decision
// from each action's outcomes on common deals, trashcards.ai.reasons' reason codes, and
// trashcards.ai.review's verdict on a move (only confirmed losses), ported function by
// function. Where the outcomes come from (local/hint.js: deals sampled from the view,
// played out by the "good" computer) is not here: given the same outcomes, this module
// must give what the Python functions give (tests/web/test_js_coach.py checks it).
//
// Actions are their record text ("stock", "wild 3", "call"); a view is view_json's
// object; outcomes of an action are {match: [[chance of each seat], …], round: [[winners],
// …]}, one entry per deal.

export const CALL = "call";
/** Deals per batch of adaptive sampling on the contested pair (the server's BATCH). */
export const BATCH = 200;
/** The most a comparison may err in telling two exactly equal moves apart, over all
 *  the looks of its adaptive sampling (trashcards.ai.compare.ALPHA). */
export const ALPHA = 0.01;
/** A pair whose 95 % interval lies within ± this many match-win points is equal. */
export const EQUIVALENT = 0.0025;
/** The early stop of a confirmation: ± this many standard errors must exclude 0. */
export const INTERIM_Z = 3.29;
/** Exact values closer than this are equal. */
export const EXACT_TOLERANCE = 1e-9;
/** The least cost (match-win chance) a confirmed mistake has (trashcards.ai.review). */
export const THRESHOLD = 0.005;

const Z95 = 1.959963984540054;
const T975 = [12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060, 2.2622,
  2.2281, 2.2010, 2.1788, 2.1604, 2.1448, 2.1314, 2.1199, 2.1098, 2.1009, 2.0930, 2.0860,
  2.0796, 2.0739, 2.0687, 2.0639, 2.0595, 2.0555, 2.0518, 2.0484, 2.0452, 2.0423];

/** The 97.5 % quantile of Student's t (trashcards.estimates.t975). */
export function t975(df) {
  if (df < 1) throw new Error("degrees of freedom must be at least 1");
  return df <= T975.length ? T975[df - 1] : Z95;
}

/** The p quantile of the standard normal distribution (Wichura's AS241, as Python's
 *  statistics.NormalDist.inv_cdf). */
/* eslint-disable no-loss-of-precision -- Wichura's AS241 constants as published and as
   CPython's statistics module writes them: both parse to the same doubles. */
export function normalQuantile(p) {
  const q = p - 0.5;
  let r;
  let num;
  let den;
  if (Math.abs(q) <= 0.425) {
    r = 0.180625 - q * q;
    num = (((((((2.5090809287301226727e+3 * r + 3.3430575583588128105e+4) * r
      + 6.7265770927008700853e+4) * r + 4.5921953931549871457e+4) * r
      + 1.3731693765509461125e+4) * r + 1.9715909503065514427e+3) * r
      + 1.3314166789178437745e+2) * r + 3.3871328727963666080e+0) * q;
    den = (((((((5.2264952788528545610e+3 * r + 2.8729085735721942674e+4) * r
      + 3.9307895800092710610e+4) * r + 2.1213794301586595867e+4) * r
      + 5.3941960214247511077e+3) * r + 6.8718700749205790830e+2) * r
      + 4.2313330701600911252e+1) * r + 1.0);
    return num / den;
  }
  r = q <= 0 ? p : 1.0 - p;
  r = Math.sqrt(-Math.log(r));
  if (r <= 5.0) {
    r -= 1.6;
    num = (((((((7.7454501427834140764e-4 * r + 2.27238449892691845833e-2) * r
      + 2.41780725177450611770e-1) * r + 1.27045825245236838258e+0) * r
      + 3.64784832476320460504e+0) * r + 5.76949722146069140550e+0) * r
      + 4.63033784615654529590e+0) * r + 1.42343711074968357734e+0);
    den = (((((((1.05075007164441684324e-9 * r + 5.47593808499534494600e-4) * r
      + 1.51986665636164571966e-2) * r + 1.48103976427480074590e-1) * r
      + 6.89767334985100004550e-1) * r + 1.67638483018380384940e+0) * r
      + 2.05319162663775882187e+0) * r + 1.0);
  } else {
    r -= 5.0;
    num = (((((((2.01033439929228813265e-7 * r + 2.71155556874348757815e-5) * r
      + 1.24266094738807843860e-3) * r + 2.65321895265761230930e-2) * r
      + 2.96560571828504891230e-1) * r + 1.78482653991729133580e+0) * r
      + 5.46378491116411436990e+0) * r + 6.65790464350110377720e+0);
    den = (((((((2.04426310338993978564e-15 * r + 1.42151175831644588870e-7) * r
      + 1.84631831751005468180e-5) * r + 7.86869131145613259100e-4) * r
      + 1.48753612908506148525e-2) * r + 1.36929880922735805310e-1) * r
      + 5.99832206555887937690e-1) * r + 1.0);
  }
  const x = num / den;
  return q < 0 ? -x : x;
}
/* eslint-enable no-loss-of-precision */

/** P(|T| ≤ t) for Student's t with integer df (trashcards.estimates._t_inside). */
function tInside(t, df) {
  const theta = Math.atan(t / Math.sqrt(df));
  const c = Math.cos(theta);
  const s = Math.sin(theta);
  const c2 = c * c;
  let total = 0;
  if (df % 2) {
    let term = c;
    for (let k = 1; k <= (df - 1) / 2; k += 1) {
      total += term;
      term *= (c2 * (2 * k)) / (2 * k + 1);
    }
    return (2 / Math.PI) * (theta + s * total);
  }
  let term = 1.0;
  for (let k = 1; k <= df / 2; k += 1) {
    total += term;
    term *= (c2 * (2 * k - 1)) / (2 * k);
  }
  return s * total;
}

const tCache = new Map();

/** The p quantile (1/2 < p < 1) of Student's t with df degrees of freedom
 *  (trashcards.estimates.t_quantile: exact below 100, Cornish–Fisher from 100 on). */
export function tQuantile(p, df) {
  const key = `${p} ${df}`;
  if (tCache.has(key)) return tCache.get(key);
  let value;
  if (df >= 100) {
    const z = normalQuantile(p);
    const z2 = z * z;
    const g1 = ((z2 + 1) * z) / 4;
    const g2 = (((5 * z2 + 16) * z2 + 3) * z) / 96;
    const g3 = ((((3 * z2 + 19) * z2 + 17) * z2 - 15) * z) / 384;
    const g4 = (((((79 * z2 + 776) * z2 + 1482) * z2 - 1920) * z2 - 945) * z) / 92160;
    value = z + (g1 + (g2 + (g3 + g4 / df) / df) / df) / df;
  } else {
    const inside = 2 * p - 1;
    let low = 0.0;
    let high = 1.0;
    while (tInside(high, df) < inside) high *= 2;
    for (let i = 0; i < 200; i += 1) {
      const mid = (low + high) / 2;
      if (tInside(mid, df) < inside) low = mid; else high = mid;
      if (high - low <= 1e-13 * high) break;
    }
    value = (low + high) / 2;
  }
  if (tCache.size > 4096) tCache.clear();
  tCache.set(key, value);
  return value;
}

/** Python's round(x, digits) (half to even on exact ties). */
export function pyRound(x, digits) {
  if (!Number.isFinite(x)) return x;
  const fixed = x.toFixed(digits);
  const exact = Math.abs(x).toFixed(Math.min(100, digits + 30));
  const tail = exact.slice(exact.indexOf(".") + 1 + digits);
  if (/^50*$/.test(tail)) {  // an exact tie: toFixed rounded away from 0; Python to even
    const down = (Math.trunc(Math.abs(x) * 10 ** digits) / 10 ** digits).toFixed(digits);
    const last = Number(down[down.length - 1]);
    if (last % 2 === 0) return Number((x < 0 ? "-" : "") + down);
  }
  return Number(fixed);
}

function sum(values) {
  let total = 0;
  for (const v of values) total += v;
  return total;
}

/** a − b on their common deals, with its 95 % interval (Student's t, or ± z standard
 *  errors, or the two-sided 1 − alpha interval by Student's t):
 *  trashcards.ai.compare.paired_interval. */
export function pairedInterval(a, b, z = null, alpha = null) {
  const n = Math.min(a.length, b.length);
  if (n === 0) throw new Error("no common deals");
  const diffs = [];
  for (let k = 0; k < n; k += 1) diffs.push(a[k] - b[k]);
  const mean = sum(diffs) / n;
  if (n < 2) return { mean, low: -Infinity, high: Infinity, n };
  let squares = 0;
  for (const d of diffs) squares += (d - mean) ** 2;
  const variance = squares / (n - 1);
  let quantile;
  if (z !== null) quantile = z;
  else if (alpha !== null) quantile = tQuantile(1 - alpha / 2, n - 1);
  else quantile = t975(n - 1);
  const half = quantile * Math.sqrt(variance / n);
  return { mean, low: mean - half, high: mean + half, n };
}

/** The budget of a comparison in rollouts, as a multiple of its samples, and the least
 *  extra budget (trashcards.ai.compare.ROLLOUTS and EXTRA_LEAST). */
export const ROLLOUTS = 7;
export const EXTRA_LEAST = 3;

/** The default extra budget of a comparison of `moves` sampled moves (compare.extra_deals):
 *  what is left of ROLLOUTS × samples rollouts, at least EXTRA_LEAST × samples. */
export function extraDeals(samples, moves) {
  return Math.max(EXTRA_LEAST, ROLLOUTS - moves) * samples;
}

/** How many times the adaptive sampling may look at a pair (compare.planned_looks). */
export function plannedLooks(extra, batch = BATCH) {
  return 1 + Math.max(0, Math.ceil(extra / Math.max(1, batch)));
}

export const significant = (p) => p.low > 0 || p.high < 0;
export const equivalent = (p) => p.low >= -EQUIVALENT && p.high <= EQUIVALENT;

function wilson(successes, trials, z = 1.96) {
  if (trials === 0) return [0, 1];
  const p = successes / trials;
  const denom = 1 + (z * z) / trials;
  const centre = (p + (z * z) / (2 * trials)) / denom;
  const half = (z * Math.sqrt((p * (1 - p)) / trials + (z * z) / (4 * trials * trials))) / denom;
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

/** The mean of independent values with its 95 % interval: Wilson for 0/1 values, else
 *  Student's t (trashcards.ai.evaluate.mean_estimate). */
export function meanEstimate(values) {
  const n = values.length;
  if (n && values.every((v) => v === 0 || v === 1)) {
    const [low, high] = wilson(sum(values), n);
    return { value: sum(values) / n, low, high, n };
  }
  if (n < 2) return { value: n ? values[0] : NaN, low: null, high: null, n };
  const mean = sum(values) / n;
  let squares = 0;
  for (const v of values) squares += (v - mean) ** 2;
  const half = (t975(n - 1) * Math.sqrt(squares / (n - 1))) / Math.sqrt(n);
  return { value: mean, low: mean - half, high: mean + half, n };
}

// -- the comparison (trashcards.ai.compare) ---------------------------------------------

const mine = (found, seat) => found.match.map((m) => m[seat]);

function leaderOf(data, chosen, seat) {
  let best = null;
  let top = -Infinity;
  for (const action of chosen) {
    const mean = sum(mine(data[action], seat)) / data[action].match.length;
    if (mean > top) { top = mean; best = action; }
  }
  return best;
}

/** The leader and its closest rival whose difference is still undecided (at level
 *  alpha), or null. */
export function contested(data, chosen, seat, alpha) {
  const leader = leaderOf(data, chosen, seat);
  const lead = mine(data[leader], seat);
  let pick = null;
  chosen.forEach((action, index) => {
    if (action === leader) return;
    const diff = pairedInterval(mine(data[action], seat), lead, null, alpha);
    if (significant(diff) || equivalent(diff)) return;
    const key = [-diff.mean, index];
    if (pick === null || key[0] < pick.key[0] || (key[0] === pick.key[0] && key[1] < pick.key[1])) {
      pick = { key, action };
    }
  });
  return pick === null ? null : [leader, /** @type {{action: string}} */ (pick).action];
}

/** The sampling of compare: `samples` deals of every action (draw(actions, start,
 *  count) → the outcomes of each), then batches on the contested pair until it is
 *  decided (at level ALPHA / plannedLooks(extra, batch)) or `extra` deals are spent;
 *  `more()` (this device's clock) may stop it early. */
export function sampleAdaptively(chosen, seat, draw, samples, extra, batch = BATCH,
  more = () => true) {
  const alpha = ALPHA / plannedLooks(extra, batch);
  const data = {};
  draw(chosen, 0, samples).forEach((found, i) => {
    data[chosen[i]] = { match: [...found.match], round: [...found.round] };
  });
  let spent = 0;
  while (chosen.length > 1 && spent < extra && more()) {
    const pair = contested(data, chosen, seat, alpha);
    if (pair === null) break;
    const target = Math.min(data[pair[0]].match.length, data[pair[1]].match.length)
      + Math.min(batch, extra - spent);
    for (const action of pair) {
      const have = data[action].match.length;
      if (have >= target) continue;
      const [found] = draw([action], have, target - have);
      data[action].match.push(...found.match);
      data[action].round.push(...found.round);
      spent += target - have;
    }
  }
  return data;
}

function valueOf(action, found, seat, players) {
  const n = found.match.length;
  const rounds = found.round.map((w) => (w.includes(seat) ? 1 : 0));
  const seats = [...Array(players).keys()];
  return {
    action, round_win: meanEstimate(rounds), match_win: meanEstimate(mine(found, seat)),
    round_wins: seats.map((s) => found.round.filter((w) => w.includes(s)).length / n),
    match_wins: seats.map((s) => sum(found.match.map((m) => m[s])) / n),
  };
}

function byKeys(keys) {
  return (a, b) => {
    const x = keys(a);
    const y = keys(b);
    for (let i = 0; i < x.length; i += 1) if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
    return 0;
  };
}

/** best_mean (the mean of all of `base`) plus the mean of other − base on their common
 *  deals (`meanDiff` when given), with its 95 % interval (trashcards.ai.compare._shifted). */
function shifted(base, other, baseMean, meanDiff) {
  const big = base.length;
  const n = Math.min(big, other.length);
  const diffs = [];
  for (let k = 0; k < n; k += 1) diffs.push(other[k] - base[k]);
  const md = meanDiff === null ? sum(diffs) / n : meanDiff;
  const value = Math.min(1.0, Math.max(0.0, baseMean + md));
  if (n < 2) return { value, low: null, high: null, n };
  const meanBase = sum(base) / big;
  let varBase = 0;
  for (const x of base) varBase += (x - meanBase) ** 2;
  varBase /= big - 1;
  const head = sum(base.slice(0, n)) / n;
  let varDiff = 0;
  for (const d of diffs) varDiff += (d - md) ** 2;
  varDiff /= n - 1;
  let cov = 0;
  for (let k = 0; k < n; k += 1) cov += (base[k] - head) * (diffs[k] - md);
  cov /= n - 1;
  const variance = Math.max(0.0, varBase / big + varDiff / n + (2 * cov) / big);
  const half = t975(n - 1) * Math.sqrt(variance);
  return { value, low: value - half, high: value + half, n };
}

/** The comparison of these outcomes (trashcards.ai.compare.comparison_of), gathered in
 *  `looks` looks at most: `order` best first (the tie group — the best, then the others
 *  in legal order — then the rest by their difference to the best), `values`, `vs_best`
 *  (paired, to the reported best, at level ALPHA / looks), `tied`, `best`, `samples`
 *  (the most deals any action was played on), `figures` (what a hint shows). `greedy`:
 *  the standard play, reported best when it is in the tie group. */
export function comparisonOf(view, chosen, data, greedy, looks = 1) {
  const seat = view.to_act;
  if (seat === null) throw new Error("no decision is due in this position");
  const players = view.players.length;
  const alpha = ALPHA / looks;
  const values = {};
  for (const a of chosen) values[a] = valueOf(a, data[a], seat, players);
  const versus = (a, b) => (a === b ? { mean: 0, low: 0, high: 0, n: data[b].match.length }
    : pairedInterval(mine(data[a], seat), mine(data[b], seat), null, alpha));
  const leader = leaderOf(data, chosen, seat);
  let tied = chosen.filter((a) => versus(a, leader).high >= 0);
  let best = tied.includes(greedy) ? greedy : leader;
  if (chosen.includes(CALL)) {  // calling is free (RULES.md §9): always first
    best = CALL;
    tied = chosen.filter((a) => versus(a, CALL).high >= 0);
  }
  const vsBest = {};
  for (const a of chosen) vsBest[a] = versus(a, best);
  const group = chosen.filter((a) => tied.includes(a) || vsBest[a].high >= 0);
  group.sort(byKeys((a) => [a !== best ? 1 : 0, chosen.indexOf(a)]));
  const rest = chosen.filter((a) => !group.includes(a))
    .sort(byKeys((a) => [-vsBest[a].mean, chosen.indexOf(a)]));
  const samples = Math.max(...chosen.map((a) => data[a].match.length));
  const top = values[best];
  const figures = {};
  for (const a of chosen) {
    if (group.includes(a)) {
      figures[a] = { ...values[a], round_win: top.round_win, match_win: top.match_win };
    } else {
      const won = (found) => found.round.map((w) => (w.includes(seat) ? 1 : 0));
      figures[a] = { ...values[a],
        match_win: shifted(mine(data[best], seat), mine(data[a], seat), top.match_win.value,
          vsBest[a].mean),
        round_win: shifted(won(data[best]), won(data[a]), top.round_win.value, null) };
    }
  }
  return { seat, order: [...group, ...rest], values, vs_best: vsBest, tied: group,
    best: group[0], exact: false, samples, greedy, looks, figures };
}

/** The sequential test of confirm: best − taken on fresh deals (draw(start, count) →
 *  [best's, taken's] chances), stopped early only on strong evidence. */
export function confirmPaired(draw, samples, extra, batch = BATCH, more = () => true) {
  const [a, b] = draw(0, samples).map((list) => [...list]);
  let diff = pairedInterval(a, b);
  let spent = 0;
  while (spent < extra && !significant(pairedInterval(a, b, INTERIM_Z)) && !equivalent(diff)
         && more()) {
    const step = Math.min(batch, extra - spent);
    const [moreA, moreB] = draw(a.length, step);
    a.push(...moreA);
    b.push(...moreB);
    spent += step;
    diff = pairedInterval(a, b);
  }
  return diff;
}

// -- symmetry (trashcards.ai.symmetry) ------------------------------------------------

/** The action played out in place of `action` (the rollouts play like the "good"
 *  computer, which always swaps): every wild placement is one move, played on the
 *  highest face-down slot (trashcards.ai.symmetry.representative). */
export function representative(view, action) {
  if (!action.startsWith("wild ")) return action;
  const slots = view.legal.filter((a) => a.startsWith("wild ")).map((a) => Number(a.slice(5)));
  return `wild ${Math.max(...slots)}`;
}

// -- reasons (trashcards.ai.reasons) ----------------------------------------------------

const SUIT_SYMBOLS = { s: "♠", h: "♥", d: "♦", c: "♣" };
const RANK_TEXT = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
const RANK_LETTERS = "A23456789TJQK";

/** The card for people, as Card.pretty: 10♠, A♥, X1. */
export function pretty(card) {
  if (card[0] === "X") return card;
  return RANK_TEXT[RANK_LETTERS.indexOf(card[0])] + SUIT_SYMBOLS[card[1]];
}

const verbOf = (action) => action.split(" ")[0];
const top = (view) => (view.discard.length ? view.discard[view.discard.length - 1] : null);
const pp = (value) => pyRound(Math.abs(value) * 100, 1);

function fits(view, rules, seat, card) {
  const roles = rules.roles;
  const slots = view.players[seat].slots;
  const role = roles[card];
  if (role > 0) {
    if (role > slots.length) return false;
    const slot = slots[role - 1];
    return !slot.up || roles[slot.card] === 0;
  }
  return role === 0 && slots.some((s) => !s.up);
}

function reason(code, params = {}) { return { code, params }; }

function specific(view, rules, comparison, action) {
  const roles = rules.roles;
  const me = view.players[view.to_act];
  const card = top(view);
  const hand = view.in_hand;
  const verb = verbOf(action);
  if (action === CALL) return reason("call_free");
  if (verb === "discard" && card !== null) {
    const role = roles[card];
    if (role === 0) return reason("wild_discard", { card: pretty(card) });
    if (!me.slots[role - 1].up) return reason("fits_slot", { card: pretty(card), slot: role });
    return reason("frees_wild", { card: pretty(card), slot: role });
  }
  if (verb === "stock") {
    if (card !== null && view.legal.includes("discard") && !fits(view, rules, view.to_act, card)) {
      return reason("no_fit", { card: pretty(card) });
    }
    // (the Python test compares the legal tuple with (CALL, action): kept as it is)
    if (view.legal.length === 1 || (view.legal.length === 2 && view.legal[0] === CALL
        && view.legal[1] === action)) return reason("draw_stock");
    return null;
  }
  if (verb === "wild") {
    // All placements are one move (trashcards.ai.symmetry): the sampled ones always tie.
    const wilds = comparison.order.filter((a) => verbOf(a) === "wild");
    if (wilds.length > 1 && wilds.every((a) => comparison.tied.includes(a))) return reason("wild_any");
    return null;
  }
  if (verb === "swap" && hand !== null) {
    return reason("swap_natural", { card: pretty(hand), slot: roles[hand] });
  }
  if (verb === "trash" && view.phase === "swap" && hand !== null) {
    return reason("keep_wild", { card: pretty(hand), slot: roles[hand] });
  }
  return null;
}

const TIED_CODES = ["wild_any", "fits_slot", "wild_discard", "frees_wild", "no_fit",
  "swap_natural", "keep_wild", "call_free"];

function forBest(view, rules, comparison, action) {
  const found = specific(view, rules, comparison, action);
  if (found !== null) return found;
  const others = comparison.tied.length - 1;
  if (others) {
    return reason(action === comparison.greedy ? "standard_tie" : "tie_lead", { count: others });
  }
  const rivals = comparison.order.filter((a) => a !== action);
  const lead = pp(Math.min(...rivals.map((a) => -comparison.vs_best[a].mean)));
  return lead > 0 ? reason("best_by", { count: lead }) : reason("best_by_little");
}

/** Where calling is legal, the move the standard play makes once the call is made
 *  (trashcards.ai.reasons._after_call), or null. */
function afterCall(view) {
  if (!view.legal.includes(CALL)) return null;
  const slots = view.legal.filter((a) => verbOf(a) === "wild").map((a) => Number(a.split(" ")[1]));
  const legal = view.legal;
  if (legal[0] === "stock") return legal.includes("discard") ? "discard" : "stock";
  if (verbOf(legal[0]) === "wild") return `wild ${Math.max(...slots)}`;
  return "swap";
}

function against(view, rules, comparison, action) {
  const points = pp(comparison.vs_best[action].mean);
  if (points === 0) return reason("costs_little");
  const after = afterCall(view);
  if (after !== null && representative(view, action) === representative(view, after)) {
    return reason("call_first", { count: points });
  }
  const roles = rules.roles;
  const seat = view.to_act;
  const cost = { count: points };
  const card = top(view);
  const hand = view.in_hand;
  const next = (seat + 1) % view.players.length;
  const verb = verbOf(action);
  if (verb === "stock" && card !== null && view.legal.includes("discard")) {
    if (fits(view, rules, seat, card)) {
      const role = roles[card];
      const slot = role !== 0 ? role : null;
      if (slot !== null && !view.players[seat].slots[slot - 1].up) {
        return reason("leaves_fitting", { card: pretty(card), slot, ...cost });
      }
    }
    if (fits(view, rules, next, card)) return reason("feeds_next", { card: pretty(card), ...cost });
  }
  if (verb === "trash" && hand !== null) {
    if (view.phase === "wild") return reason("throws_wild", { card: pretty(hand), ...cost });
    if (fits(view, rules, next, hand)) return reason("feeds_next", { card: pretty(hand), ...cost });
  }
  return reason("costs", cost);
}

/** The reason {code, params} of every compared action (trashcards.ai.reasons.reasons). */
export function reasonsOf(view, rules, comparison) {
  const out = {};
  for (const action of comparison.order) {
    if (comparison.order.length === 1) {
      out[action] = reason("only_move");
    } else if (action === comparison.best) {
      out[action] = forBest(view, rules, comparison, action);
    } else if (comparison.tied.includes(action)) {
      const found = specific(view, rules, comparison, action);
      out[action] = found !== null && TIED_CODES.includes(found.code) ? found
        : reason(comparison.exact ? "equal_exact" : "equal");
    } else {
      out[action] = against(view, rules, comparison, action);
    }
  }
  return out;
}

function ci(low, high) {
  return [pyRound(Math.max(0, low ?? 0), 4), pyRound(Math.min(1, high ?? 1), 4)];
}

/** What a hint shows for an action (trashcards.ai.compare.Comparison.figure). */
function figureOf(comparison, action) {
  if (comparison.figures) return comparison.figures[action];
  if (comparison.tied.includes(action)) {
    const top = comparison.values[comparison.best];
    return { ...comparison.values[action], round_win: top.round_win, match_win: top.match_win };
  }
  return comparison.values[action];
}

/** The hint frame's fields (trashcards.ai.hints.Hint.to_json) of a comparison. */
export function hintJson(view, rules, comparison) {
  const why = reasonsOf(view, rules, comparison);
  const lines = comparison.order.map((action) => {
    const v = figureOf(comparison, action);
    const vs = comparison.vs_best[action];
    return {
      action, match_win: pyRound(v.match_win.value, 4),
      match_win_ci: ci(v.match_win.low, v.match_win.high),
      round_win: pyRound(v.round_win.value, 4), round_win_ci: ci(v.round_win.low, v.round_win.high),
      // a difference of two chances lies in [-1, 1], as the Python hint says
      vs_best: [pyRound(Math.max(-1, vs.low), 4), pyRound(Math.min(1, vs.high), 4)],
      equal_to_best: comparison.tied.includes(action), reason: why[action],
    };
  });
  return {
    to_act: view.to_act, best: comparison.best, exact: comparison.exact,
    samples: comparison.exact ? 0 : comparison.samples,
    tied: lines.filter((l) => l.equal_to_best).map((l) => l.action),
    always_call: comparison.order.includes(CALL), actions: lines,
  };
}

// -- a decision judged (trashcards.ai.review.verdict) -----------------------------------

/** The judgement of a move `taken` given the selection's comparison `found`, where
 *  check(versus) measures versus − taken on fresh deals (only confirmed mistakes). */
export function verdict(view, taken, found, check, threshold = THRESHOLD, missedCall = false) {
  const best = found.best;
  let tied = found.tied;
  let kind = "ok";
  let measured;
  let costCi;
  const vs = found.vs_best[taken];
  if (found.exact) {
    measured = tied.includes(taken) ? 0
      : found.values[best].match_win.value - found.values[taken].match_win.value;
    costCi = [measured, measured];
    if (measured >= threshold) kind = "mistake";
    else if (measured > 0) kind = "small_loss";
  } else if (tied.includes(taken) && !missedCall
             && (taken === best || equivalent(vs) || -vs.mean < threshold / 2)) {
    measured = -vs.mean;
    costCi = [-vs.high, -vs.low];
  } else {
    const versus = missedCall && view.legal.includes(CALL) ? CALL : best;
    if (versus === taken) {
      measured = 0;
      costCi = [0, 0];
    } else {
      const diff = check(versus);
      measured = diff.mean;
      costCi = [diff.low, diff.high];
      if (diff.low > 0) { // confirmed on fresh deals: a mistake, or a small loss
        kind = diff.mean >= threshold ? "mistake" : "small_loss";
        tied = tied.filter((a) => a !== taken);
      }
    }
    if (missedCall) kind = "missed_call";
  }
  let cost = 0;
  if (kind === "missed_call") cost = Math.max(measured, 0);
  else if (kind !== "ok") cost = measured;
  const roundCost = kind !== "ok"
    ? found.values[best].round_win.value - found.values[taken].round_win.value : 0;
  return {
    move: 0, seat: view.to_act, round: view.round, taken, best, options: found.order.length,
    cost, cost_ci: costCi, round_cost: roundCost,
    chance_before: found.values[best].match_win.value,
    chance_after: found.values[taken].match_win.value, tied, measured, exact: found.exact, kind,
  };
}

/** A judged decision as trashcards.ai.review.Decision.to_json. */
export function decisionJson(d) {
  return {
    move: d.move, seat: d.seat, round: d.round, taken: d.taken, best: d.best, tied: [...d.tied],
    equal_to_best: d.tied.includes(d.taken), options: d.options, exact: d.exact,
    cost: pyRound(d.cost, 4), measured: pyRound(d.measured, 4),
    cost_ci: d.cost_ci.map((v) => pyRound(v, 4)), round_cost: pyRound(d.round_cost, 4),
    mistake: d.kind === "mistake" || d.kind === "missed_call",
    small_loss: d.kind === "small_loss", kind: d.kind,
    match_win_before: pyRound(d.chance_before, 4), match_win_after: pyRound(d.chance_after, 4),
  };
}
