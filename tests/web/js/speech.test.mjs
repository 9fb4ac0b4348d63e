// What the table page says to a reader who does not see it (js/table/speech.js, and
// events.summarizeEvents: the "one sentence a turn" verbosity) under Node, in English
// and Dutch from the real catalogs. Run by tests/web/test_js_modules.py and
// scripts/check_js.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

// loadLanguage fetches the catalogs and sets the page's lang: both faked from the files
// (the page is faked once the modules are loaded: config.js reads no page under Node).
const I18N = new URL("../../../src/trashcards/web/static/i18n/", import.meta.url);
globalThis.fetch = /** @type {any} */ (async (url) => {
  const name = String(url).split("/").pop();
  const text = readFileSync(new URL(name, I18N), "utf-8");
  return { ok: true, status: 200, json: async () => JSON.parse(text) };
});

const { loadLanguage } = await import("../../../src/trashcards/web/static/js/i18n.js");
const { summarizeEvents } = await import("../../../src/trashcards/web/static/js/events.js");
const { boardSpeech, opponents, pilesSpeech } = await import(
  "../../../src/trashcards/web/static/js/table/speech.js");
const { createTableState } = await import("../../../src/trashcards/web/static/js/table/state.js");
globalThis.document = /** @type {any} */ ({ documentElement: {} });

/** Ana (seat 0, this page) and Bo, Bo to act with 4♥ in hand; Bo's slot 4 is up. */
function app() {
  const slots = (up) => Array.from({ length: 10 }, (_, i) => (up.has(i + 1)
    ? { card: up.get(i + 1), up: true } : { card: null, up: false }));
  const state = {
    phase: "place", round: 1, dealer: 0, to_act: 1, in_hand: "4h", stock_count: 31,
    discard: ["5s", "Kc"], round_winners: [], match_winner: null, legal: [], seat: 0,
    called: false, unclaimed: [], final_from: null, stock_known: null,
    players: [
      { name: "Ana", rounds_won: 0, board_size: 10,
        slots: slots(new Map([[1, "Ad"], [3, "Js"]])) },
      { name: "Bo", rounds_won: 1, board_size: 9, slots: slots(new Map([[4, "4c"]])) },
    ],
  };
  const page = createTableState("T1", false, { seats: [{ seat: 0, token: "t" }],
    version: 3, shown: null });
  page.seats.add(0);
  page.state = state;
  return page;
}

const ctx = { name: (seat) => ["Ana", "Bo"][seat], you: (seat) => seat === 0 };

/** Bo draws from the stock and plays a chain of three slots, then discards a King. */
const CHAIN = [
  { type: "drew", seat: 1, source: "stock", card: "3h" },
  { type: "placed", seat: 1, slot: 3, card: "3h", wild: false },
  { type: "turned_up", seat: 1, slot: 3, card: "7d" },
  { type: "placed", seat: 1, slot: 7, card: "7d", wild: false },
  { type: "turned_up", seat: 1, slot: 7, card: "As" },
  { type: "placed", seat: 1, slot: 1, card: "As", wild: false },
  { type: "turned_up", seat: 1, slot: 1, card: "Kd" },
  { type: "discarded", seat: 1, card: "Kd" },
  { type: "turn_passed", seat: 0 },
  { type: "drew", seat: 0, source: "discard", card: "Kd" },
];

test("a chain of any length is one sentence a turn, with every slot it fills", async () => {
  await loadLanguage("en");
  const lines = summarizeEvents(CHAIN, ctx).map((line) => line.text);
  assert.deepEqual(lines, [
    "Bo: draws 3♥ from the stock, fills 3 slots: 3, 7, 1, and discards K♦.",
    "You: take K♦ from the discard pile.",
  ]);
});

test("the sentences are in the page's language", async () => {
  await loadLanguage("nl");
  const [bo] = summarizeEvents(CHAIN, ctx).map((line) => line.text);
  assert.match(bo, /^Bo: /);
  assert.ok(!bo.includes("draws") && !bo.includes("brief."), bo);
  assert.ok(bo.includes("3, 7, 1"), bo);
  await loadLanguage("en");
});

test("a board is read with its face-up cards by slot (a wild said so) and its face-down slots", async () => {
  await loadLanguage("en");
  const page = app();
  assert.equal(boardSpeech(page, 0), "Your board, 10 slots. Face up: Ace of diamonds in "
    + "slot A, wild Jack of spades in slot 3. Face down, 8 slots: 2, 4, 5, 6, 7, 8, 9, 10.");
  assert.match(boardSpeech(page, 1), /^Bo, 1 round won, board of 9\. Face up: 4 of clubs in slot 4\./);
  assert.deepEqual(opponents(page), [1]);
});

test("a face-down card is never read, even if the view held one", async () => {
  await loadLanguage("en");
  const page = app();
  page.state.players[1].slots[5] = { card: "Qh", up: false };
  assert.ok(!boardSpeech(page, 1).includes("Queen"), boardSpeech(page, 1));
});

test("the piles: the stock, the discard pile's top and the card in someone's hand", async () => {
  await loadLanguage("en");
  const page = app();
  assert.equal(pilesSpeech(page), "Stock: 31 cards. Discard pile: King of clubs on top, "
    + "2 cards. In Bo's hand: 4 of hearts.");
  page.state.in_hand = null;
  assert.match(pilesSpeech(page), /No card in hand\.$/);
});
