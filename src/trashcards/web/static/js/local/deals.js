// @ts-check
// What a view leaves unseen (trashcards.deals): the cards not in sight, from which the
// hints and the coach on this device draw the hidden ones. Below both local/hint.js and
// local/coach.js, which import it.

import * as engine from "./engine.js";

function counts(cards) {
  const out = new Map();
  for (const card of cards) out.set(card, (out.get(card) || 0) + 1);
  return out;
}

/** The cards of `all` less those of `taken` (each card as often as it is there), sorted. */
export function minus(all, taken) {
  const left = counts(all);
  for (const card of taken) {
    const n = left.get(card) || 0;
    if (n <= 0) throw new Error("the view shows more of a card than the match has");
    left.set(card, n - 1);
  }
  const out = [];
  for (const [card, n] of left) for (let i = 0; i < n; i += 1) out.push(card);
  return engine.sortCards(out);
}

/** The cards not in sight: every card less the face-up ones, the discards and the hand. */
export function unseenCards(view, rules) {
  const seen = [...view.discard];
  for (const player of view.players) {
    for (const slot of player.slots) if (slot.up) seen.push(slot.card);
  }
  if (view.in_hand !== null) seen.push(view.in_hand);
  return minus(engine.matchCards(rules, view.players.length), seen);
}
