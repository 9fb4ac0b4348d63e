// @ts-check
// What the table page says to a reader who does not see it (docs/accessibility.md): a
// board, the piles and the card in hand, in sentences of the page's language, on
// request (keys B, P and N). No DOM here: tests/web/js/speech.test.mjs runs it under
// Node.

import { t } from "../i18n.js";
import { cardName, isWildInSlot } from "../cards.js";
import { slotLabel } from "../prompt.js";
import { homeSeat, nameOf, you } from "./state.js";

/** @typedef {import("./state.js").TableState} TableState */
/** @typedef {import("protocol").ViewState} ViewState */

/** The board of ``seat`` in words: its face-up cards with their slots, then its
 *  face-down slots. @param {TableState} app @param {number} seat @returns {string} */
export function boardSpeech(app, seat) {
  const state = app.shown || app.state;
  if (!state || !state.players[seat]) return t("read.nothing");
  const player = state.players[seat];
  const up = [];
  const down = [];
  player.slots.forEach((slot, index) => {
    const k = index + 1;
    if (slot.up && slot.card) {
      const key = isWildInSlot(slot.card, k) ? "read.up_wild" : "read.up_card";
      up.push(t(key, { card: cardName(slot.card), slot: slotLabel(k) }));
    } else {
      down.push(slotLabel(k));
    }
  });
  const upText = up.length ? t("read.up", { cards: up.join(", ") }) : t("read.no_up");
  const downText = down.length ? t("read.down", { slots: down.join(", "), count: down.length })
    : t("read.no_down");
  if (you(app, seat) || (app.seats.size > 1 && homeSeat(app) === seat)) {
    return t("read.board_you", { size: player.board_size, up: upText, down: downText });
  }
  return t("read.board", { name: nameOf(app, seat, state), count: player.rounds_won,
    size: player.board_size, up: upText, down: downText });
}

/** The stock, the discard pile and the card in hand, in words.
 *  @param {TableState} app @returns {string} */
export function pilesSpeech(app) {
  const state = app.shown || app.state;
  if (!state) return t("read.nothing");
  const parts = [`${t("pile.stock", { count: state.stock_count })}.`];
  const top = state.discard.length ? state.discard[state.discard.length - 1] : null;
  parts.push(top ? t("read.discard", { card: cardName(top), count: state.discard.length })
    : t("read.discard_empty"));
  if (state.in_hand && state.to_act !== null) {
    parts.push(you(app, state.to_act) ? t("read.hand", { card: cardName(state.in_hand) })
      : t("read.hand_of", { name: nameOf(app, state.to_act, state),
        card: cardName(state.in_hand) }));
  } else {
    parts.push(t("read.no_hand"));
  }
  return parts.join(" ");
}

/** The seats read by N, in turn order from the seat after this page's own.
 *  @param {TableState} app @returns {number[]} */
export function opponents(app) {
  const state = app.shown || app.state;
  if (!state) return [];
  const home = homeSeat(app) ?? 0;
  const count = state.players.length;
  const seats = [];
  for (let step = 1; step < count; step += 1) seats.push((home + step) % count);
  return seats;
}
