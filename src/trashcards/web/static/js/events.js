// @ts-check
// The chain, step by step: each event of an `events` message applied to a copy of the
// shown state (so the board can be drawn after every step), and told in words for the
// "What happened" log. The state that arrives with the message always has the last word.
// Every fact comes from the server's events (a discard carries `why`); nothing here
// decides a rule.

import { t } from "./i18n.js";
import { cardShort } from "./cards.js";
import { andList } from "./prompt.js";

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
    case "dealer_chosen":
      state.dealer = event.seat;
      break;
    case "dealt":
      state.round = event.round;
      state.dealer = event.dealer;
      state.discard = [];
      state.in_hand = null;
      state.round_winners = [];
      state.unclaimed = [];
      state.final_from = null;
      state.called = false;
      state.match_winner = null;
      (event.sizes || []).forEach((size, seat) => {
        if (!state.players[seat]) return;
        state.players[seat].board_size = size;
        state.players[seat].slots = Array.from({ length: size }, () => ({ card: null, up: false }));
      });
      state.stock_count = Math.max(0, (state.stock_count || 0));
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
    case "called":
      state.called = true;
      focus = { seat: event.seat };
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
      state.stock_count = event.size;
      state.discard = state.discard.slice(-1);
      focus = "stock";
      break;
    case "completed":
      if (!event.claimed && !state.unclaimed.includes(event.seat)) state.unclaimed.push(event.seat);
      focus = { seat: event.seat };
      break;
    case "claimed":
      state.unclaimed = state.unclaimed.filter((s) => s !== event.seat);
      focus = { seat: event.seat };
      break;
    case "final_cycle":
      state.final_from = event.seat;
      break;
    case "round_won":
      if (state.players[event.seat]) state.players[event.seat].rounds_won = event.rounds_won;
      if (!state.round_winners.includes(event.seat)) state.round_winners.push(event.seat);
      focus = { seat: event.seat };
      break;
    case "match_won":
      state.match_winner = event.seat;
      focus = { seat: event.seat };
      break;
    case "turn_passed":
      state.to_act = event.seat;
      state.in_hand = null;
      state.called = false;
      focus = { seat: event.seat };
      break;
    default:
      break;
  }
  return { state, focus };
}

/** Why a card was discarded, as a clause ("slot 10 already holds 10♥"), or "" when the
 *  event does not say (a choice, or an old server). */
export function whyClause(event) {
  const why = event.why;
  if (!why) return "";
  switch (why.reason) {
    case "trash": {
      const rank = String(event.card || "").slice(0, -1).toUpperCase();
      return ["J", "Q", "K"].includes(rank) ? t(`why.trash_${rank}`) : t("why.trash");
    }
    case "no_slot":
      return t("why.no_slot", { size: why.size, slot: why.slot });
    case "taken":
      return t("why.taken", { slot: why.slot, held: cardShort(why.held) });
    case "complete":
      return t("why.complete");
    default:
      return "";
  }
}

/** The reason a turn ended on a discard, for the prompt: "10♠: slot 10 already holds
 *  10♥", or "" for a discard the player chose. */
export function turnEndReason(event) {
  const clause = whyClause(event);
  return clause ? t("why.card", { card: cardShort(event.card), why: clause }) : "";
}

/**
 * The log lines of a sequence of events: [{text, kind, first}] (`first`: the index of
 * the first event the line tells). ctx: {name(seat) → display
 * name, you(seat) → is this the one person at this screen}. A placement and the card it
 * turned up make one line, as in the terminal's narration.
 */
export function describeEvents(events, ctx) {
  const lines = [];
  for (let i = 0; i < events.length; i += 1) {
    const event = events[i];
    const next = events[i + 1];
    if (event.type === "placed" && next && next.type === "turned_up"
        && next.seat === event.seat && next.slot === event.slot) {
      const key = event.wild ? "event.placed_wild_turned" : "event.placed_turned";
      lines.push({ text: say(key, event, ctx, { up: cardShort(next.card) }), kind: "move",
        first: i });
      i += 1;
      continue;
    }
    const text = describeEvent(event, ctx);
    if (text) lines.push({ text, kind: kindOf(event), first: i });
    if (event.revealed) lines.push(...revealedLines(event.revealed, ctx, i));
  }
  return lines;
}

