// The browser's profile and ratings (static/js/profile.js, ratings.js, glicko2.js)
// against the Python ones: the paper's worked example, the levels' Elo, and the same
// rating history and summary for seeded random profiles made by
// tests/web/test_js_profile.py (TRASH_PROFILE_CASES; skipped without it).

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { rating, update } from "../../../src/trashcards/web/static/js/glicko2.js";
import { LEVELS, botRating } from "../../../src/trashcards/web/static/js/ratings.js";

// profile.js reads localStorage only when asked; Node has none (one test lends it one).
const profile = await import("../../../src/trashcards/web/static/js/profile.js");
const path = process.env.TRASH_PROFILE_CASES;
const close = (a, b, what) => assert.ok(Math.abs(a - b) <= 1e-7 * Math.max(1, Math.abs(b)),
  `${what}: ${a} != ${b}`);

test("the paper's worked example", () => {
  const after = update(rating(1500, 200, 0.06), [[rating(1400, 30), 1],
    [rating(1550, 100), 0], [rating(1700, 300), 0]]);
  // the paper rounds its steps: 1464.06, 151.52, 0.05999
  assert.ok(Math.abs(after.rating - 1464.06) <= 0.01, String(after.rating));
  assert.ok(Math.abs(after.rd - 151.52) <= 0.01, String(after.rd));
  assert.ok(Math.abs(after.volatility - 0.05999) <= 0.00001, String(after.volatility));
});

test("a person named like an object's property is no level's bot", () => {
  for (const name of ["constructor", "toString", "__proto__", "hasOwnProperty", "valueOf"]) {
    assert.equal(botRating(name), null, name);
    const game = { id: "g", at: 1.7e9, where: "online", rules: { preset: "standard" },
      seats: ["Ana", name], me: 0, rounds_won: [6, 2], winner: 0 };
    assert.equal(profile.isRated(game), false, name);
  }
  // as in Python (players/ratings.py bot_rating): a level's bot, by its seat or its kind
  assert.deepEqual(botRating("bot:greedy"), botRating("greedy"));
  assert.notEqual(botRating("bot:greedy:2"), null);
});

test("a name is counted in characters, as Python counts it", () => {
  const file = (name) => JSON.stringify({ format: profile.FORMAT, name, created: 1.7e9,
    games: [] });
  // trashcards.names.check_name accepts 24 characters beyond the BMP (48 UTF-16 units)
  assert.equal(profile.parseProfile(file("😀".repeat(24))).name, "😀".repeat(24));
  assert.throws(() => profile.parseProfile(file("😀".repeat(25))), /name/);
  assert.throws(() => profile.parseProfile(file("a\u202eb")), /name/);
});

test("a match's player name goes into the profile whole and reads back", () => {
  const kept = new Map();
  globalThis.localStorage = { getItem: (key) => kept.get(key) ?? null,
    setItem: (key, value) => kept.set(key, String(value)) };
  try {
    const name = `a${"😀".repeat(23)}`;  // 24 characters, 47 UTF-16 units
    const info = { rules: { preset: "kids" }, seats: [{ seat: 0, kind: "me", name },
      { seat: 1, kind: "bot", name: "bot:greedy", bot: "greedy" }] };
    const state = { phase: "match_over", match_winner: 0,
      players: [{ name, rounds_won: 1 }, { name: "bot:greedy", rounds_won: 0 }] };
    assert.equal(profile.noteMatch("t1", info, state, new Set([0])), true);
    const mine = profile.loadProfile();
    assert.equal(mine.name, name);
    assert.equal(mine.games.length, 1);
  } finally {
    delete globalThis.localStorage;
  }
});

test("profiles rate and add up as in Python", { skip: !path }, () => {
  const cases = JSON.parse(readFileSync(path, "utf-8"));
  assert.deepEqual(LEVELS, cases.levels);
  let games = 0;
  for (const item of cases.profiles) {
    const parsed = profile.parseProfile(JSON.stringify(item.profile));
    assert.equal(parsed.games.length, item.profile.games.length);
    games += parsed.games.length;
    assert.deepEqual(profile.summary(parsed), item.summary);
    const history = profile.ratingHistory(parsed);
    assert.deepEqual(Object.keys(history).sort(), Object.keys(item.history).sort());
    for (const [family, points] of Object.entries(item.history)) {
      assert.equal(history[family].length, points.length, family);
      points.forEach((point, i) => {
        const mine = history[family][i];
        assert.equal(mine.game, point.game);
        for (const key of ["rating", "rd", "volatility"]) {
          close(mine.rating[key], point.rating[key], `${family} ${i} ${key}`);
        }
      });
    }
    const now = profile.ratingsNow(parsed, item.now);
    for (const [family, r] of Object.entries(item.now_ratings)) close(now[family].rd, r.rd, family);
  }
  for (const bad of cases.refused) {
    assert.throws(() => profile.parseProfile(JSON.stringify(bad.profile)),
      (err) => err instanceof profile.ProfileError && err.message.includes(bad.says), bad.says);
  }
  console.log(`checked ${cases.profiles.length} profiles, ${games} games`);
});
