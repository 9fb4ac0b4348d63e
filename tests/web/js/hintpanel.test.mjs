// The browser's hint panel (static/js/hint.js) in the five languages: a worse move shows
// how much less it gives than the best (its paired interval), never an interval of its
// own that overlaps the best's; "1 point", "1.5 points" in each language's forms; "Best"
// only for a strict best, "Equally good" in the order given. Run by
// tests/web/test_js_coach.py; the catalogs are read from the source tree.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { loadLanguage } from "../../../src/trashcards/web/static/js/i18n.js";
import { leadText, reasonText, rowTexts } from "../../../src/trashcards/web/static/js/hint.js";

const STATIC = new URL("../../../src/trashcards/web/static/", import.meta.url);

async function use(lang) {
  globalThis.document = { documentElement: {} };
  globalThis.fetch = async (url) => {
    const file = new URL(String(url).replace(/^\/static\//, ""), STATIC);
    return { ok: true, json: async () => JSON.parse(readFileSync(file, "utf8")) };
  };
  await loadLanguage(lang);
}

/** The browser's own example (issue 28): 50 % (49–51) against 49 % (48–50), the paired
 *  difference −1.4 to −0.6 points. */
function message(cost) {
  return {
    to_act: 0, best: "discard", exact: false, samples: 900, tied: ["discard"],
    always_call: false,
    actions: [
      { action: "discard", match_win: 0.5, match_win_ci: [0.49, 0.51], round_win: 0.6,
        round_win_ci: [0.55, 0.65], vs_best: [0, 0], equal_to_best: true,
        reason: { code: "fits_slot", params: { card: "7♦", slot: 7 } } },
      { action: "stock", match_win: 0.5 - cost / 100, match_win_ci: [0.48, 0.5],
        round_win: 0.58, round_win_ci: [0.53, 0.63],
        vs_best: [-(cost + 0.4) / 100, -(cost - 0.4) / 100], equal_to_best: false,
        reason: { code: "costs", params: { count: cost } } },
    ],
  };
}

const WORSE = {
  en: ["49 % · 1 point less (0.6–1.4)", "49 % · 1.5 points less (1.1–1.9)",
    "Costs 1 point of match-win chance against the best move.",
    "Costs 1.5 points of match-win chance against the best move."],
  nl: ["49 % · 1 procentpunt minder (0,6–1,4)", "49 % · 1,5 procentpunten minder (1,1–1,9)",
    "Kost 1 procentpunt kans om de match te winnen tegenover de beste zet.",
    "Kost 1,5 procentpunten kans om de match te winnen tegenover de beste zet."],
  es: ["49 % · 1 punto menos (0,6–1,4)", "49 % · 1,5 puntos menos (1,1–1,9)",
    "Cuesta 1 punto de probabilidad de ganar la partida frente a la mejor jugada.",
    "Cuesta 1,5 puntos de probabilidad de ganar la partida frente a la mejor jugada."],
  it: ["49 % · 1 punto in meno (0,6–1,4)", "49 % · 1,5 punti in meno (1,1–1,9)",
    "Costa 1 punto di probabilità di vincere la partita rispetto alla mossa migliore.",
    "Costa 1,5 punti di probabilità di vincere la partita rispetto alla mossa migliore."],
  vi: ["49 % · kém 1 điểm (0,6–1,4)", "49 % · kém 1,5 điểm (1,1–1,9)",
    "Mất 1 điểm phần trăm cơ hội thắng trận so với nước tốt nhất.",
    "Mất 1,5 điểm phần trăm cơ hội thắng trận so với nước tốt nhất."],
};

for (const [lang, [one, other, costsOne, costsOther]] of Object.entries(WORSE)) {
  test(`${lang}: a worse move shows how much less, in the right number`, async () => {
    await use(lang);
    const single = message(1);
    const best = rowTexts(single, single.actions[0], 0, (a) => a);
    assert.match(best[1], /^50 % \(49–51\)$/);  // the best keeps its interval
    const worse = rowTexts(single, single.actions[1], 1, (a) => a);
    assert.equal(worse[1], one);
    assert.ok(!worse[1].includes("48–50"), "no interval of its own");
    assert.equal(worse[2], "58 %");
    assert.equal(worse[3], costsOne);
    const plural = message(1.5);
    plural.actions[1].match_win = 0.49;
    assert.equal(rowTexts(plural, plural.actions[1], 1, (a) => a)[1], other);
    assert.equal(reasonText(plural.actions[1].reason), costsOther);
  });
}

test("Best only for a strict best; the moves equally good in the order given", async () => {
  await use("en");
  const strict = message(1);
  assert.match(leadText(strict, (a) => a), /^Best: discard\. /);
  const tied = { ...strict, tied: ["wild 9", "wild 2", "wild 5"], actions: [
    { ...strict.actions[0], action: "wild 9" }, { ...strict.actions[0], action: "wild 2" },
    { ...strict.actions[0], action: "wild 5" }] };
  assert.equal(leadText(tied, (a) => a), "Equally good: wild 9 = wild 2 = wild 5");
  const rows = tied.actions.map((line, i) => rowTexts(tied, line, i, (a) => a)[1]);
  assert.deepEqual(rows, ["50 % (49–51)", "50 % (49–51)", "50 % (49–51)"]);
});

test("every reason with a count reads in the singular for 1 and the plural for 2", async () => {
  const english = JSON.parse(readFileSync(new URL("i18n/en.json", STATIC), "utf8"));
  const codes = Object.keys(english).filter((k) => k.startsWith("reason.")
    && typeof english[k] === "object").map((k) => k.slice("reason.".length));
  assert.ok(codes.length >= 8, codes.join(" "));
  await use("en");
  for (const code of codes) {
    const params = { card: "7♦", slot: 7 };
    const one = reasonText({ code, params: { ...params, count: 1 } });
    const two = reasonText({ code, params: { ...params, count: 2 } });
    assert.match(one, /\b1 (point|other move)\b/, code);
    assert.doesNotMatch(one, /\b1 (points|other moves)\b/, code);
    assert.match(two, /\b2 (points|other moves)\b/, code);
  }
});
