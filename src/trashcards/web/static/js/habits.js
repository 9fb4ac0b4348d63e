// @ts-check
// A player's habits (docs/players.md, "Habits"): each kind of chance the coach judged,
// how often it was missed, with its 95 % range and how many chances that is.

import { t } from "./i18n.js";
import { el } from "./dom.js";

/**
 * A habit as the server sends it: a kind of chance, how often it was missed, and the
 * miss rate's 95 % range.
 * @typedef {object} Habit
 * @property {string} kind
 * @property {number} chances
 * @property {number} misses
 * @property {number} rate
 * @property {number} low
 * @property {number} high
 */

/** @param {number} share @returns {number} a percentage, whole */
const pct = (share) => Math.round(100 * share);

/** Fill `list` with one line per habit ([{kind, chances, misses, rate, low, high}]).
 *  @param {HTMLElement} list @param {Habit[]|null} habits */
export function renderHabits(list, habits) {
  if (!habits || !habits.length) {
    list.replaceChildren(el("li", "", t("habits.none")));
    return;
  }
  list.replaceChildren(...habits.map((habit) => {
    const item = el("li", "", t(`habits.${habit.kind}`, {
      rate: pct(habit.rate), misses: habit.misses, count: habit.chances,
      low: pct(habit.low), high: pct(habit.high) }));
    item.dataset.kind = habit.kind;
    return item;
  }));
}
