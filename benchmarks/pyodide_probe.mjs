// The rejected option of docs/offline.md, measured: Pyodide (npm `pyodide`) running the
// project's Python core under Node: start-up, import of the core, one record replayed.
// Pyodide is not a dependency of the project; to run this, in a scratch folder:
//
//     npm install pyodide@314.0.8 && cp PATH/TO/benchmarks/pyodide_probe.mjs . &&
//     node pyodide_probe.mjs PATH/TO/src PATH/TO/tests/data/lastchance-calltrash-jokers-4p.trash.json
import { loadPyodide } from "pyodide";
import fs from "node:fs";
import path from "node:path";
const src = process.argv[2], rec = process.argv[3];
const t0 = performance.now();
const py = await loadPyodide();
const t1 = performance.now();
py.FS.mkdirTree("/lib/trashcards");
for (const f of fs.readdirSync(path.join(src, "trashcards"))) {
  if (f.endsWith(".py")) py.FS.writeFile("/lib/trashcards/" + f, fs.readFileSync(path.join(src, "trashcards", f)));
}
py.runPython("import sys; sys.path.insert(0, '/lib')");
py.runPython("import trashcards.record, trashcards.statejson");
const t2 = performance.now();
py.globals.set("text", fs.readFileSync(rec, "utf8"));
const n = py.runPython(`
from trashcards.record import loads
r = loads(text)
s = None
for s, ev in r.steps(): pass
len(r.moves)`);
const t3 = performance.now();
const reps = 20;
for (let i = 0; i < reps; i++) py.runPython("for s, ev in r.steps(): pass");
const t4 = performance.now();
console.log(JSON.stringify({load_ms: t1 - t0, import_ms: t2 - t1, first_replay_ms: t3 - t2, moves: n, per_move_us: (t4 - t3) / reps / n * 1000}));
