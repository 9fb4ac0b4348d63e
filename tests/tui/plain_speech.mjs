// The browser's words for the cases of tests/tui/test_plain_speech.py, under Node: the
// events of whole matches (every step and one sentence a turn), the boards, the piles,
// what to do, the hints' conclusions and the seats' names, in every language. Reads
// the cases (JSON) from the file named on the command line; prints the sentences (JSON).

import { readFileSync } from "node:fs";

const I18N = new URL("../../src/trashcards/web/static/i18n/", import.meta.url);
const JS = "../../src/trashcards/web/static/js/";
globalThis.fetch = /** @type {any} */ (async (url) => {
  const name = String(url).split("/").pop();
  const text = readFileSync(new URL(name, I18N), "utf-8");
  return { ok: true, status: 200, json: async () => JSON.parse(text) };
});

const { loadLanguage } = await import(`${JS}i18n.js`);
const { describeEvents, summarizeEvents } = await import(`${JS}events.js`);
const { boardSpeech, pilesSpeech } = await import(`${JS}table/speech.js`);
const { createTableState } = await import(`${JS}table/state.js`);
const { turnPrompt } = await import(`${JS}prompt.js`);
const { describeAction, leadText } = await import(`${JS}hint.js`);
const { t } = await import(`${JS}i18n.js`);
const { displayName } = await import(`${JS}names.js`);
globalThis.document = /** @type {any} */ ({ documentElement: {} });

const cases = JSON.parse(readFileSync(process.argv[2], "utf-8"));
const out = {};
for (const lang of cases.languages) {
  await loadLanguage(lang);
  const said = { matches: [], positions: [], hints: [] };
  for (const match of cases.matches) {
    const names = match.names.map((name) => displayName(name));
    const ctx = { name: (seat) => names[seat], you: (seat) => seat === match.you };
    said.matches.push(match.moves.map((events) => ({
      full: describeEvents(events, ctx).map((line) => line.text),
      brief: summarizeEvents(events, ctx).map((line) => line.text),
    })));
  }
  for (const position of cases.positions) {
    const page = createTableState("T1", false, { seats: [{ seat: position.you, token: "t" }],
      version: 1, shown: null });
    page.seats.add(position.you);
    page.state = position.state;
    const state = position.state;
    const name = displayName(state.players[state.to_act].name);
    said.positions.push({
      boards: state.players.map((_, seat) => boardSpeech(page, seat)),
      piles: pilesSpeech(page),
      turn: turnPrompt(state, name, false),
      named: turnPrompt(state, name, true),
    });
  }
  // as the hint panel words its conclusion (HintPanel.receive), which the page says
  for (const hint of cases.hints) {
    said.hints.push(hint.actions.length === 1
      ? t("hint.only", { action: describeAction(hint.actions[0].action) }) : leadText(hint));
  }
  out[lang] = said;
}
process.stdout.write(JSON.stringify(out));
