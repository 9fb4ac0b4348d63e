// The guided first game's script in the browser (js/learn.js Script, on the generated
// js/tutorial.js), under Node: the moves it lets through and the gentle sentence of the
// others; and the table controller's guard (js/table/controller.js) keeping a refused
// move from being sent. Run by tests/web/test_js_modules.py (`node --test`).

import { test } from "node:test";
import assert from "node:assert/strict";
import { Script } from "../../../src/trashcards/web/static/js/learn.js";
import { TUTORIAL } from "../../../src/trashcards/web/static/js/tutorial.js";
import { createTableState } from "../../../src/trashcards/web/static/js/table/state.js";
import { TableController } from "../../../src/trashcards/web/static/js/table/controller.js";

test("the script asks for its decisions in order and answers any other move gently", () => {
  const script = new Script(TUTORIAL.steps, 0);
  assert.deepEqual(TUTORIAL.steps.filter((s) => s.do).map((s) => s.do),
    ["stock", "discard", "wild 2"]);
  assert.equal(script.step.key, "learn.step.draw");
  assert.equal(script.take("discard"), false);
  assert.equal(script.tryKey(), "learn.try.draw");
  assert.equal(script.at, 0, "a refused move does not move the script");
  assert.equal(script.take("stock"), true);
  assert.equal(script.step.key, "learn.step.place", "then the steps that tell what happened");
  // a move made while those are shown is the next decision's: the script skips to it
  assert.equal(script.take("stock"), false);
  assert.equal(script.tryKey(), "learn.try.discard");
  assert.equal(script.take("discard"), true);
  assert.equal(script.step.key, "learn.step.wild");
  assert.equal(script.take("wild 5"), false);
  assert.equal(script.tryKey(), "learn.try.wild");
  assert.equal(script.take("wild 2"), true);
  assert.equal(script.step.key, "learn.step.won");
  assert.equal(script.nextDecision(), -1);
  assert.equal(script.take("stock"), true, "after the script, nothing is held back");
  assert.equal(new Script(TUTORIAL.steps, 99).step, null, "a saved step past the end: done");
});

test("the controller sends nothing its guard refuses", () => {
  const app = createTableState("T1", false, { seats: [{ seat: 0, token: "tok0" }],
    version: null, shown: null });
  const sent = [];
  const view = { render: () => {} };
  const controller = new TableController(app, /** @type {any} */ (view),
    { send: (m) => { sent.push(m); return true; }, rejoin: () => {} });
  app.seats = new Set([0]);
  app.version = 3;
  app.online = true;
  app.state = /** @type {any} */ ({ phase: "draw", to_act: 0, legal: ["stock", "discard"],
    players: [{}, {}] });
  controller.guard = (action) => action === "discard";
  controller.act("stock");
  assert.deepEqual(sent, []);
  controller.act("discard");
  assert.deepEqual(sent, [{ type: "act", token: "tok0", action: "discard", version: 3 }]);
});
