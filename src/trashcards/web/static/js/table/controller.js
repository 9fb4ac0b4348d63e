// @ts-check
// The table page's controller: what the server's messages do to the page's state, in
// order (each step of an `events` message played, the round-over panel held for the
// pause), and the player's decisions sent. It reaches the page only through the view
// it is given and the socket only through `send`, so tests/web/js/table.test.mjs runs it
// under Node with both faked.

import * as store from "../store.js";
import { noteMatch } from "../profile.js";
import { t } from "../i18n.js";
import { describeEvents, stepState } from "../events.js";
import {
  actingSeat, hotSeat, isOver, logContext, noteRevealed, noteTurnEnd, tokenFor,
} from "./state.js";

/** @typedef {import("./state.js").TableState} TableState */
/** @typedef {import("./state.js").Queued} Queued */
/** @typedef {import("protocol").ServerMessage} ServerMessage */
/** @typedef {import("protocol").ClientMessage} ClientMessage */
/** @typedef {import("protocol").ErrorMessage} ErrorMessage */
/** @typedef {import("protocol").EventsMessage} EventsMessage */
/** @typedef {import("protocol").HistoryMessage} HistoryMessage */
/** @typedef {import("protocol").ViewState} ViewState */
/** @typedef {{text: string, kind?: string, first: number}} LogLine */

/**
 * What the controller asks of the page (js/table/view.js gives it; tests fake it).
 * @typedef {object} TableView
 * @property {() => void} render draw everything from the state
 * @property {() => void} renderAids the win-chance bar and the Hint button
 * @property {() => void} renderLogButton the log's "earlier" button
 * @property {(key: string|null, fallback?: string) => void} showError
 * @property {() => void} clearChances the bar forgets what it showed
 * @property {{append(lines: LogLine[]): void, prepend(lines: LogLine[]): void,
 *             replace(lines: LogLine[]): void}} log the "What happened" log
 * @property {{waiting: boolean, receive(msg: object): void, refused(code: string): void}} hint
 * @property {(tableId: string) => void} goToTable leave for another table's page
 * @property {() => void} seatsChanged the server said which seats are this page's
 * @property {(seat: number, emote: string) => void} [showReaction] a seat's reaction came
 * @property {(events: Array<Record<string, any>>, state: ViewState|null) => void} [told]
 *   the events of a move came (said at the "one sentence a turn" verbosity)
 * @property {Motion} motion
 */

/**
 * How the steps of an event chain are shown, and when.
 * @typedef {object} Motion
 * @property {() => boolean} on whether cards fly (the reader did not ask for less motion)
 * @property {(event: object) => unknown} sources where the cards of an event are before it
 * @property {(event: object, from: unknown, speed: number) => Promise<void>} animate
 * @property {(event: object, speed: number) => Promise<void>} animateDeal
 * @property {(speed: number) => number} pause ms between two steps
 * @property {(name: string) => void} sound
 * @property {(event: object) => string|null} soundOf
 * @property {() => number} now ms, monotonic
 * @property {(ms: number) => Promise<void>} sleep
 * @property {(fn: () => void, ms: number) => void} later
 */

/** Longest chain of events that is played step by step (a longer one is drawn at once). */
export const MAX_ANIMATED = 80;
/** The codes an error answering a hint request may carry. */
export const HINT_ERRORS = ["busy", "rate_limited", "hints_off", "not_your_turn",
  "stale_version"];

export class TableController {
  /**
   * @param {TableState} app
   * @param {TableView} view
   * @param {{send(message: ClientMessage): boolean, rejoin(): void}} socket
   */
  constructor(app, view, socket) {
    this.app = app;
    this.view = view;
    this.socket = socket;
    this.draining = false;
    /** A check before a decision is sent (the guided game's, js/learn.js): false keeps
     *  it from being sent. @type {((action: string) => boolean)|null} */
    this.guard = null;
  }

  // -- sending ----------------------------------------------------------------------------

  /** Play ``action`` for the seat to act, if this page may and it is legal.
   *  @param {string} action */
  act(action) {
    const app = this.app;
    const seat = actingSeat(app);
    if (seat === null || !app.state || !app.state.legal.includes(action)) return;
    const token = tokenFor(app, seat);
    if (token === null || app.version === null) return;
    if (this.guard && !this.guard(action)) return;
    if (this.socket.send({ type: "act", token, action, version: app.version })) {
      app.sent = true;
      this.view.render();
    }
  }

