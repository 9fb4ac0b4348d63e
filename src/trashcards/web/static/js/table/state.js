// @ts-check
// The table page's state: what the server sent, what is drawn, this browser's seats; and
// what follows from them (who may act, what the prompt says, the notes and badges). No
// DOM here: tests/web/js/table.test.mjs runs it under Node.

import { t } from "../i18n.js";
import { turnEndReason } from "../events.js";
import { displayName } from "../names.js";
import { andList, turnPrompt } from "../prompt.js";
import { presetFields } from "../local/engine.js";
import { DEFAULTS, FLAGS } from "../spec.js";

/** @typedef {import("protocol").ViewState} ViewState */
/** @typedef {import("protocol").TableInfo} TableInfo */
/** @typedef {import("protocol").ChancesMessage} ChancesMessage */
/** @typedef {import("protocol").ServerMessage} ServerMessage */
/** @typedef {{seat: number, token: string}} HeldSeat */
/** `guided`: the guided first game's table, `learnAt` its step (js/learn.js; null: skipped).
 *  @typedef {{seats: HeldSeat[], version: (number|null), shown: (number|null),
 *             guided?: boolean, learnAt?: (number|null)}} TableEntry */
/** @typedef {{kind: string, text: string}} Badge */
/** @typedef {{title: string, text: string}} Gone */
/** A frame queued to be played in order, with when it arrived.
 *  @typedef {(import("protocol").StateMessage | import("protocol").EventsMessage
 *             | import("protocol").HistoryMessage) & {arrived: number}} Queued */

/**
 * The state of one table page.
 * @typedef {object} TableState
 * @property {string} tableId
 * @property {boolean} watching the page was opened to watch (?watch)
 * @property {TableInfo|null} table
 * @property {ViewState|null} state the latest view from the server
 * @property {ViewState|null} shown what is drawn (an intermediate state while a chain plays)
 * @property {object|string|null} focus what the step being played points at
 * @property {number|null} version
 * @property {Set<number>} seats the seats the server accepted for our tokens
 * @property {TableEntry} entry what this browser keeps of the table
 * @property {boolean} busy a chain of events is playing
 * @property {boolean} sent an action is on its way: wait for the answer
 * @property {Queued[]} queue
 * @property {string|null} error
 * @property {boolean} online
 * @property {string|null} status the connection's
 * @property {Gone|null} gone the table cannot be shown
 * @property {string|null} reason why this player's last turn ended, while the others play
 * @property {{at: number, arrived: number}|null} roundShown when the round-over panel was
 *   shown, and when its frame came
 * @property {number|null} historyFrom the first move the log holds
 * @property {number|null} roundFrom the first move of the current round
 * @property {number|null} asked the `before` of the history page asked for
 * @property {object|null|undefined} partyInfo the party of this table (asked for at the
 *   end of its match; undefined: not asked yet)
 * @property {string[][]|null} revealed each seat's face-down cards, turned up when the
 *   round ended
 * @property {boolean} readyClicked this page said "next round"
 * @property {boolean} joinedHere this socket has joined (a join refused for its rate is
 *   retried)
 * @property {boolean} warming the server's AI warms up after a start
 * @property {ChancesMessage|null} chances the "chances" message the bar shows
 * @property {ChancesMessage[]} heldChances "chances" for versions the board does not show
 *   yet: the bar follows the board, never runs ahead of it
 */

/**
 * A table page's state before anything came.
 * @param {string} tableId
 * @param {boolean} watching
 * @param {TableEntry} entry
 * @returns {TableState}
 */
export function createTableState(tableId, watching, entry) {
  return {
    tableId, watching, table: null, state: null, shown: null, focus: null, version: null,
    seats: new Set(), entry, busy: false, sent: false, queue: [], error: null,
    online: false, status: null, gone: null, reason: null, roundShown: null,
    historyFrom: null, roundFrom: null, asked: null, partyInfo: undefined, revealed: null,
    readyClicked: false, joinedHere: false, warming: false, chances: null, heldChances: [],
  };
}

// -- rules of this table ---------------------------------------------------------------

/**
 * A rules field of the table: its own, else its preset's, else the default (js/spec.js),
 * else ``fallback``.
 * @param {TableState} app
 * @param {string} name
 * @param {any} fallback
 * @returns {any}
 */
export function ruleField(app, name, fallback) {
  /** @type {Record<string, any>} */
  const rules = (app.table && app.table.rules) || {};
  if (rules[name] !== undefined && rules[name] !== null) return rules[name];
  /** @type {Record<string, any>} */
  let preset = {};
  try {
    preset = presetFields(rules.preset || "standard")[1];
  } catch { /* a preset this page does not know: the defaults */ }
  /** @type {Record<string, any>} */
  const defaults = DEFAULTS;
  return preset[name] ?? defaults[name] ?? fallback;
}

/** @param {TableState} app @returns {string[]} */
export const wildRanks = (app) => ruleField(app, "wild_ranks", ["J"]);
/** @param {TableState} app @returns {number} */
export const startSize = (app) => ruleField(app, "start_size", 10);

