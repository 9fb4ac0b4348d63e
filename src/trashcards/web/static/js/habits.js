// A player's habits (docs/players.md, "Habits"): each kind of chance the coach judged,
// how often it was missed, with its 95 % range and how many chances that is.

import { t } from "./i18n.js";

const pct = (share) => Math.round(100 * share);

/** Fill `list` with one line per habit ([{kind, chances, misses, rate, low, high}]). */
export function renderHabits(list, habits) {
  if (!habits || !habits.length) {
    const item = document.createElement("li");
    item.textContent = t("habits.none");
    list.replaceChildren(item);
    return;
  }
  list.replaceChildren(...habits.map((habit) => {
    const item = document.createElement("li");
    item.dataset.kind = habit.kind;
    item.textContent = t(`habits.${habit.kind}`, {
      rate: pct(habit.rate), misses: habit.misses, count: habit.chances,
      low: pct(habit.low), high: pct(habit.high) });
    return item;
  }));
}
