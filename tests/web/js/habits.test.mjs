// A player's habits compared with rated players' (static/js/habits.js) in the five
// languages: the catalogs hold every sentence, each renders with its numbers filled,
// "more"/"less" only for the verdicts the server gave, "about the same" when the ranges
// overlap, and a band with too few players says so with no figure of it; the same for
// the level's bot nearest the player's rating (measured offline). Run by
// tests/web/test_js_modules.py; the catalogs are read from the source tree.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { loadLanguage } from "../../../src/trashcards/web/static/js/i18n.js";
import { bandText, habitText, levelIntro, levelText, peerText, renderHabits }
  from "../../../src/trashcards/web/static/js/habits.js";

const STATIC = new URL("../../../src/trashcards/web/static/", import.meta.url);

/** A page just big enough for habits.js: elements with text, classes and children. */
function fakeDocument() {
  const make = (tag) => ({
    tag, className: "", textContent: "", dataset: {}, children: [],
    append(...nodes) { this.children.push(...nodes); },
    replaceChildren(...nodes) { this.children = nodes; },
  });
  return { documentElement: {}, createElement: make };
}

async function use(lang) {
  globalThis.document = fakeDocument();
  globalThis.fetch = async (url) => {
    const file = new URL(String(url).replace(/^\/static\//, ""), STATIC);
    return { ok: true, json: async () => JSON.parse(readFileSync(file, "utf8")) };
  };
  await loadLanguage(lang);
}

// the issue's example: 12 % (24 of 200) against players at 1700's 2 % (15 of 750)
const BAND = { family: "standard", band: 1700, low: 1650, high: 1750, min_players: 5,
  min_games: 20, enough: true, players: 7, games: 130 };
const FEW = { family: "standard", band: 1700, low: 1650, high: 1750, min_players: 5,
  min_games: 20, enough: false };
const LEVEL = { name: "casual", elo: 1596.2, matches: 40 };
const habit = (verdict) => ({ kind: "discard", chances: 200, misses: 24, rate: 0.12,
  low: 0.082, high: 0.172, games: 40,
  peers: verdict && { chances: 750, misses: 15, rate: 0.02, low: 0.012, high: 0.033, verdict },
  level: verdict && { chances: 640, misses: 96, rate: 0.15, low: 0.121, high: 0.183, verdict } });

const ENGLISH = {
  more: "Players rated about 1700 missed it in 2 % of 750 such chances (95 %: 1–3 %): "
    + "this player misses it more often.",
  same: "Players rated about 1700 missed it in 2 % of 750 such chances (95 %: 1–3 %): "
    + "about the same; the ranges overlap, so no difference is shown.",
  band: "Compared with rated players at 1650–1750 (Standard): 7 players, 130 reviewed "
    + "games, this player's own left out.",
};

for (const lang of ["en", "es", "nl", "it", "vi"]) {
  test(`${lang}: each verdict has its own sentence, with the band's numbers`, async () => {
    await use(lang);
    const texts = ["more", "less", "same"].map((verdict) => peerText(habit(verdict), BAND));
    assert.equal(new Set(texts).size, 3, texts.join(" | "));
    for (const text of texts) {
      assert.doesNotMatch(text, /habits\.|\{\w+\}/, text);  // a key, or a hole left
      for (const part of ["1700", "2 %", "750", "1–3 %"]) assert.ok(text.includes(part), text);
    }
    const band = bandText(BAND);
    assert.doesNotMatch(band, /habits\.|family\.|\{\w+\}/, band);
    for (const part of ["1650–1750", "7", "130"]) assert.ok(band.includes(part), band);
    const own = habitText(habit("more"));
    for (const part of ["12 %", "24", "200", "8–17 %"]) assert.ok(own.includes(part), own);
  });

  test(`${lang}: the level's bot's line, each verdict its own`, async () => {
    await use(lang);
    const texts = ["more", "less", "same"].map((verdict) => levelText(habit(verdict), LEVEL));
    assert.equal(new Set(texts).size, 3, texts.join(" | "));
    for (const text of texts) {
      assert.doesNotMatch(text, /habits\.|level\.|\{\w+\}/, text);
      for (const part of ["1596", "15 %", "640", "12–18 %"]) assert.ok(text.includes(part), text);
    }
    const intro = levelIntro(LEVEL);
    assert.doesNotMatch(intro, /habits\.|level\.|\{\w+\}/, intro);
    assert.ok(intro.includes("1596") && intro.includes("40"), intro);
    assert.equal(levelText(habit("more"), null), "");
    assert.doesNotMatch(levelText(habit(null), LEVEL), /habits\.|\{\w+\}|%/);
  });

  test(`${lang}: a band with too few players shows no figure, only why`, async () => {
    await use(lang);
    assert.equal(peerText(habit(null), FEW), "");
    assert.equal(peerText(habit("more"), FEW), "");  // even if figures were sent
    const few = bandText(FEW);
    assert.doesNotMatch(few, /habits\.|\{\w+\}/, few);
    assert.ok(few.includes("5") && few.includes("1650–1750"), few);
    assert.doesNotMatch(bandText(null), /habits\.|\{\w+\}/);
    assert.doesNotMatch(peerText(habit(null), BAND), /habits\.|\{\w+\}|%/);  // no chance
  });
}

test("en: the sentences as a player reads them", async () => {
  await use("en");
  assert.equal(peerText(habit("more"), BAND), ENGLISH.more);
  assert.equal(peerText(habit("same"), BAND), ENGLISH.same);
  assert.equal(bandText(BAND), ENGLISH.band);
  assert.equal(levelText(habit("same"), LEVEL), "The casual level's bot (Elo 1596) missed it "
    + "in 15 % of 640 such chances (95 %: 12–18 %): about the same; the ranges overlap, so no "
    + "difference is shown.");
});

test("the list shows each habit with the band's line under it", async () => {
  await use("en");
  const list = globalThis.document.createElement("ul");
  const note = globalThis.document.createElement("p");
  renderHabits(list, [habit("more"), { ...habit(null), kind: "stock" }], note, BAND, LEVEL);
  assert.ok(note.textContent.startsWith(`${ENGLISH.band} Also compared with the level`));
  const [first, second] = list.children;
  assert.equal(first.dataset.kind, "discard");
  const line = first.children.find((c) => c.className === "habit-peers");
  assert.equal(line.textContent, ENGLISH.more);
  assert.equal(line.dataset.verdict, "more");
  assert.ok(first.children.find((c) => c.className === "habit-level").textContent
    .startsWith("The casual level's bot (Elo 1596) missed it in 15 %"));
  assert.ok(second.children.find((c) => c.className === "habit-peers").textContent
    .includes("no such chance"));
  renderHabits(list, [habit("more")], note, FEW);
  assert.equal(list.children[0].children.length, 0);  // no comparison line at all
  assert.ok(note.textContent.startsWith("No comparison"));
});