  /** Every seat of this page is ready for the next round. */
  nextRound() {
    for (const seat of this.app.seats) {
      const token = tokenFor(this.app, seat);
      if (token !== null) this.socket.send({ type: "next_round", token });
    }
    this.app.readyClicked = true;
    this.view.render();
  }

  rematch() {
    const token = tokenFor(this.app, Math.min(...this.app.seats));
    if (token !== null) this.socket.send({ type: "rematch", token });
  }

  /** Ask for the page of the log before move ``before``. @param {number|null} before */
  askHistory(before) {
    if (before === null || before <= 0 || this.app.asked !== null) return;
    if (this.socket.send({ type: "history", before })) {
      this.app.asked = before;
      this.view.renderLogButton();
    }
  }

  /** The next seat of a hot seat has the screen. */
  passed() {
    const app = this.app;
    if (!app.state) return;
    app.entry.shown = app.state.to_act;
    store.updateTable(app.tableId, { shown: app.entry.shown });
    this.view.render();
  }

  // -- messages ---------------------------------------------------------------------------

  /** A message of the server. @param {ServerMessage} msg */
  onMessage(msg) {
    const app = this.app;
    switch (msg.type) {
      case "joined":
        app.joinedHere = true;
        // What this page may see changed with its seats (a spectator who took a seat at
        // a table without hints sees no chances): the server sends what it may see now.
        app.chances = null;
        app.heldChances.length = 0;
        this.view.clearChances();
        app.seats = new Set(msg.seats || []);
        app.table = msg.table || app.table;
        this.view.seatsChanged();
        this.view.render();
        break;
      case "table":
        app.table = msg.table;
        this.view.render();
        break;
      case "state":
      case "events":
      case "history":
        app.queue.push({ ...msg, arrived: this.view.motion.now() });
        this.drain();
        break;
      case "rematch":
        this.goToRematch(msg.table_id);
        break;
      case "chances":
        app.heldChances.push(msg);
        app.heldChances.sort((a, b) => a.version - b.version);
        this.view.renderAids();
        break;
      case "hint":
        this.view.hint.receive(msg);
        break;
      case "reaction":
        this.view.showReaction?.(msg.seat, msg.emote);
        break;
      case "error":
        this.onError(msg);
        break;
      default:
        break;
    }
  }

  /** @param {ErrorMessage} msg */
  onError(msg) {
    const app = this.app;
    if (this.view.hint.waiting && !app.sent && app.joinedHere && HINT_ERRORS.includes(msg.code)) {
      this.view.hint.refused(msg.code);
      return;
    }
    app.sent = false;
    if (msg.code === "rate_limited" && !app.joinedHere) {
      // The join itself was refused for this address's rate: join again when allowed.
      const wait = Math.max(1, Number(msg.retry_after) || 5);
      this.view.showError(null, t("error.join_later", { seconds: Math.ceil(wait) }));
      this.view.motion.later(() => this.socket.rejoin(), wait * 1000);
    } else if (msg.code === "storage_error") {
      this.view.showError("error.storage_error", msg.message);
    } else if (msg.code !== "stale_version") {
      this.view.showError(`error.${msg.code}`, msg.message);
    }
    this.view.render();
  }

  /** @param {string} newId */
  goToRematch(newId) {
    if (!newId) return;
    if (this.app.entry.seats.length) {
      store.addSeats(newId, this.app.entry.seats);
      store.updateTable(newId, { created: Date.now() });
    }
    this.view.goToTable(newId);
  }

  /** Play the queued frames in order, one at a time. */
  async drain() {
    if (this.draining) return;
    this.draining = true;
    const app = this.app;
    try {
      while (app.queue.length) {
        await this.holdRoundOver(app.queue[0]);
        const msg = /** @type {Queued} */ (app.queue.shift());
        if (msg.type === "events") await this.playEvents(msg);
        else if (msg.type === "history") this.onHistory(msg);
        else this.setState(msg.state, msg.version, msg.arrived);
      }
    } finally {
      this.draining = false;
    }
  }

