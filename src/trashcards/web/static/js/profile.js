// @ts-check
// The local profile: this browser's finished matches and what follows from them
// (results by level, preset and number of players, streaks, a rating per family).
// The format is `trashcards-profile/1`, the same as `trashcards play`'s file
// (src/trashcards/players/profile.py, docs/players.md): an export from one imports
// into the other. Kept in localStorage, so it works offline and in a static build.
// Only the games are kept; ratings are replayed from them (as in Python).

import { makeRules } from "./local/engine.js";
import {
  NEWCOMER, botRating, familyOf, levelOf, rateTable, standings, withIdleDays,
} from "./ratings.js";
import { MAX_NAME, nameFault } from "./names.js";

/** @typedef {import("./glicko2.js").Rating} Rating */
/** @typedef {import("protocol").TableInfo} TableInfo */
/** @typedef {import("protocol").ViewState} ViewState */
/**
 * A finished match, as the profile keeps it (`trashcards-profile/1`).
 * @typedef {object} Game
 * @property {string} id the table's id (a terminal match's own)
 * @property {number} at when it ended, in seconds
 * @property {string} where "terminal", "device" or "online"
 * @property {Record<string, any>} rules a record's rules object (a preset and changes)
 * @property {string[]} seats each seat's name ("bot:greedy" for a computer's)
 * @property {number} me the profile's seat
 * @property {number[]} rounds_won each seat's rounds won
 * @property {number|null} winner the match's winner's seat
 */
/** @typedef {{format: string, name: string, created: number, games: Game[]}} Profile */
/** A rating after a rated game: {game, at, rating}.
 *  @typedef {{game: string, at: number, rating: Rating}} RatingPoint */
/** Matches won, drawn and lost. @typedef {{won: number, drawn: number, lost: number}} Tally */
/**
 * A profile's results (the same shape as the server's for a player's page).
 * @typedef {object} Summary
 * @property {number} games
 * @property {number} won
 * @property {Record<string, Tally>} by_level against each level's bot (pairwise)
 * @property {Record<string, Tally>} by_preset
 * @property {Record<string, Tally>} by_players by the number of players
 * @property {number} streak matches won in a row, to the last
 * @property {number} best_streak
 */

export const FORMAT = "trashcards-profile/1";
export const MAX_GAMES = 2000;
const KEY = "trash.profile";
const PLACES = ["terminal", "device", "online"];
const DAY = 86400;

export class ProfileError extends Error {}

/** @returns {number} */
function now() { return Date.now() / 1000; }

/** A new profile. @param {string} [name] @returns {Profile} */
export function newProfile(name = "You") {
  return { format: FORMAT, name, created: now(), games: [] };
}

/** The profile this browser keeps (a new one the first time). @returns {Profile} */
export function loadProfile() {
  try {
    const raw = localStorage.getItem(KEY);
    if (raw) return checkProfile(JSON.parse(raw));
  } catch { /* a damaged entry: start again rather than fail the page */ }
  return newProfile();
}

/** @param {Profile} profile */
export function saveProfile(profile) {
  try { localStorage.setItem(KEY, JSON.stringify(profile)); } catch { /* private mode */ }
}

// -- games -------------------------------------------------------------------------------

/** Keep `game` unless one with its id is kept; the oldest go past MAX_GAMES.
 *  @param {Profile} profile @param {Game} game @returns {boolean} whether it was new */
