// @ts-check
// A player's habits (docs/players.md, "Habits"): each kind of chance the coach judged,
// how often it was missed, with its 95 % range and how many chances that is; and beside
// each, how often rated players of the player's rating band missed it, with its range:
// "more" or "less" often only when the two ranges do not overlap, else "about the same".
// A band with too few other players is not shown (the server sends no figure of it).

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
 *  peers}]) and `note` with the band compared with.
 *  @param {HTMLElement} list @param {Habit[]|null} habits
 *  @param {HTMLElement|null} [note] @param {PeerBand|null} [band] */
export function renderHabits(list, habits, note = null, band = null) {
  if (!habits || !habits.length) {
    list.replaceChildren(el("li", "", t("habits.none")));
    if (note) note.textContent = "";
    return;
  }
  if (note) note.textContent = bandText(band);
  list.replaceChildren(...habits.map((habit) => {
    const item = el("li", "", habitText(habit));
    const compared = peerText(habit, band);
    if (compared) {
      const line = el("span", "habit-peers", compared);
      if (habit.peers) line.dataset.verdict = habit.peers.verdict;
      item.append(el("br"), line);
    }
    item.dataset.kind = habit.kind;
    return item;
  }));
}
