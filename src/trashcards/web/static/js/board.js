// @ts-check
// Drawing the table: each player's board (two rows of five), the stock, the discard pile
// and the card in hand. Pure functions from a view (RECORDS.md JSON) to DOM elements;
// the table page's view (js/table/view.js) decides what is clickable.

import { t } from "./i18n.js";
import { cardElement, cardName, isWildCard, isWildInSlot } from "./cards.js";
import { el } from "./dom.js";
import { slotKey, slotLabel } from "./prompt.js";
import { EMOJI, reactionLabel } from "./reactions.js";

export { slotLabel };

/**
 * One player's board.
 * ctx: {seat, player, name (display name), big, you, toAct, badges: [{text, kind}],
 *       wildSlots: Set<number> (clickable slots), onSlot(k), startSize, focus,
 *       revealed: the card of each slot that stayed face down when the round ended,
 *       reaction: the emote this seat sent a moment ago, or null}
 */
export function boardElement(ctx) {
  const { seat, player, big } = ctx;
  const section = el("section", "board");
  section.dataset.seat = String(seat);
  if (big) section.classList.add("big");
  if (ctx.toAct) section.classList.add("to-act");
  const headingId = `board-${seat}-title`;
  section.setAttribute("aria-labelledby", headingId);

  const header = el("header", "board-head");
  const title = el("h2", "board-name");
  title.id = headingId;
  title.textContent = ctx.you ? t("board.you", { name: ctx.name }) : ctx.name;
  title.title = title.textContent;
  header.append(title);
  const facts = el("p", "board-facts");
  facts.append(
    el("span", "fact rounds", t("board.rounds_won", { count: player.rounds_won })),
    el("span", "fact size", t("board.size", { count: player.board_size })),
  );
  if (ctx.toAct) facts.append(el("span", "fact turn", t("board.to_play")));
  for (const badge of ctx.badges || []) facts.append(el("span", `fact ${badge.kind}`, badge.text));
  header.append(facts);
  if (ctx.reaction) {
    // A reaction of this seat (js/reactions.js), for a few seconds.
    const bubble = el("p", "reaction-bubble");
    bubble.dataset.emote = ctx.reaction;
    const icon = el("span", "reaction-icon", EMOJI[ctx.reaction] || "");
    icon.setAttribute("aria-hidden", "true");
    bubble.append(icon, el("span", "reaction-word", reactionLabel(ctx.reaction)));
    header.append(bubble);
  }
  section.append(header);

  const grid = el("div", "slots");
  const positions = Math.max(ctx.startSize || 10, player.board_size, 1);
  const rows = positions > 5 ? 10 : 5;
  for (let k = 1; k <= rows; k += 1) {
    const slot = player.slots[k - 1];
    if (k > player.board_size) {
      const gone = el("div", "slot gone");
      gone.setAttribute("aria-hidden", "true");
      if (k > positions) gone.classList.add("none");
      grid.append(gone);
      continue;
    }
    const clickable = ctx.wildSlots && ctx.wildSlots.has(k);
    const node = el(clickable ? "button" : "div", "slot");
    node.dataset.slot = String(k);
    const up = slot && slot.up && slot.card;
    const wild = up && isWildInSlot(slot.card, k);
    const turned = !up && ctx.revealed ? ctx.revealed[k - 1] : null;  // the round is over
    const state = up
      ? (wild ? t("slot.wild", { card: cardName(slot.card) }) : cardName(slot.card))
      : turned ? t("slot.revealed", { card: cardName(turned) }) : t("slot.face_down");
    let label = t("slot.label", { slot: slotLabel(k), state });
    if (clickable) {
      /** @type {HTMLButtonElement} */ (node).type = "button";
      node.classList.add("legal");
      node.setAttribute("aria-keyshortcuts", slotKey(k));
      label = t("slot.put_wild", { slot: slotLabel(k), key: slotKey(k) });
      node.addEventListener("click", () => ctx.onSlot(k));
    } else {
      node.setAttribute("role", "img");
    }
    node.setAttribute("aria-label", label);
    node.title = label;
    const card = cardElement(up ? slot.card : turned, { wild });
    card.setAttribute("aria-hidden", "true");
    if (turned) {
      // Turned up by the round's end, not played: a tag in words, not only a tint.
      node.classList.add("revealed");
      const tag = el("span", "reveal-tag", t("slot.revealed_tag"));
      tag.setAttribute("aria-hidden", "true");  // the slot's name says it in full
      card.append(tag);
    }
    node.append(card, el("span", "slot-number", slotLabel(k)));
    if (ctx.focus && ctx.focus.seat === seat && ctx.focus.slot === k) node.classList.add("flash");
    grid.append(node);
  }
  if (ctx.focus && ctx.focus.seat === seat && !ctx.focus.slot) section.classList.add("flash");
  section.append(grid);
  return section;
}