  /** The round-over panel stays up for the whole pause between rounds, counted from when
   *  this page showed it (the server counts from the end of the round, and the winning
   *  chain may take a while to play here): the next deal waits for the rest of the
   *  pause, unless it came early because everyone clicked "Next round", or this page
   *  did. @param {Queued} next */
  async holdRoundOver(next) {
    const app = this.app;
    const shown = app.roundShown;
    if (!shown || !app.state || app.state.phase !== "round_over" || next.type === "history") {
      return;
    }
    const pause = 1000 * Number((app.table && app.table.round_pause) || 0);
    const now = this.view.motion.now();
    const early = next.arrived - shown.arrived < pause - 500; // everyone was ready
    const left = pause - (now - shown.at);
    if (early || app.readyClicked || left <= 0) return;
    await this.view.motion.sleep(left);
  }

  /**
   * The view of ``version`` is the page's now.
   * @param {ViewState} state
   * @param {number} version
   * @param {number} [arrived]
   */
  setState(state, version, arrived = this.view.motion.now()) {
    const app = this.app;
    const wasMine = app.state !== null && actingSeat(app) !== null;
    const ended = state && state.phase === "round_over"
      && !(app.state && app.state.phase === "round_over" && app.version === version);
    if (ended) app.roundShown = { at: this.view.motion.now(), arrived };
    else if (!state || state.phase !== "round_over") app.roundShown = null;
    if (!isOver(state)) app.revealed = null;
    app.state = state;
    app.shown = state;
    app.focus = null;
    app.version = version;
    app.sent = false;
    if (state && state.phase !== "round_over") app.readyClicked = false;
    if (state && (state.to_act === null || app.seats.has(state.to_act))) app.reason = null;
    if (!hotSeat(app) && app.seats.size === 1) app.entry.shown = Math.min(...app.seats);
    store.updateTable(app.tableId, { version, shown: app.entry.shown });
    // players: the match goes into this device's profile (once, when this page plays a
    // seat; not the guided game, js/learn.js)
    if (state && state.phase === "match_over" && !app.entry.guided) noteMatch(app.tableId, app.table, state, app.seats);
    this.view.render();
    if (!wasMine && actingSeat(app) !== null) this.view.motion.sound("turn");
  }

  /** A page of the log from the server: the whole current round after a fresh state, or
   *  an older page asked for. @param {HistoryMessage} msg */
  onHistory(msg) {
    const app = this.app;
    const revealed = app.revealed;
    if (isOver(app.state)) noteRevealed(app, msg.events || []); // a page opened after the round
    const lines = describeEvents(msg.events || [], logContext(app, app.state));
    if (app.asked !== null && msg.version === app.asked) this.view.log.prepend(lines);
    else this.view.log.replace(lines);
    app.asked = null;
    app.historyFrom = msg.from_version;
    app.roundFrom = msg.round_from;
    if (msg.from_version > msg.round_from) this.askHistory(msg.from_version); // the round
    this.view.renderLogButton();
    if (app.revealed !== revealed) this.view.render();  // the boards show what was under
  }

  /** Play the steps of an ``events`` message, then take its view.
   *  @param {EventsMessage & {arrived: number}} msg */
  async playEvents(msg) {
    const app = this.app;
    const motion = this.view.motion;
    const events = msg.events || [];
    const lines = describeEvents(events, logContext(app, msg.state || app.state));
    this.view.told?.(events, msg.state || app.state);
    const animate = app.shown && app.version !== null && msg.from_version === app.version
      && motion.on() && events.length <= MAX_ANIMATED;
    noteTurnEnd(app, events);
    if (!animate) {
      noteRevealed(app, events);
      this.view.log.append(lines);
      for (const event of events) {
        if (event.type === "round_won" || event.type === "match_won") motion.sound("win");
      }
      this.setState(msg.state, msg.version, msg.arrived);
      return;
    }
    app.busy = true;
    const speed = app.queue.some((m) => m.type === "events") ? 0.5 : 1;
    let told = 0;
    try {
      for (const [index, event] of events.entries()) {
        const from = motion.sources(event);
        const { state, focus } = stepState(app.shown, event);
        app.shown = state;
        app.focus = focus;
        noteRevealed(app, [event]);
        this.view.render();
        while (told < lines.length && lines[told].first <= index) {
          this.view.log.append([lines[told]]);
          told += 1;
        }
        const noise = motion.soundOf(event);
        if (noise) motion.sound(noise);
        if (event.type === "dealt") await motion.animateDeal(event, speed);
        else await motion.animate(event, from, speed);
        await motion.sleep(motion.pause(speed));
      }
    } finally {
      this.view.log.append(lines.slice(told));
      app.busy = false;
    }
    this.setState(msg.state, msg.version, msg.arrived);
  }
}