export function addGame(profile, game) {
  if (profile.games.some((g) => g.id === game.id)) return false;
  profile.games.push(game);
  profile.games.sort((a, b) => a.at - b.at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  if (profile.games.length > MAX_GAMES) profile.games.splice(0, profile.games.length - MAX_GAMES);
  return true;
}

/** Add the games of `other` not kept here; how many.
 *  @param {Profile} profile @param {Profile} other @returns {number} */
export function mergeProfile(profile, other) {
  let added = 0;
  for (const game of other.games) if (addGame(profile, game)) added += 1;
  return added;
}

/** @param {Game} game */
const fullRules = (game) => makeRules(game.rules);
/** The family of a game's rules. @param {Game} game @returns {string} */
export const familyOfGame = (game) => familyOf(fullRules(game));
/** @param {Game} game @returns {number[]} */
const placesOf = (game) => standings(game.rounds_won, game.winner);
/** @param {Game} game @returns {boolean} */
const won = (game) => game.winner === game.me;

/** Rated here: the player alone among levels' bots. @param {Game} game @returns {boolean} */
export function isRated(game) {
  return game.seats.every((name, seat) => seat === game.me || botRating(name) !== null);
}

/** Each family's ratings after each rated game: {family: [{game, at, rating}]}.
 *  @param {Profile} profile @returns {Record<string, RatingPoint[]>} */
export function ratingHistory(profile) {
  /** @type {Record<string, RatingPoint[]>} */
  const out = {};
  for (const game of profile.games) {
    if (!isRated(game)) continue;
    const family = familyOfGame(game);
    const points = out[family] || (out[family] = []);
    let before = NEWCOMER;
    if (points.length) {
      const last = points[points.length - 1];
      before = withIdleDays(last.rating, (game.at - last.at) / DAY);
    }
    const seats = game.seats.map((name, seat) => (seat === game.me ? { rating: before }
      : { rating: botRating(name) || NEWCOMER, fixed: true }));
    points.push({ game: game.id, at: game.at, rating: rateTable(seats, placesOf(game))[game.me] });
  }
  return out;
}

/** Each family's rating now. @param {Profile} profile @param {number} [at] seconds
 *  @returns {Record<string, Rating>} */
export function ratingsNow(profile, at = now()) {
  /** @type {Record<string, Rating>} */
  const out = {};
  for (const [family, points] of Object.entries(ratingHistory(profile))) {
    const last = points[points.length - 1];
    out[family] = withIdleDays(last.rating, Math.max(0, at - last.at) / DAY);
  }
  return out;
}

/** @param {Record<string, Tally>} table @param {string} key @param {number} score */
function tally(table, key, score) {
  const row = table[key] || (table[key] = { won: 0, drawn: 0, lost: 0 });
  if (score > 0.5) row.won += 1;
  else if (score < 0.5) row.lost += 1;
  else row.drawn += 1;
}

/** Results by level (pairwise), preset and players; streaks of matches won.
 *  @param {Profile} profile @returns {Summary} */
export function summary(profile) {
  /** @type {Record<string, Tally>} */
  const byLevel = {};
  /** @type {Record<string, Tally>} */
  const byPreset = {};
  /** @type {Record<string, Tally>} */
  const byPlayers = {};
  let streak = 0;
  let best = 0;
  for (const game of profile.games) {
    const places = placesOf(game);
    game.seats.forEach((name, seat) => {
      const level = levelOf(name);
      if (seat === game.me || !level) return;
      const [mine, theirs] = [places[game.me], places[seat]];
      tally(byLevel, level.name, mine < theirs ? 1 : mine > theirs ? 0 : 0.5);
    });
    const score = won(game) ? 1 : 0;
    tally(byPreset, game.rules.preset || "standard", score);
    tally(byPlayers, String(game.seats.length), score);
    streak = won(game) ? streak + 1 : 0;
    best = Math.max(best, streak);
  }
  return {
    games: profile.games.length, won: profile.games.filter(won).length,
    by_level: byLevel, by_preset: byPreset, by_players: byPlayers, streak, best_streak: best,
  };
}

// -- a finished match, from the table page ------------------------------------------------

/** Record a match this browser played alone at its seat (a hot seat is nobody's alone):
 *  `info` is the table as the server describes it, `state` the final view, `seats` the
 *  seats this browser plays. Returns whether it was new.
 *  @param {string} tableId @param {TableInfo|null} info @param {ViewState|null} state
 *  @param {Set<number>} seats @returns {boolean} */
export function noteMatch(tableId, info, state, seats) {
  if (!info || !state || state.phase !== "match_over" || seats.size !== 1) return false;
  const me = [...seats][0];
  const names = state.players.map((p, seat) => {
    const described = info.seats && info.seats[seat];
    if (described && described.kind === "bot" && described.bot) {
      return String(described.name || `bot:${described.bot}`);
    }
    return String(p.name);
  });
  const profile = loadProfile();
  if (profile.name === "You" && names[me] && !names[me].startsWith("bot:")) {
    profile.name = [...names[me]].slice(0, MAX_NAME).join("");  // whole characters
  }
  /** @type {Game} */
  const game = {
    id: String(tableId), at: now(), where: String(tableId).startsWith("local") ? "device" : "online",
    rules: info.rules || { preset: "standard" }, seats: names, me,
    rounds_won: state.players.map((p) => Number(p.rounds_won) || 0),
    winner: state.match_winner ?? null,
  };
  const added = addGame(profile, game);
  if (added) saveProfile(profile);
  return added;
}

// -- the file --------------------------------------------------------------------------

/** The profile as a file to download. @param {Profile} profile @returns {Blob} */
export function exportProfile(profile) {
  return new Blob([JSON.stringify(profile)], { type: "application/json" });
}

/** A profile read from a file's text; throws ProfileError saying what is wrong.
 *  @param {string} text @returns {Profile} */
export function parseProfile(text) {
  let data;
  try { data = JSON.parse(text); } catch { throw new ProfileError("not JSON"); }
  return checkProfile(data);
}

/** @param {unknown} v @param {number} limit @returns {v is string} */
const isText = (v, limit) => typeof v === "string" && v.length <= limit;
/** @param {any} v @returns {v is number} */
const isSmall = (v) => Number.isInteger(v) && v >= 0 && v <= 100;
/** @param {unknown} v @returns {v is number} */
const isTime = (v) => typeof v === "number" && Number.isFinite(v) && v >= 0 && v < 1e11;

/** A game read from a file, checked field by field; only its fields are kept.
 *  @param {any} game @returns {Game} */
function checkGame(game) {
  const id = game && isText(game.id, 64) ? game.id : "?";
  /** @param {string} what */
  const bad = (what) => new ProfileError(`game ${JSON.stringify(id)}: ${what}`);
  if (!game || typeof game !== "object" || Array.isArray(game)) throw new ProfileError("a game must be an object");
  if (!isText(game.id, 64)) throw bad("id must be text of at most 64 characters");
  if (!isTime(game.at)) throw bad("at must be a time in seconds");
  if (!PLACES.includes(game.where)) throw bad(`where must be one of ${PLACES.join(", ")}`);
  if (!game.rules || typeof game.rules !== "object" || Array.isArray(game.rules)) throw bad("rules must be an object");
  if (!Array.isArray(game.seats) || !game.seats.every((s) => isText(s, 64))) throw bad("seats must be a list of names");
  if (!Array.isArray(game.rounds_won) || !game.rounds_won.every(isSmall)) throw bad("rounds_won must be a list of small whole numbers");
  if (!isSmall(game.me) || game.me >= game.seats.length || game.rounds_won.length !== game.seats.length) {
    throw bad("seats, me and rounds_won do not agree");
  }
  if (game.seats.length < 2 || game.seats.length > 4) throw bad("players must be 2 to 4");
  if (game.winner !== null && !(isSmall(game.winner) && game.winner < game.seats.length)) throw bad("no such seat to win");
  if (game.seats[game.me].startsWith("bot:")) throw bad("the player's seat is a bot's");
  try { makeRules(game.rules); } catch (err) { throw bad(`rules: ${err.message}`); }
  return { id: game.id, at: game.at, where: game.where, rules: game.rules, seats: game.seats,
    me: game.me, rounds_won: game.rounds_won, winner: game.winner };
}

/** A profile read from JSON, checked; its games past MAX_GAMES are dropped.
 *  @param {any} data @returns {Profile} */
function checkProfile(data) {
  if (!data || data.format !== FORMAT) throw new ProfileError(`not a profile: its format must be '${FORMAT}'`);
  const name = typeof data.name === "string" ? data.name.trim() : "";
  if (nameFault(name)) throw new ProfileError("name: not a valid name");
  if (!isTime(data.created)) throw new ProfileError("created must be a time in seconds");
  if (!Array.isArray(data.games)) throw new ProfileError("games must be a list");
  /** @type {Profile} */
  const profile = { format: FORMAT, name, created: data.created, games: [] };
  for (const game of data.games.slice(-MAX_GAMES)) addGame(profile, checkGame(game));
  return profile;
}