/**
 * The middle of the table: stock, discard pile, card in hand and the action buttons.
 * ctx: {state, legal: Set<string> (this browser's legal actions), act(action),
 *       showPile(), wildRanks, focus, handOwner}
 */
export function centerElement(ctx) {
  const { state } = ctx;
  const wrap = el("div", "piles");

  // Stock
  const stockLegal = ctx.legal.has("stock");
  const stock = el(stockLegal ? "button" : "div", "pile stock");
  const stockLabel = t("pile.stock", { count: state.stock_count });
  const stockCard = state.stock_count > 0 ? cardElement(null) : el("span", "card empty");
  stockCard.setAttribute("aria-hidden", "true");
  stock.append(stockCard, el("span", "pile-caption", stockLabel));
  if (stockLegal) {
    // Named by what it shows ("Stock: 31 cards") and what it does, said after it.
    /** @type {HTMLButtonElement} */ (stock).type = "button";
    stock.classList.add("legal");
    stock.setAttribute("aria-keyshortcuts", "S");
    stock.addEventListener("click", () => ctx.act("stock"));
    stock.append(el("span", "visually-hidden", t("pile.stock_more")));
  } else {
    stock.setAttribute("role", "img");
    stock.setAttribute("aria-label", stockLabel);
  }
  if (ctx.focus === "stock") stock.classList.add("flash");

  // Discard pile
  const discardBox = el("div", "pile-box");
  const top = state.discard.length ? state.discard[state.discard.length - 1] : null;
  const discardLegal = ctx.legal.has("discard");
  const discard = el(discardLegal ? "button" : "div", "pile discard");
  const topName = top ? cardName(top) : t("pile.empty");
  const topCard = top ? cardElement(top, { wild: isWildCard(top, ctx.wildRanks) })
    : el("span", "card empty");
  topCard.setAttribute("aria-hidden", "true");
  discard.append(topCard, el("span", "pile-caption", t("pile.discard_caption")));
  if (discardLegal) {
    // Named by what it shows ("Discard pile") and what it does, said after it.
    /** @type {HTMLButtonElement} */ (discard).type = "button";
    discard.classList.add("legal");
    discard.setAttribute("aria-keyshortcuts", "D");
    discard.addEventListener("click", () => ctx.act("discard"));
    discard.append(el("span", "visually-hidden", t("pile.discard_more", { card: topName })));
  } else {
    discard.setAttribute("role", "img");
    discard.setAttribute("aria-label", t("pile.discard", { card: topName }));
  }
  if (ctx.focus === "discard") discard.classList.add("flash");
  const showPile = el("button", "link-button show-pile",
    t("pile.show", { count: state.discard.length }));
  showPile.type = "button";
  showPile.disabled = state.discard.length === 0;
  showPile.addEventListener("click", ctx.showPile);
  discardBox.append(discard, showPile);

  // Card in hand and the choices about it
  const hand = el("div", "hand");
  if (ctx.focus === "hand") hand.classList.add("flash");
  const handTitle = el("p", "hand-title", ctx.handOwner
    ? t("hand.title_of", { name: ctx.handOwner }) : t("hand.title"));
  if (state.in_hand) {
    const card = cardElement(state.in_hand, { wild: isWildCard(state.in_hand, ctx.wildRanks) });
    hand.append(handTitle, card);
  } else {
    const none = el("span", "card empty");
    none.setAttribute("aria-hidden", "true");
    hand.append(handTitle, none);
  }
  const buttons = el("div", "actions");
  for (const [action, key] of [["swap", "W"], ["trash", "T"], ["call", "C"]]) {
    if (!ctx.legal.has(action)) continue;
    const button = el("button", `action legal action-${action}`);
    button.type = "button";
    button.dataset.action = action;
    button.setAttribute("aria-keyshortcuts", key);
    button.append(el("span", "", t(`action.${action}`)), el("kbd", "", key));
    button.addEventListener("click", () => ctx.act(action));
    buttons.append(button);
  }
  hand.append(buttons);

  wrap.append(stock, discardBox, hand);
  return wrap;
}
