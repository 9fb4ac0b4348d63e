// The browser's rules engine reads the rules' spec (js/spec.js, generated from
// trashcards.spec) and holds to it as trashcards.rules does: every preset, every range's
// ends accepted and one past them refused. Run by tests/web/test_js_modules.py.

import { test } from "node:test";
import assert from "node:assert/strict";
import { makeRules, presetFields, rulesToDict } from "../../../src/trashcards/web/static/js/local/engine.js";
import { DEFAULTS, FIRST_TO, FLAGS, PRESETS, RANGES } from "../../../src/trashcards/web/static/js/spec.js";

test("each preset is the defaults plus its fields, and says so in its record form", () => {
  for (const [name, fields] of Object.entries(PRESETS)) {
    const rules = makeRules({ preset: name });
    for (const [key, value] of Object.entries({ ...DEFAULTS, ...fields })) {
      assert.deepEqual(rules[key], value, `${name}.${key}`);
    }
    assert.deepEqual(rulesToDict(rules), { preset: name });
  }
});

test("first-to-N is the board less N rounds, N in its range only", () => {
  for (let n = FIRST_TO.min; n <= FIRST_TO.max; n += 1) {
    assert.equal(makeRules({ preset: `first-to-${n}` }).rounds_to_win, FIRST_TO.board - n);
  }
  assert.throws(() => presetFields(`first-to-${FIRST_TO.max + 1}`));
  assert.throws(() => presetFields("garbage"), "no alias that trashcards.rules refuses");
});

test("each range holds its ends and refuses past them", () => {
  for (const [field, range] of Object.entries(RANGES)) {
    if (range.min === undefined) continue;
    const high = range.max === "start_size" ? RANGES.start_size.max : range.max;
    for (const ok of [range.min, high]) assert.equal(makeRules({ [field]: ok })[field], ok);
    for (const bad of [range.min - 1, high + 1]) {
      assert.throws(() => makeRules({ [field]: bad }), `${field}=${bad}`);
    }
    if (range.none !== undefined) assert.equal(makeRules({ [field]: null })[field], null);
  }
  for (const flag of Object.keys(FLAGS)) {
    assert.equal(makeRules({ [flag]: true })[flag], true);
    assert.throws(() => makeRules({ [flag]: 1 }));
  }
  assert.throws(() => makeRules({ wild_ranks: ["J", "J"] }));
  assert.throws(() => makeRules({ wild_ranks: ["T"] }));
});
