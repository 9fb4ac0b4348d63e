// @ts-check
// Cards drawn with HTML and CSS: rank and suit symbol, red or black, backs for face-down
// cards, and a marker for wilds. Nothing is downloaded.

import { t } from "./i18n.js";

const SUIT_SYMBOL = { s: "♠", h: "♥", d: "♦", c: "♣" };
const RANK_TEXT = { A: "A", T: "10", J: "J", Q: "Q", K: "K" };
const RANK_VALUE = { A: 1, T: 10, J: 11, Q: 12, K: 13 };

/** Parse "Th", "As", "X1" into {rank, suit, joker, value, text}. */
export function parseCard(text) {
  if (!text) return null;
  if (text[0] === "X") return { text, joker: true, rank: "X", suit: null, value: 0 };
  const rank = text.slice(0, -1).toUpperCase();
  const suit = text.slice(-1).toLowerCase();
  const value = RANK_VALUE[rank] ?? Number(rank);
  return { text, joker: false, rank, suit, value };
}

/** The short face text people read: "10♥", "A♠", "Joker". */
export function cardShort(text) {
  const card = parseCard(text);
  if (!card) return "";
  if (card.joker) return t("card.joker_short");
  return `${RANK_TEXT[card.rank] ?? card.rank}${SUIT_SYMBOL[card.suit] ?? ""}`;
}

/** The spoken name of a card in the current language: "10 of hearts". */
export function cardName(text) {
  const card = parseCard(text);
  if (!card) return "";
  if (card.joker) return t("card.joker");
  return t("card.name", { rank: t(`rank.${card.rank}`), suit: t(`suit.${card.suit}`) });
}

/** Is this card wild under the table's rules (wild face ranks, Jokers always)? */
export function isWildCard(text, wildRanks) {
  const card = parseCard(text);
  if (!card) return false;
  return card.joker || (wildRanks || ["J"]).includes(card.rank);
}

/** Is a face-up card in slot k (1-based) a wild standing in for the natural card? */
export function isWildInSlot(text, slot) {
  const card = parseCard(text);
  return Boolean(card) && (card.joker || card.value !== slot);
}

function span(className, text) {
  const el = document.createElement("span");
  el.className = className;
  if (text !== undefined) el.textContent = text;
  return el;
}

/**
 * A card element. options: {wild: bool, label: string (aria-label), small: bool}.
 * A null text draws a face-down card (a back).
 */
export function cardElement(text, options = {}) {
  const el = span("card");
  el.setAttribute("role", "img");
  if (!text) {
    el.classList.add("back");
    el.setAttribute("aria-label", options.label || t("card.face_down"));
    return el;
  }
  const card = parseCard(text);
  const red = card.suit === "h" || card.suit === "d";
  el.classList.add(red ? "red" : "black");
  el.dataset.card = text;
  if (card.joker) {
    el.classList.add("joker");
    el.append(span("rank", "★"), span("suit", t("card.joker_short")));
  } else {
    el.append(span("rank", RANK_TEXT[card.rank] ?? card.rank),
      span("suit", SUIT_SYMBOL[card.suit] ?? ""));
  }
  let label = cardName(text);
  if (options.wild) {
    el.classList.add("wild");
    el.append(span("wild-tag", t("card.wild_tag")));
    label = t("card.wild_name", { card: label });
  }
  el.setAttribute("aria-label", options.label || label);
  return el;
}