// -- seats ------------------------------------------------------------------------------

/** @param {TableState} app @param {number} seat @returns {string|null} */
export function tokenFor(app, seat) {
  const held = app.entry.seats.find((s) => s.seat === seat);
  return held ? held.token : null;
}

/** The tokens to join with (none to watch). @param {TableState} app @returns {string[]} */
export function tokens(app) {
  return app.watching ? [] : app.entry.seats.map((s) => s.token);
}

/**
 * The display name of a seat, in the viewer's language for a computer's seat.
 * @param {TableState} app
 * @param {number|null} seat
 * @param {ViewState|null} [state]
 * @returns {string}
 */
export function nameOf(app, seat, state = app.state) {
  const index = Number(seat);
  const raw = state && state.players[index] ? state.players[index].name
    : app.table && app.table.seats[index] ? app.table.seats[index].name : null;
  return raw === null || raw === undefined ? t("seat.unknown", { seat: index + 1 })
    : displayName(raw);
}

/** Several seats named, as a list in words. @param {TableState} app @param {number[]} seats */
export function listNames(app, seats) {
  return andList((seats || []).map((s) => nameOf(app, s)));
}

/** @param {TableState} app */
export const hotSeat = (app) => app.seats.size > 1;

/** The seat spoken to as "you": the one seat this screen plays (none on a hot seat).
 *  @param {TableState} app @param {number} seat */
export const you = (app, seat) => app.seats.size === 1 && app.seats.has(seat);

/** How the log names seats. @param {TableState} app @param {ViewState|null} state */
export const logContext = (app, state) => ({
  name: (/** @type {number} */ seat) => nameOf(app, seat, state),
  you: (/** @type {number} */ seat) => you(app, seat),
});

/** The seat whose screen this is: its board is drawn largest.
 *  @param {TableState} app @returns {number|null} */
export function homeSeat(app) {
  if (app.seats.size === 0) return null;
  if (hotSeat(app) && app.entry.shown !== null && app.seats.has(app.entry.shown)) {
    return app.entry.shown;
  }
  return Math.min(...app.seats);
}

/** A hot-seat turn waits behind a "pass to …" screen until the next player confirms.
 *  @param {TableState} app */
export function passPending(app) {
  const state = app.state;
  if (!hotSeat(app) || !state || state.to_act === null) return false;
  return app.seats.has(state.to_act) && app.entry.shown !== state.to_act;
}

/** Whether the pass screen is up: pending, and the last move has finished drawing (the
 *  screen waits for it, so it never names the next player over a moving card).
 *  @param {TableState} app */
export const passShown = (app) => passPending(app) && !app.busy;

/** The seat this browser may act for now, or null. @param {TableState} app */
export function actingSeat(app) {
  const state = app.state;
  if (!state || !app.online || app.busy || app.sent || state.to_act === null) return null;
  if (!app.seats.has(state.to_act) || passPending(app)) return null;
  return state.to_act;
}

/** Whether a view is between rounds or at the match's end. @param {ViewState|null} state */
export function isOver(state) {
  return Boolean(state) && ["round_over", "match_over"].includes(/** @type {ViewState} */ (state).phase);
}

/** Whether the page watches (no seat of its own). @param {TableState} app */
export const spectating = (app) => app.watching || Boolean(app.state && app.seats.size === 0);

// -- what the events leave -----------------------------------------------------------------

/** Keep the boards the end of a round turned up (its last round_won or its round_void
 *  carries them: docs/protocol.md, "events"), to show them until the next deal.
 *  @param {TableState} app @param {Array<Record<string, any>>} events */
export function noteRevealed(app, events) {
  for (const event of events) if (event.revealed) app.revealed = event.revealed;
}

/** Remember why this player's turn ended on a discard, to say so while others play.
 *  @param {TableState} app @param {Array<Record<string, any>>} events */
export function noteTurnEnd(app, events) {
  for (const event of events) {
    if (event.type === "discarded" && app.seats.has(event.seat)) {
      const reason = turnEndReason(event);
      if (reason) app.reason = reason;
    }
    if (event.type === "turn_passed" && app.seats.has(event.seat)) app.reason = null;
  }
}

/** The win chances the bar may show now: those held for versions the board reached.
 *  @param {TableState} app @returns {ChancesMessage|null} */
export function takeChances(app) {
  const held = app.heldChances;
  while (held.length && app.version !== null && held[0].version <= app.version) {
    const next = /** @type {ChancesMessage} */ (held.shift());
    if (!app.chances || next.version >= app.chances.version) app.chances = next;
  }
  return app.chances;
}

// -- words ---------------------------------------------------------------------------------

