// @ts-check
// A player's habits (docs/players.md, "Habits"): each kind of chance the coach judged,
// how often it was missed, with its 95 % range and how many chances that is; and beside
// each, how often rated players of the player's rating band missed it, with its range:
// "more" or "less" often only when the two ranges do not overlap, else "about the same".
// A band with too few other players is not shown (the server sends no figure of it).
// And beside it, the level's bot nearest the player's rating, its habits measured offline.

import { t } from "./i18n.js";
import { el } from "./dom.js";

/**
 * Rated players' figures for one habit, and the verdict against the player's.
 * @typedef {object} PeerHabit
 * @property {number} chances
 * @property {number} misses
 * @property {number} rate
 * @property {number} low
 * @property {number} high
 * @property {"more"|"less"|"same"} verdict
 */

/**
 * A habit as the server sends it: a kind of chance, how often it was missed, and the
 * miss rate's 95 % range; `peers`: rated players' of the band (null: not shown).
 * @typedef {object} Habit
 * @property {string} kind
 * @property {number} chances
 * @property {number} misses
 * @property {number} rate
 * @property {number} low
 * @property {number} high
 * @property {PeerHabit|null} [peers]
 * @property {PeerHabit|null} [level] the level's bot's figures and the verdict
 */

/**
 * The level nearest the player's rating, whose bot's habits were measured offline.
 * @typedef {object} LevelShown
 * @property {string} name
 * @property {number} elo
 * @property {number} matches
 */

/**
 * The band of rated players the habits are compared with: `players` and `games` only
 * when `enough`.
 * @typedef {object} PeerBand
 * @property {string} family
 * @property {number} band
 * @property {number} low
 * @property {number} high
 * @property {number} min_players
 * @property {number} min_games
 * @property {boolean} enough
 * @property {number} [players]
 * @property {number} [games]
 */

/** @param {number} share @returns {number} a percentage, whole */
const pct = (share) => Math.round(100 * share);

/** The line of one habit. @param {Habit} habit @returns {string} */
export function habitText(habit) {
  return t(`habits.${habit.kind}`, {
    rate: pct(habit.rate), misses: habit.misses, count: habit.chances,
    low: pct(habit.low), high: pct(habit.high) });
}

/** Rated players' line of one habit, or "" when the band is not shown.
 *  @param {Habit} habit @param {PeerBand|null} band @returns {string} */
export function peerText(habit, band) {
  if (!band || !band.enough) return "";
  const peers = habit.peers;
  if (!peers) return t("habits.peers.none", { band: band.band });
  return t(`habits.peers.${peers.verdict}`, {
    band: band.band, rate: pct(peers.rate), low: pct(peers.low), high: pct(peers.high),
    count: peers.chances });
}

/** The level's bot's line of one habit, or "" when no level is compared with.
 *  @param {Habit} habit @param {LevelShown|null} level @returns {string} */
export function levelText(habit, level) {
  if (!level) return "";
  const name = t(`level.${level.name}`);
  const measured = habit.level;
  if (!measured) return t("habits.level.none", { level: name });
  return t(`habits.level.${measured.verdict}`, {
    level: name, elo: Math.round(level.elo), rate: pct(measured.rate), low: pct(measured.low),
    high: pct(measured.high), count: measured.chances });
}

/** The line that says which level's bot the habits are compared with, or "".
 *  @param {LevelShown|null} level @returns {string} */
export function levelIntro(level) {
  if (!level) return "";
  return t("habits.level.intro", { level: t(`level.${level.name}`),
    elo: Math.round(level.elo), count: level.matches });
}

/** The line that says whom the habits are compared with, or why with no one.
 *  @param {PeerBand|null} band @returns {string} */
export function bandText(band) {
  if (!band) return t("habits.peers.unrated");
  const where = { low: band.low, high: band.high, family: t(`family.${band.family}`) };
  if (!band.enough) {
    return t("habits.peers.few", { ...where, count: band.min_players, games: band.min_games });
  }
  return t("habits.peers.band", { ...where, count: band.players ?? 0, games: band.games ?? 0 });
}

/** Fill `list` with one line per habit ([{kind, chances, misses, rate, low, high,
 *  peers, level}]) and `note` with the band and the level compared with.
 *  @param {HTMLElement} list @param {Habit[]|null} habits
 *  @param {HTMLElement|null} [note] @param {PeerBand|null} [band]
 *  @param {LevelShown|null} [level] */
export function renderHabits(list, habits, note = null, band = null, level = null) {
  if (!habits || !habits.length) {
    list.replaceChildren(el("li", "", t("habits.none")));
    if (note) note.textContent = "";
    return;
  }
  if (note) note.textContent = [bandText(band), levelIntro(level)].filter(Boolean).join(" ");
  list.replaceChildren(...habits.map((habit) => {
    const item = el("li", "", habitText(habit));
    /** @type {[string, PeerHabit|null|undefined, string][]} */
    const lines = [[peerText(habit, band), habit.peers, "habit-peers"],
      [levelText(habit, level), habit.level, "habit-level"]];
    for (const [text, figures, className] of lines) {
      if (!text) continue;
      const line = el("span", className, text);
      if (figures) line.dataset.verdict = figures.verdict;
      item.append(el("br"), line);
    }
    item.dataset.kind = habit.kind;
    return item;
  }));
}
