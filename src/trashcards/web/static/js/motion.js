// @ts-check
// Cards that move: a copy of the card flies from where it was to where it lands (stock →
// hand, hand → slot, slot → hand, hand → discard), the deal goes out card by card and a
// reshuffle sends the pile back to the stock. With "reduce motion" nothing flies. The
// page counts its flights on <body data-flights> (the tests read it).

import { cardElement } from "./cards.js";

const reduced = matchMedia("(prefers-reduced-motion: reduce)");
let flights = 0;
/** Cards whose flight has not landed yet: kept hidden across redraws. */
const pending = new Map();

export function motionOn() { return !reduced.matches; }

const sleep = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });

function rectOf(target) {
  if (!target) return null;
  if (target instanceof DOMRect) return target;
  const el = typeof target === "string" ? document.querySelector(target) : target;
  if (!el) return null;
  const rect = el.getBoundingClientRect();
  return rect.width > 0 && rect.height > 0 ? rect : null;
}

/** The selector of a slot's card on the table. */
export function slotCard(seat, slot) {
  return `#game .board[data-seat="${seat}"] .slot[data-slot="${slot}"] .card`;
}

export const HAND = "#center .hand .card";
export const STOCK = "#center .pile.stock .card";
export const DISCARD = "#center .pile.discard .card";

/** Where each card is before an event: call before drawing the step. */
export function sources(event) {
  const at = (selector) => rectOf(selector);
  switch (event.type) {
    case "drew":
      return [at(event.source === "discard" ? DISCARD : STOCK)];
    case "placed":
    case "discarded":
      return [at(HAND)];
    case "turned_up":
      return [at(slotCard(event.seat, event.slot))];
    case "swapped":
      return [at(HAND), at(slotCard(event.seat, event.slot))];
    case "penalty_drawn":
      return [at(STOCK)];
    case "reshuffled":
      return [at(DISCARD) || at("#center .pile.discard")];
    default:
      return [];
  }
}

/** The flights of an event, from its `sources` to the cards drawn after it. */
function plan(event, from) {
  switch (event.type) {
    case "drew":
      return [{ from: from[0], to: HAND, card: event.card, flip: event.source !== "discard" }];
    case "placed":
      return [{ from: from[0], to: slotCard(event.seat, event.slot), card: event.card }];
    case "turned_up":
      return [{ from: from[0], to: HAND, card: event.card, flip: true }];
    case "swapped":
      return [{ from: from[0], to: slotCard(event.seat, event.slot), card: event.card },
        { from: from[1], to: HAND, card: event.wild }];
    case "discarded":
      return [{ from: from[0], to: DISCARD, card: event.card }];
    case "penalty_drawn":
      return [{ from: from[0], to: DISCARD, card: event.card, flip: true }];
    case "reshuffled":
      return Array.from({ length: 5 }, (_, i) => ({
        from: from[0], to: STOCK, card: null, delay: i * 60 }));
    default:
      return [];
  }
}

/** Hide the cards still waiting for their flight (after every redraw). */
export function keepHidden() {
  for (const selector of pending.keys()) {
    const el = document.querySelector(selector);
    if (el) el.style.visibility = "hidden";
  }
}

function land(selector) {
  const count = (pending.get(selector) || 1) - 1;
  if (count > 0) pending.set(selector, count);
  else pending.delete(selector);
  if (!pending.has(selector)) {
    const el = document.querySelector(selector);
    if (el) el.style.visibility = "";
  }
}

/** One card flying from the rect `from` to the element `to` (a selector). */
async function fly({ from, to, card, flip = false, delay = 0, wild = false }, duration) {
  const target = rectOf(to);
  if (!from || !target) return;
  pending.set(to, (pending.get(to) || 0) + 1);
  keepHidden();
  if (delay) await sleep(delay);
  const el = cardElement(card, { wild });
  el.classList.add("flying");
  el.setAttribute("aria-hidden", "true");
  Object.assign(el.style, {
    left: `${target.left}px`, top: `${target.top}px`,
    width: `${target.width}px`, height: `${target.height}px`,
  });
  el.style.setProperty("--card-w", `${target.width}px`);
  document.body.append(el);
  flights += 1;
  document.body.dataset.flights = String(flights);
  const dx = from.left - target.left;
  const dy = from.top - target.top;
  const scale = from.width / target.width;
  const start = `translate(${dx}px, ${dy}px) scale(${scale})`;
  const frames = flip
    ? [{ transform: `${start} rotateY(90deg)` }, { transform: `${start} rotateY(0deg)`, offset: 0.2 },
      { transform: "none" }]
    : [{ transform: start }, { transform: "none" }];
  try {
    await el.animate(frames, { duration, easing: "cubic-bezier(.3,.7,.3,1)" }).finished;
  } catch { /* interrupted: land at once */ }
  el.remove();
  land(to);
}

/**
 * Animate one event whose step is already drawn; `from` is what `sources(event)` found
 * before drawing it. `speed` below 1 hurries (a queue of moves is waiting).
 */
export async function animateEvent(event, from, speed = 1) {
  if (!motionOn()) return;
  const duration = Math.round(320 * speed);
  await Promise.all(plan(event, from).map((flight) => fly(flight, duration)));
}

/** The deal, card by card: one to each player in turn from the dealer's left, into each
 *  board's next slot, until every board is full. */
export async function animateDeal(event, speed = 1) {
  if (!motionOn()) return;
  const sizes = event.sizes || [];
  const players = sizes.length;
  const order = [];
  const most = Math.max(0, ...sizes);
  for (let k = 1; k <= most; k += 1) {
    for (let step = 1; step <= players; step += 1) {
      const seat = (event.dealer + step) % players;
      if (k <= sizes[seat]) order.push(slotCard(seat, k));
    }
  }
  const from = rectOf(STOCK) || rectOf("#center .pile.stock");
  if (!from || !order.length) return;
  const gap = Math.max(12, Math.min(45, 1300 / order.length)) * speed;
  // Every card is hidden at once (fly marks it before its delay) and shows as it lands.
  await Promise.all(order.map((selector, i) => fly(
    { from, to: selector, card: null, delay: i * gap }, Math.round(260 * speed))));
}

/** How long to rest on a step after its flights. */
export function pause(speed = 1) { return Math.round((motionOn() ? 110 : 0) * speed); }