/** What stayed face down on each board when a round ended, one line per player who had
 *  any: "Under Bo's face-down cards: slot 3 Q♠, slot 7 10♦." */
export function revealedLines(revealed, ctx, first) {
  const lines = [];
  revealed.forEach((board, seat) => {
    const cards = [];
    (board || []).forEach((card, index) => {
      if (card) cards.push(t("event.revealed_slot", { slot: index + 1, card: cardShort(card) }));
    });
    if (!cards.length) return;
    const key = ctx.you(seat) ? "event.revealed_you" : "event.revealed";
    lines.push({ text: t(key, { name: ctx.name(seat), cards: cards.join(", ") }),
      kind: "reveal", first });
  });
  return lines;
}

function kindOf(event) {
  if (event.type === "dealt" || event.type === "dealer_chosen") return "round";
  if (["round_won", "match_won", "completed", "claimed"].includes(event.type)) return "win";
  if (event.type === "turn_passed") return "turn";
  return "move";
}

/** A message in the second person when the event's seat is `you`, else with the name. */
function say(key, event, ctx, extra = {}) {
  const you = event.seat !== undefined && ctx.you(event.seat);
  const params = {
    name: event.seat !== undefined ? ctx.name(event.seat) : "",
    card: event.card ? cardShort(event.card) : "",
    slot: event.slot,
    round: event.round,
    ...extra,
  };
  return t(you ? `${key}_you` : key, params);
}

/** One sentence for an event, in the current language (see describeEvents). */
export function describeEvent(event, ctx) {
  switch (event.type) {
    case "dealer_chosen": {
      const cuts = (event.cuts || []).map(([seat, card]) => (ctx.you(seat)
        ? t("event.cut_you", { card: cardShort(card) })
        : t("event.cut", { name: ctx.name(seat), card: cardShort(card) })));
      if (!cuts.length) return say("event.dealer_first", event, ctx);
      return say("event.dealer_chosen", event, ctx, { cuts: cuts.join(", ") });
    }
    case "dealt": {
      const params = { round: event.round, dealer: ctx.name(event.dealer),
        first: ctx.name(event.first) };
      if (ctx.you(event.dealer)) return t("event.dealt_you_deal", params);
      if (ctx.you(event.first)) return t("event.dealt_you_first", params);
      return t("event.dealt", params);
    }
    case "drew":
      return say(event.source === "discard" ? "event.drew_discard" : "event.drew_stock",
        event, ctx);
    case "called":
      return say("event.called", event, ctx);
    case "placed":
      return say(event.wild ? "event.placed_wild" : "event.placed", event, ctx);
    case "turned_up":
      return say("event.turned_up", event, ctx);
    case "swapped":
      return say("event.swapped", event, ctx, { wild: cardShort(event.wild) });
    case "discarded": {
      const why = event.why || {};
      if (why.reason === "wild") return say("event.trashed_wild", event, ctx);
      if (why.reason === "kept_wild") {
        return say("event.trashed_kept", event, ctx, { slot: why.slot, held: cardShort(why.held) });
      }
      const clause = whyClause(event);
      return clause ? say("event.discarded_why", event, ctx, { why: clause })
        : say("event.discarded", event, ctx);
    }
    case "stock_empty":
      return say("event.stock_empty", event, ctx);
    case "reshuffled":
      return t("event.reshuffled", { count: event.size });
    case "completed":
      return say(event.claimed ? "event.completed" : "event.completed_uncalled", event, ctx);
    case "penalty_drawn":
      return say("event.penalty_drawn", event, ctx);
    case "claimed":
      return say("event.claimed", event, ctx);
    case "round_won":
      return say("event.round_won", event, ctx, { count: event.rounds_won });
    case "final_cycle":
      return say("event.final_cycle", event, ctx);
    case "round_void":
      return t("event.round_void", { round: event.round });
    case "match_won":
      return say("event.match_won", event, ctx);
    case "turn_passed":
      return say("event.turn_passed", event, ctx);
    default:
      return "";
  }
}

