// @ts-check
// Ratings on the levels' scale: the browser's copy of src/trashcards/players/ratings.py
// (families, the levels' bots held fixed at their Elo, pairwise tables, provisional
// ratings, the interval shown). tests/web/test_js_profile.py checks that LEVEL_RATINGS
// are the levels' measured Elo and that both copies rate alike.

import { idle, rating, update } from "./glicko2.js";

/** @typedef {import("./glicko2.js").Rating} Rating */
/** @typedef {import("./glicko2.js").Result} Result */
/** A computer level: its name, bot, Elo and the Elo's 95 % interval.
 *  @typedef {{name: string, bot: string, elo: number, low: number, high: number}} Level */
/** The rules' fields that choose a family (full rules: makeRules' answer).
 *  @typedef {{call_trash: boolean, start_size: number, rounds_to_win: (number|null)}}
 *    FamilyRules */
/** A seat of a match to rate: its rating before, fixed for a level's bot.
 *  @typedef {{rating: Rating, fixed?: boolean}} SeatRating */

export const FAMILIES = ["standard", "call-trash", "kids", "short"];
export const NEWCOMER = rating(1500, 350, 0.06);
export const PROVISIONAL_RD = 110;
const IDLE_PERIOD_DAYS = 7;
const KIDS_BOARD = 5;
const SHORT_ROUNDS = 5;

/** The levels' bots: their Elo and 95 % interval (src/trashcards/ai/levels.py).
 *  @type {Level[]} */
export const LEVELS = [
  { name: "beginner", bot: "sometimes", elo: 1534.6, low: 1530.6, high: 1538.6 },
  { name: "casual", bot: "kid", elo: 1596.2, low: 1592.2, high: 1600.2 },
  { name: "good", bot: "greedy", elo: 1670.1, low: 1666.2, high: 1673.9 },
  { name: "expert", bot: "expert", elo: 1673.8, low: 1663.6, high: 1684.1 },
];
/** Each level's bot's fixed rating, by its kind (a Map: a person named "constructor"
 *  finds nothing, as in an object it would find Object's constructor).
 *  @type {Map<string, Rating>} */
const LEVEL_RATINGS = new Map(LEVELS.map((level) => [level.bot,
  rating(level.elo, (level.high - level.low) / (2 * 1.96), 0)]));

/** The rules' family, from their full fields ({call_trash, start_size, rounds_to_win}).
 *  @param {FamilyRules} rules @returns {string} */
export function familyOf(rules) {
  if (rules.call_trash) return "call-trash";
  if (rules.start_size <= KIDS_BOARD) return "kids";
  const target = rules.rounds_to_win == null ? rules.start_size : rules.rounds_to_win;
  if (target < SHORT_ROUNDS) return "short";
  return "standard";
}

/** The bot kind of a seat name (bot:greedy:2 → greedy), or null for a person's.
 *  @param {string} name @returns {string|null} */
export function botKind(name) {
  return typeof name === "string" && name.startsWith("bot:") ? name.slice(4).split(":")[0]
    : null;
}

/** The level of a seat name, or null. @param {string} name @returns {Level|null} */
export function levelOf(name) {
  const kind = botKind(name);
  return LEVELS.find((level) => level.bot === kind) || null;
}

/** The fixed rating of a level's bot seat, or null (not a level's bot: not rated).
 *  @param {string} name @returns {Rating|null} */
export function botRating(name) {
  const kind = botKind(name) ?? name;
  return LEVEL_RATINGS.get(kind) || null;
}

/** Whether a rating is still provisional (its deviation is wide).
 *  @param {{rd: number}} r @returns {boolean} */
export const isProvisional = (r) => r.rd > PROVISIONAL_RD;
/** The 95 % interval shown, rounded: [low, high].
 *  @param {{rating: number, rd: number}} r @returns {[number, number]} */
export const interval = (r) => [Math.round(r.rating - 2 * r.rd), Math.round(r.rating + 2 * r.rd)];

/** `r` after `days` without a rated game (a rating period is IDLE_PERIOD_DAYS days).
 *  @param {Rating} r @param {number} days @returns {Rating} */
export function withIdleDays(r, days) {
  return idle(r, days / IDLE_PERIOD_DAYS, NEWCOMER.rd);
}

/** Each seat's place (0 the best): the winner first, then by rounds won.
 *  @param {number[]} roundsWon @param {number|null} winner @returns {number[]} */
export function standings(roundsWon, winner) {
  const keys = roundsWon.map((won, seat) => [seat === winner ? 1 : 0, won]);
  /** @param {number[]} a @param {number[]} b */
  const above = (a, b) => a[0] > b[0] || (a[0] === b[0] && a[1] > b[1]);
  return keys.map((mine) => keys.filter((other) => above(other, mine)).length);
}

/** Ratings after a match: seats [{rating, fixed}], places from standings().
 *  @param {SeatRating[]} seats @param {number[]} places @returns {Rating[]} */
export function rateTable(seats, places) {
  return seats.map((seat, me) => {
    if (seat.fixed) return seat.rating;
    /** @type {Result[]} */
    const results = [];
    seats.forEach((other, them) => {
      if (them === me) return;
      const score = places[me] < places[them] ? 1 : places[me] > places[them] ? 0 : 0.5;
      results.push([other.rating, score]);
    });
    return update(seat.rating, results);
  });
}
