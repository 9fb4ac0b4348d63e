// @ts-check
// The bots that run on this device (docs/offline.md): ports of trashcards.bots that decide
// from a view (the JSON of trashcards.statejson.view_json) and draw numbers only through
// rng.random(), at the same points as the Python bots, so the same view and the same
// random stream give the same decision (tests/web/test_js_engine.py checks it).

import { deckCount, makeRules, rankOf } from "./engine.js";

function me(view) { return view.players[view.to_act]; }
function faceDown(player) { return player.slots.filter((s) => !s.up).length; }

function wantsToCall(view) {
  return view.legal.includes("call") && faceDown(me(view)) === 1;
}

function wildSlots(view) {
  return view.legal.filter((a) => a.startsWith("wild ")).map((a) => Number(a.slice(5)));
}

function greedyChoice(view, wildSlot) {
  const legal = view.legal;
  if (legal[0] === "stock") return legal.includes("discard") ? "discard" : "stock";
  if (legal[0].startsWith("wild ")) return `wild ${wildSlot}`;
  return "swap";
}

function greedy(view) {
  if (wantsToCall(view)) return "call";
  const slots = wildSlots(view);
  return greedyChoice(view, slots.length ? Math.max(...slots) : 0);
}

function unseenByRank(view, rules) {
  const decks = deckCount(rules, view.players.length);
  const seen = new Array(14).fill(0);
  for (const player of view.players) {
    for (const slot of player.slots) if (slot.up) seen[rankOf(slot.card)] += 1;
  }
  for (const card of view.discard) seen[rankOf(card)] += 1;
  return (rank) => 4 * decks - seen[rank];
}

/** The bots by name: each a function (view, rng, rules) → one of view.legal. */
export const LOCAL_BOTS = {
  random: (view, rng) => view.legal[Math.floor(rng.random() * view.legal.length)],
  greedy: (view) => greedy(view),
  counter: (view, _rng, rules) => {
    if (wantsToCall(view)) return "call";
    const slots = wildSlots(view);
    if (!slots.length) return greedyChoice(view, 0);
    const unseen = unseenByRank(view, rules);
    let best = slots[0];
    for (const k of slots) {
      if (unseen(k) < unseen(best) || (unseen(k) === unseen(best) && k > best)) best = k;
    }
    return greedyChoice(view, best);
  },
  kid: (view, rng) => {
    if (wantsToCall(view) && rng.random() >= 0.5) return "call";
    if (view.legal.includes("discard")) return rng.random() < 0.3 ? "stock" : "discard";
    const slots = wildSlots(view);
    return greedyChoice(view, slots.length ? Math.max(...slots) : 0);
  },
  sometimes: (view, rng) => {
    const action = greedy(view);
    if (action === "discard" && !(rng.random() < 0.5)) return "stock";
    return action;
  },
  stockonly: (view) => {
    const action = greedy(view);
    return action === "discard" ? "stock" : action;
  },
  lowwild: (view) => {
    if (wantsToCall(view)) return "call";
    const slots = wildSlots(view);
    return greedyChoice(view, slots.length ? Math.min(...slots) : 0);
  },
  endblind: (view) => {
    const action = greedy(view);
    if (action === "discard" && view.players.some((p, seat) => seat !== view.to_act
        && faceDown(p) <= 2)) return "stock";
    return action;
  },
};

/** Decide for the seat to act: `rules` is a rules object or a record's rules JSON. */
export function decide(name, view, rng, rules) {
  const bot = LOCAL_BOTS[name];
  if (!bot) throw new Error(`no local bot ${name}`);
  return bot(view, rng, rules.roles ? rules : makeRules(rules));
}