// -- one sentence a turn (the announcements' brief verbosity) -------------------------------

/** The clause of one event inside a turn's sentence ("draws 3♥ from the stock", "fills
 *  slots 3, 1"), or null for an event that is said on its own (a deal, a round won) or
 *  not at all (a card turned up: the slot it fills says it). */
function clause(event, ctx) {
  const you = ctx.you(event.seat) ? "_you" : "";
  const card = event.card ? cardShort(event.card) : "";
  switch (event.type) {
    case "drew":
      return t(`brief.drew_${event.source === "discard" ? "discard" : "stock"}${you}`, { card });
    case "called":
      return t(`brief.called${you}`);
    case "placed":
      return event.wild ? t(`brief.wild${you}`, { card, slot: event.slot }) : null;
    case "swapped":
      return t(`brief.swapped${you}`, { card, slot: event.slot, wild: cardShort(event.wild) });
    case "discarded": {
      const why = event.why || {};
      if (why.reason === "wild" || why.reason === "kept_wild") return t(`brief.trashed${you}`, { card });
      const reason = whyClause(event);
      return reason ? t(`brief.discarded_why${you}`, { card, why: reason })
        : t(`brief.discarded${you}`, { card });
    }
    case "penalty_drawn":
      return t(`brief.penalty${you}`, { card });
    case "completed":
      return event.claimed ? t(`brief.completed${you}`) : null;
    default:
      return null;
  }
}

/** Events a turn's sentence tells (the rest are said on their own, in full). */
const IN_A_TURN = new Set(["drew", "called", "placed", "turned_up", "swapped", "discarded",
  "penalty_drawn"]);

/**
 * The sentences of a sequence of events with each turn summed up in one ("Bo: draws 3♥
 * from the stock, fills slots 3, 1 and discards K♠ (Kings are trash)."): a chain is one
 * sentence, whatever its length. Deals, round ends and the rest are said as the log says
 * them; a new turn is not said (the prompt says whose it is). [{text, first}], as
 * describeEvents.
 */
export function summarizeEvents(events, ctx) {
  const lines = [];
  let seat = null;
  let parts = [];
  let filled = [];
  let first = 0;
  const fill = () => {
    if (!filled.length) return;
    const you = ctx.you(seat) ? "_you" : "";
    parts.push(t(`brief.filled${you}`, { slots: filled.join(", "), count: filled.length }));
    filled = [];
  };
  const flush = () => {
    fill();
    if (seat !== null && parts.length) {
      const text = ctx.you(seat) ? t("brief.turn_you", { actions: andList(parts) })
        : t("brief.turn", { name: ctx.name(seat), actions: andList(parts) });
      lines.push({ text, kind: "move", first });
    }
    seat = null;
    parts = [];
  };
  events.forEach((event, index) => {
    const completes = event.type === "completed" && event.claimed;
    if (IN_A_TURN.has(event.type) || completes) {
      if (seat !== event.seat) {
        flush();
        seat = event.seat;
        first = index;
      }
      if (event.type === "placed" && !event.wild) {
        filled.push(event.slot);
        return;
      }
      const text = clause(event, ctx);
      if (text) {
        fill();
        parts.push(text);
      }
      return;
    }
    flush();
    if (event.type === "turn_passed") return;
    const text = describeEvent(event, ctx);
    if (text) lines.push({ text, kind: kindOf(event), first: index });
    if (event.revealed) lines.push(...revealedLines(event.revealed, ctx, index));
  });
  flush();
  return lines;
}
