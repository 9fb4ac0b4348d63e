// @ts-check
// A review in words (trashcards.ai.reviewtext, ported): each judged decision as sentences
// — what the player did with which card, the better move, what it cost with its interval —
// and each player's figures at a glance, as catalog keys (review.*) with parameters, from
// the review's JSON and the position before the move (a spectator's view). `trashcards
// review` prints the same sentences in English (the browser test compares them).

import { cardShort, parseCard } from "./cards.js";
import { slotLabel } from "./board.js";
import { currentLanguage, t } from "./i18n.js";

/** Match-win chance in points (percentage points) for people, in the page's language:
 *  one decimal, two under one point, or `digits`; no sign on a zero. */
export function points(value, digits = costDigits(value)) {
  const text = new Intl.NumberFormat(currentLanguage(), {
    minimumFractionDigits: digits, maximumFractionDigits: digits, useGrouping: false,
  }).format(value * 100);
  return /^[-−]0(?:[.,]0+)?$/.test(text) ? text.slice(1) : text;
}

function costDigits(cost) { return Math.abs(cost) >= 0.01 ? 1 : 2; }

/** What `action` (record text) did in the position `before`: [form, params] (the card as
 *  people write it, the slot by its label).
 *  @returns {[string, Record<string, string>]} */
export function formOf(action, before) {
  const [verb, arg] = String(action).split(" ");
  const top = before.discard.length ? before.discard[before.discard.length - 1] : null;
  const hand = before.in_hand;
  const card = (text) => (text ? cardShort(text) : "?");
  const own = () => {
    const parsed = parseCard(hand);
    return parsed && parsed.value >= 1 && parsed.value <= 10 ? slotLabel(parsed.value) : "?";
  };
  switch (verb) {
    case "stock":
      return top && (before.legal || []).includes("discard")
        ? ["stock_past", { card: card(top) }] : ["stock", {}];
    case "discard": return ["discard", { card: card(top) }];
    case "wild": return ["wild", { card: card(hand), slot: slotLabel(Number(arg)) }];
    case "call": return ["call", {}];
    case "swap": return ["swap", { card: card(hand), slot: own() }];
    default:
      return before.phase === "swap" ? ["keep_wild", { card: card(hand), slot: own() }]
        : ["trash_wild", { card: card(hand) }];
  }
}

/** @typedef {[string, Record<string, string | number>]} Sentence a catalog key and its
 *  parameters */

/** The decision `d` (review JSON) in sentences, [key, params] each, from the position
 *  `before` it and the player's `name`.
 *  @returns {Sentence[]} */
export function lessonOf(d, before, name) {
  const [did, params] = formOf(d.taken, before);
  /** @type {Sentence[]} */
  const out = [[`review.did.${did}`, { name, ...params }]];
  if (d.kind === "ok") {
    out.push([d.taken === d.best ? "review.ok_best" : "review.ok_tied", {}]);
    return out;
  }
  if (d.kind === "missed_call") out.push(["review.no_call", {}]);
  if (d.best !== d.taken) {
    const [better, more] = formOf(d.best, before);
    out.push([`review.better.${better}`, more]);
  }
  out.push(costOf(d));
  return out;
}

/** @returns {Sentence} */
function costOf(d) {
  const [low, high] = d.cost_ci;
  const digits = costDigits(d.cost ? d.cost : d.measured);
  const value = { points: points(d.cost, digits), low: points(low, digits),
                  high: points(high, digits) };
  if (d.kind === "missed_call" && !(d.exact || low > 0)) return ["review.cost_none", value];
  const small = d.kind === "small_loss" ? "_small" : "";
  if (d.exact) return [`review.cost${small}_exact`, { points: value.points }];
  return [`review.cost${small}`, value];
}

/** The sentences of a lesson, translated, as one text. */
export function say(lesson) {
  return lesson.map(([key, params]) => t(key, params)).join(" ");
}

/** Where a decision was: its move (counted from 1), round and player. */
export function headingOf(d, name) {
  return t("review.heading", { move: d.move + 1, round: d.round, name });
}

/** A player's figures (review JSON's summary) under the review.col_* headings:
 *  mistakes, small losses, the decisions that matched the best, the largest loss. */
export function figuresOf(s) {
  const largest = s.largest_loss;
  return [
    t("review.count", { count: s.mistakes }),
    t("review.count", { count: s.small_losses }),
    t("review.matched", { matched: s.matched, count: s.decisions,
      percent: s.decisions ? Math.round((100 * s.matched) / s.decisions) : 100 }),
    largest ? t("review.largest", { points: points(largest.cost), move: largest.move + 1 })
      : t("review.none"),
  ];
}
