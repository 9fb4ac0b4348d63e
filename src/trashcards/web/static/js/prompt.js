// @ts-check
// What the prompt tells the player to act: the card in hand and exactly the choices the
// server's `legal` list holds now, each with its key ("put it on a face-down slot (2, 5,
// 7–9, 0)", "call “Trash!” (C)"). Only presentation: the server decides what is legal.

import { currentLanguage, t } from "./i18n.js";
import { cardShort, parseCard } from "./cards.js";

/** The label people read for slot k: A, 2 … 10. */
export function slotLabel(k) { return k === 1 ? "A" : String(k); }

/** The key that picks slot k: 1…9, and 0 for 10. */
export function slotKey(k) { return k === 10 ? "0" : String(k); }

/** The keys of some slots, runs of three or more shown as a range: "1–9, 0", "2, 3, 6". */
export function slotKeys(slots) {
  const sorted = [...new Set(slots)].sort((a, b) => a - b);
  const parts = [];
  let run = [];
  const flush = () => {
    if (run.length >= 3) parts.push(`${run[0]}–${run[run.length - 1]}`);
    else parts.push(...run.map(String));
    run = [];
  };
  for (const slot of sorted) {
    if (slot === 10) continue;
    if (run.length && slot !== run[run.length - 1] + 1) flush();
    run.push(slot);
  }
  flush();
  if (sorted.includes(10)) parts.push("0");
  return parts.filter(Boolean).join(", ");
}

/** The slots a `wild K` action may go to. */
export function wildSlots(legal) {
  const slots = [];
  for (const action of legal) {
    const match = /^wild (\d+)$/.exec(action);
    if (match) slots.push(Number(match[1]));
  }
  return slots;
}

/** "A, B or C" in the current language. */
export function orList(items) {
  try {
    return new Intl.ListFormat(currentLanguage(), { type: "disjunction" }).format(items);
  } catch {
    return items.join(", ");
  }
}

/** "A, B and C" in the current language. */
export function andList(items) {
  try {
    return new Intl.ListFormat(currentLanguage(), { type: "conjunction" }).format(items);
  } catch {
    return items.join(", ");
  }
}

/**
 * The prompt of the seat to act. state: the view; name: the player's display name;
 * named: address the player by name (a hot-seat screen shared by several people).
 */
export function turnPrompt(state, name, named) {
  const legal = new Set(state.legal);
  const hand = state.in_hand;
  const choices = [];
  let lead;
  if (state.phase === "draw") {
    lead = t(named ? "prompt.your_turn_named" : "prompt.your_turn", { name });
    if (legal.has("stock")) choices.push(t("choice.stock"));
    if (legal.has("discard")) {
      const top = state.discard[state.discard.length - 1];
      choices.push(t("choice.discard", { card: cardShort(top) }));
    }
  } else if (state.phase === "wild") {
    lead = t(named ? "prompt.hold_wild_named" : "prompt.hold_wild",
      { name, card: cardShort(hand) });
    const slots = wildSlots(state.legal);
    if (slots.length) choices.push(t("choice.slots", { keys: slotKeys(slots) }));
    if (legal.has("trash")) choices.push(t("choice.trash_wild"));
  } else if (state.phase === "swap") {
    lead = t(named ? "prompt.hold_card_named" : "prompt.hold_card",
      { name, card: cardShort(hand) });
    const card = parseCard(hand);
    if (legal.has("swap")) choices.push(t("choice.swap", { slot: card ? card.value : "" }));
    if (legal.has("trash")) choices.push(t("choice.trash_card"));
  } else {
    return t("prompt.other_turn", { name });
  }
  if (legal.has("call")) choices.push(t("choice.call"));
  return t("prompt.turn", { lead, choices: orList(choices) });
}
