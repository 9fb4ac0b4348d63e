// @ts-check
// The guided first game (docs/rules.md, "Learn by playing"): the script of
// trashcards.tutorial (generated into ./tutorial.js: its rules, the chance moves of its
// stacked deal, its steps) played on a table "On this device", so the rules are the
// browser engine's own and the opponent is a computer player whose every decision has
// one legal move.
//
// The lobby offers it on a first visit and always has "Learn to play"; the table page
// shows one sentence a step, in the page's language, in a panel above the table and in
// the polite live region. At a decision the step says what to do; another move is not
// sent but answered with a gentle sentence naming the move (the game never leaves its
// script). A step that tells what the last move did waits for "Next". Once the round is
// won the tutorial is done; done or skipped, it is not offered again (localStorage
// "trash.learn"), and "Learn to play" starts it whenever asked.

import { t } from "./i18n.js";
import { paths } from "./config.js";
import { byId } from "./dom.js";
import * as store from "./store.js";
import { createLocalTable } from "./local/tables.js";
import { actingSeat } from "./table/state.js";
import { TUTORIAL } from "./tutorial.js";

const FLAG = "trash.learn";

/** "done", "skipped", or null when the guided game was never finished nor declined. */
export function learnState() {
  try { return localStorage.getItem(FLAG); } catch { return null; }
}

/** @param {"done"|"skipped"} value */
export function setLearnState(value) {
  if (learnState() === "done") return;  // done stays done
  try { localStorage.setItem(FLAG, value); } catch { /* private mode */ }
}

/** Whether the lobby offers the guided game by itself (a first visit). */
export function offerDue() { return learnState() === null; }

/** Make the guided game's table on this device and open it. @param {string} name */
export async function startGuidedGame(name) {
  const seats = [{ kind: "me", name }, { kind: "bot", bot: TUTORIAL.opponent }];
  const answer = await createLocalTable(TUTORIAL.rules, seats, null, false,
    [...TUTORIAL.opening]);
  store.addSeats(answer.table_id, answer.seats);
  store.updateTable(answer.table_id, { created: Date.now(), guided: true, learnAt: 0 });
  location.assign(paths.tablePage(answer.table_id));
}

/**
 * Where the script stands: `at` is the step shown (steps.length: the end).
 * Pure, so the decisions it allows are plain to see (and to test).
 */
export class Script {
  /** @param {ReadonlyArray<{name: string, key: string, do: string|null, try: string|null}>} steps
   *  @param {number} at */
  constructor(steps, at) {
    this.steps = steps;
    this.at = Math.max(0, Math.min(Number(at) || 0, steps.length));
  }

  /** The index of the next decision, from the step shown on (-1: none is left). */
  nextDecision() {
    for (let i = this.at; i < this.steps.length; i += 1) if (this.steps[i].do) return i;
    return -1;
  }

  /** Whether `action` is the move the script asks for next; if it is, the script moves
   *  past that decision. @param {string} action */
  take(action) {
    const i = this.nextDecision();
    if (i === -1) return true;
    if (this.steps[i].do !== action) return false;
    this.at = i + 1;
    return true;
  }

  /** The gentle sentence's key for a move that is not the one asked for. */
  tryKey() {
    const i = this.nextDecision();
    return i === -1 ? null : this.steps[i].try;
  }

  get step() { return this.at < this.steps.length ? this.steps[this.at] : null; }
}

/** The table page's guide: the panel, the sentences said, the check before a move. */
export class Guide {
  /**
   * @param {string} tableId
   * @param {import("./table/state.js").TableState} app
   * @param {{say(text: string): void}} announcer
   */
  constructor(tableId, app, announcer) {
    this.tableId = tableId;
    this.app = app;
    this.announcer = announcer;
    this.script = new Script(TUTORIAL.steps, store.loadTable(tableId).learnAt);
    this.closed = false;
    /** @type {string|null} the gentle sentence on show after a wrong move */
    this.tryShown = null;
    /** What was said last (a step is said once, again after a language change). */
    this.said = "";
    this.panel = byId("learn");
    byId("learn-next").addEventListener("click", () => this.next());
    byId("learn-skip").addEventListener("click", () => this.skip());
  }

  /** Before a move is sent: true to send it. @param {string} action */
  allow(action) {
    if (this.closed) return true;
    if (this.script.take(action)) {
      this.tryShown = null;
      this.save();
      this.render();
      return true;
    }
    this.tryShown = this.script.tryKey();
    this.render();
    if (this.tryShown) this.announcer.say(t(this.tryShown));
    return false;
  }

  next() {
    const step = this.script.step;
    if (!step || step.do) return;
    this.script.at += 1;
    this.save();
    this.render();
    const next = byId("learn-next");
    if (next.hidden) byId("prompt").focus();
  }

  skip() {
    setLearnState("skipped");
    this.close();
  }

  close() {
    this.closed = true;
    store.updateTable(this.tableId, { learnAt: null });
    this.panel.hidden = true;
  }

  save() { store.updateTable(this.tableId, { learnAt: this.script.at }); }

  /** The learner decides now (the page is not showing a move being played). */
  deciding() {
    return actingSeat(this.app) === TUTORIAL.learner && !this.app.busy && !this.app.sent;
  }

  /** Draw the panel from where the script and the table stand (after every render). */
  render() {
    if (this.closed) return;
    this.panel.hidden = false;
    const script = this.script;
    const step = script.step;
    const count = script.steps.length;
    const settled = !this.app.sent && !this.app.busy;
    let key = null;
    let canGoOn = false;
    if (step === null) {
      key = "learn.done";
    } else if (step.do === null) {
      // a step that tells what the last move did: once that move is on the table
      if (settled) {
        key = step.key;
        canGoOn = true;
      }
    } else if (this.deciding()) {
      key = step.key;
    }
    if (key !== null && script.at >= count - 1) setLearnState("done");
    const text = byId("learn-text");
    if (key !== null) {  // else the last step shown stays, with its number
      byId("learn-progress").textContent = step === null ? ""
        : t("learn.progress", { n: script.at + 1, count });
      const words = t(key);
      if (text.textContent !== words) text.textContent = words;
      if (this.said !== words) {
        this.said = words;
        this.announcer.say(words);
      }
    }
    const tryLine = byId("learn-try");
    tryLine.textContent = this.tryShown ? t(this.tryShown) : "";
    tryLine.hidden = !this.tryShown;
    byId("learn-next").hidden = !canGoOn || step === null;
    byId("learn-skip").hidden = step === null;
    byId("learn-back").hidden = step !== null;
  }

  /** The language changed: say the step again in the new one. */
  retranslate() {
    this.said = "";
    this.render();
  }
}