/** The line that says what happens now. @param {TableState} app @returns {string} */
export function promptText(app) {
  const state = app.state;
  const table = app.table;
  if (!state) {
    if (table && table.status === "waiting") return t("prompt.waiting");
    if (app.status === "crowded") return t("conn.crowded");
    return app.online ? t("prompt.loading") : t("prompt.connecting");
  }
  // The next round's deal is playing while the view is still the last round's end.
  if (app.busy && app.shown && app.shown.round !== state.round) return t("prompt.dealing");
  if (state.phase === "match_over") {
    return t("prompt.match_over", { name: nameOf(app, state.match_winner) });
  }
  if (state.phase === "round_over") {
    return t("prompt.round_over", { names: listNames(app, state.round_winners) });
  }
  if (state.to_act === null) return t("prompt.dealing");
  const name = nameOf(app, state.to_act);
  if (passPending(app)) return t("prompt.pass", { name });
  const seat = actingSeat(app);
  if (seat === null) {
    if (!app.online && app.seats.has(state.to_act)) return t("conn.offline");
    if (app.sent) return t("prompt.sent");
    const turn = app.busy ? t("prompt.playing", { name }) : t("prompt.other_turn", { name });
    return app.reason ? t("prompt.with_reason", { why: app.reason, turn }) : turn;
  }
  return turnPrompt(state, name, hotSeat(app));
}

/** The seats still to play their one more turn of a last-chance lap, in turn order.
 *  @param {ViewState} state @returns {number[]} */
export function lapLeft(state) {
  if (state.final_from === null || state.final_from === undefined || state.to_act === null) {
    return [];
  }
  const left = [];
  const players = state.players.length;
  for (let seat = state.to_act; seat !== state.final_from && left.length < players;
    seat = (seat + 1) % players) left.push(seat);
  return left;
}

/** What the variants leave pending, in words: a claim waiting for its turn, the
 *  last-chance lap and the round's winners so far.
 *  @param {TableState} app @param {ViewState|null} state @returns {Badge[]} */
export function notesFor(app, state) {
  /** @type {Badge[]} */
  const notes = [];
  if (!state || state.phase === "round_over" || state.phase === "match_over") return notes;
  for (const seat of state.unclaimed || []) {
    notes.push({ kind: "claim", text: you(app, seat) ? t("note.unclaimed_you")
      : t("note.unclaimed", { name: nameOf(app, seat, state) }) });
  }
  if (state.final_from !== null && state.final_from !== undefined) {
    const named = (/** @type {number} */ seat) => (you(app, seat) ? t("note.you")
      : nameOf(app, seat, state));
    const left = lapLeft(state).map(named);
    const text = you(app, state.final_from) ? t("note.last_chance_you", { left: andList(left) })
      : t("note.last_chance", { name: nameOf(app, state.final_from, state),
        left: andList(left) });
    notes.push({ kind: "lap", text });
    const winners = (state.round_winners || []).map(named);
    if (winners.length) {
      notes.push({ kind: "won", text: t("note.winners", { names: andList(winners) }) });
    }
  }
  return notes;
}

/** The badges of a seat's board. @param {ViewState} state @param {number} seat
 *  @returns {Badge[]} */
export function badgesFor(state, seat) {
  const badges = [];
  if (state.match_winner === seat) badges.push({ kind: "winner", text: t("board.match_winner") });
  else if ((state.round_winners || []).includes(seat)) {
    badges.push({ kind: "winner", text: t("board.round_winner") });
  }
  if (state.called && state.to_act === seat) badges.push({ kind: "called", text: t("board.called") });
  if ((state.unclaimed || []).includes(seat)) badges.push({ kind: "claim", text: t("board.claims") });
  if (lapLeft(state).includes(seat)) badges.push({ kind: "lap", text: t("board.one_more_turn") });
  return badges;
}

/** The table's rules that change play, as badges: the wilds, the packs, the variants and
 *  the rounds the match is played to. @param {TableState} app @returns {Badge[]} */
export function ruleBadges(app) {
  if (!app.table) return [];
  const badges = [];
  const wilds = [...wildRanks(app)];
  if (ruleField(app, "jokers_per_deck", 0) > 0) wilds.push(t("rule.joker"));
  badges.push({ kind: "wild", text: t("rule.wild", { ranks: wilds.join(" ") }) });
  const decks = app.table.decks || 1;
  if (decks > 1) badges.push({ kind: "packs", text: t("rule.packs", { count: decks }) });
  for (const flag of Object.keys(FLAGS)) {  // each house rule that is on: `rule.<flag>`
    if (ruleField(app, flag, false)) badges.push({ kind: flag, text: t(`rule.${flag}`) });
  }
  const rounds = ruleField(app, "rounds_to_win", null) ?? startSize(app);
  badges.push({ kind: "rounds", text: t("rule.first_to", { count: rounds }) });
  return badges;
}

/** The name of the table's preset, in the reader's language. @param {TableState} app */
export function presetTitle(app) {
  const preset = (app.table && app.table.rules && app.table.rules.preset) || "standard";
  const key = `preset.${preset}.name`;
  const name = t(key);
  return name === key ? preset : name;
}
