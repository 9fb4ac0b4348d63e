// The playthroughs (tests/data/playthroughs, scripts/write_playthroughs.py) told again
// by the browser's rules engine, line by line: each move's events, the view of the seat
// to act after it and its legal actions. Run by tests/test_playthroughs.py.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import * as engine from "../../../src/trashcards/web/static/js/local/engine.js";

const FOLDER = new URL("../../data/playthroughs/", import.meta.url);

function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

function told(shown, seat) {
  const { legal, ...rest } = shown;
  return [`view ${seat === null ? "-" : seat} ${canonical(rest)}`, `legal ${canonical(legal)}`];
}

/** The playthrough's lines as this engine tells them, from its header and moves. */
function tell(lines) {
  const field = (word) => lines.find((line) => line.startsWith(`${word} `)).slice(word.length + 1);
  const rules = engine.makeRules(JSON.parse(field("rules")));
  const players = Number(field("players"));
  const names = Array.from({ length: players }, (_, seat) => `p${seat}`);
  const moves = lines.filter((line) => line.startsWith("move ")).map((line) => line.split(" ").slice(2).join(" "));
  let state = engine.newMatch(rules, names);
  const out = lines.slice(0, lines.findIndex((line) => line.startsWith("view ")));
  out.push(...told(engine.view(state, null), null));
  moves.forEach((text, number) => {
    const move = engine.parseMove(text);
    const done = engine.apply(state, move, move.seat);
    state = done.state;
    out.push(`move ${number} ${text}`);
    out.push(`events ${canonical(engine.eventsJson(done.events, state))}`);
    const seat = engine.toAct(state);
    out.push(...told(engine.view(state, seat), seat));
  });
  return { out, moves: moves.length };
}

const files = readdirSync(FOLDER).filter((name) => name.endsWith(".txt")).sort();

test("every playthrough is told again line by line", () => {
  assert.ok(files.length >= 10, "the playthroughs are there");
  for (const name of files) {
    const lines = readFileSync(new URL(name, FOLDER), "utf8").split("\n").filter(Boolean);
    const start = performance.now();
    const { out, moves } = tell(lines);
    for (let i = 0; i < lines.length; i += 1) {
      assert.equal(out[i], lines[i], `${name}:${i + 1}`);
    }
    assert.equal(out.length, lines.length, `${name}: as many lines`);
    console.log(`told ${name.replace(/\.txt$/, "")} ${moves} moves in ${(performance.now() - start).toFixed(1)} ms`);
  }
});
