// The chain, step by step: each event of an `events` message applied to a copy of the
// shown state (so the board can be drawn after every step), and told in words for the
// live region. The state that arrives with the message always has the last word.

import { t } from "./i18n.js";
import { cardName } from "./cards.js";

function clone(state) { return JSON.parse(JSON.stringify(state)); }

function slotOf(state, seat, slot) {
  const player = state.players && state.players[seat];
  return player && player.slots ? player.slots[slot - 1] : undefined;
}

/** The state after one event (a best effort for drawing; unknown events change nothing).
 *  Returns {state, focus}: focus names what to highlight ({seat, slot} | "stock" |
 *  "discard" | "hand"). */
export function stepState(previous, event) {
  if (!previous || !previous.players) return { state: previous, focus: null };
  const state = clone(previous);
  let focus = null;
  switch (event.type) {
    case "dealt":
      state.round = event.round;
      state.dealer = event.dealer;
      state.discard = [];
      state.in_hand = null;
      state.round_winners = [];
      (event.sizes || []).forEach((size, seat) => {
        if (!state.players[seat]) return;
        state.players[seat].board_size = size;
        state.players[seat].slots = Array.from({ length: size }, () => ({ card: null, up: false }));
      });
      state.to_act = event.first;
      focus = "stock";
      break;
    case "drew":
      state.to_act = event.seat;
      state.in_hand = event.card;
      if (event.source === "discard") state.discard.pop();
      else state.stock_count = Math.max(0, (state.stock_count || 0) - 1);
      focus = "hand";
      break;
    case "placed": {
      const slot = slotOf(state, event.seat, event.slot);
      if (slot) Object.assign(slot, { card: event.card, up: true });
      state.in_hand = null;
      focus = { seat: event.seat, slot: event.slot };
      break;
    }
    case "turned_up":
      state.in_hand = event.card;
      focus = { seat: event.seat, slot: event.slot };
      break;
    case "swapped": {
      const slot = slotOf(state, event.seat, event.slot);
      if (slot) Object.assign(slot, { card: event.card, up: true });
      state.in_hand = event.wild;
      focus = { seat: event.seat, slot: event.slot };
      break;
    }
    case "discarded":
      state.discard.push(event.card);
      state.in_hand = null;
      focus = "discard";
      break;
    case "penalty_drawn":
      state.discard.push(event.card);
      state.stock_count = Math.max(0, (state.stock_count || 0) - 1);
      focus = "discard";
      break;
    case "reshuffled":
      state.stock_count = event.count;
      state.discard = state.discard.slice(-1);
      focus = "stock";
      break;
    case "round_won":
      if (state.players[event.seat]) state.players[event.seat].rounds_won = event.rounds_won;
      focus = { seat: event.seat };
      break;
    case "turn_passed":
      state.to_act = event.seat;
      state.in_hand = null;
      focus = { seat: event.seat };
      break;
    case "completed":
    case "claimed":
    case "called":
    case "match_won":
      focus = { seat: event.seat };
      break;
    default:
      break;
  }
  return { state, focus };
}

/** One sentence for an event, in the current language. `names[seat]` are the players'
 *  names; `mine` is the set of seats this browser plays ("you"). */
export function describeEvent(event, names, mine) {
  const name = (seat) => names[seat] ?? t("seat.unknown", { seat: Number(seat) + 1 });
  const you = (seat) => mine.has(seat) && mine.size === 1;
  const p = { name: name(event.seat), card: event.card ? cardName(event.card) : "",
    slot: event.slot, round: event.round };
  switch (event.type) {
    case "dealer_chosen":
      return t("event.dealer_chosen", p);
    case "dealt":
      return t("event.dealt", { round: event.round, dealer: name(event.dealer),
        first: name(event.first) });
    case "drew":
      return t(event.source === "discard" ? "event.drew_discard" : "event.drew_stock", p);
    case "called":
      return t("event.called", p);
    case "placed":
      return t(event.wild ? "event.placed_wild" : "event.placed", p);
    case "turned_up":
      return t("event.turned_up", p);
    case "swapped":
      return t("event.swapped", { ...p, wild: cardName(event.wild) });
    case "discarded":
      return t("event.discarded", p);
    case "stock_empty":
      return t("event.stock_empty", p);
    case "reshuffled":
      return t("event.reshuffled", { count: event.size });
    case "completed":
      return t(event.claimed ? "event.completed" : "event.completed_uncalled", p);
    case "penalty_drawn":
      return t("event.penalty_drawn", p);
    case "claimed":
      return t("event.claimed", p);
    case "round_won":
      return t("event.round_won", { ...p, count: event.rounds_won });
    case "final_cycle":
      return t("event.final_cycle", p);
    case "round_void":
      return t("event.round_void", p);
    case "match_won":
      return t("event.match_won", p);
    case "turn_passed":
      return you(event.seat) ? t("event.turn_passed_you") : t("event.turn_passed", p);
    default:
      return "";
  }
}
