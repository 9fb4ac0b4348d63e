// @ts-check
// The table page's view: draws the state (js/table/state.js) into the page and turns
// the reader's clicks and keys into the controller's calls (js/table/controller.js).
// Everything that touches the DOM of the table page is here.

import { currentLanguage, t } from "../i18n.js";
import { Announcer, setVerbosity, verbosity } from "../announce.js";
import { summarizeEvents } from "../events.js";
import { api } from "../api.js";
import { paths } from "../config.js";
import { watchTable } from "../connection.js";
import * as store from "../store.js";
import { boardElement, centerElement } from "../board.js";
import { cardElement, isWildCard } from "../cards.js";
import { byId, dialogById, el, inputById, wholeWords } from "../dom.js";
import { installKeys } from "../keys.js";
import { Log } from "../log.js";
import * as motion from "../motion.js";
import { HintPanel } from "../hint.js";
import { displayName } from "../names.js";
import { wildSlots } from "../prompt.js";
import * as sound from "../sound.js";
import { WinBar } from "../winbar.js";
import { EMOTES } from "../spec.js";
import { EMOJI, REACTION_INTERVAL_MS, REACTION_SHOWN_MS, reactionLabel } from "../reactions.js";
import {
  actingSeat, badgesFor, homeSeat, isOver, listNames, logContext, nameOf, notesFor,
  passPending, passShown, presetTitle, promptText, ruleBadges, spectating, startSize,
  takeChances, tokenFor, wildRanks, you,
} from "./state.js";
import { boardSpeech, opponents, pilesSpeech } from "./speech.js";

/** @typedef {import("./state.js").TableState} TableState */
/** @typedef {import("./controller.js").TableController} TableController */
/** @typedef {import("./controller.js").Motion} Motion */
/** @typedef {import("protocol").ClientMessage} ClientMessage */
/** @typedef {import("protocol").ViewState} ViewState */

const sleep = (/** @type {number} */ ms) => new Promise((resolve) => { setTimeout(resolve, ms); });

/** The page's motion and sound (js/motion.js, js/sound.js) as the controller uses them.
 *  @type {Motion} */
export const pageMotion = {
  on: motion.motionOn,
  sources: motion.sources,
  animate: motion.animateEvent,
  animateDeal: motion.animateDeal,
  pause: motion.pause,
  sound: sound.play,
  soundOf: sound.soundOf,
  now: () => performance.now(),
  sleep,
  later: (fn, ms) => { setTimeout(fn, ms); },
};

export class TableView {
  /**
   * @param {TableState} app
   * @param {(message: ClientMessage) => boolean} send
   */
  constructor(app, send) {
    this.app = app;
    this.send = send;
    /** The reactions on show beside the boards, by seat, and when each goes.
     *  @type {Map<number, {emote: string, until: number}>} */
    this.reactionsShown = new Map();
    /** This page sent a reaction a moment ago: the next waits (js/reactions.js). */
    this.reacting = false;
    /** @type {TableController|null} set once the controller is made */
    this.controller = null;
    /** Called after every render (the guided game's panel, js/learn.js).
     *  @type {(() => void)|null} */
    this.afterRender = null;
    this.motion = pageMotion;
    /** What a reader who does not see the table hears (js/announce.js). */
    this.announcer = new Announcer(byId("announcer"));
    const log = new Log(byId("log-list"), byId("log-scroll"));
    /** The "What happened" log; at the "every step" verbosity each new line is said. */
    this.log = {
      append: (/** @type {{text: string}[]} */ lines) => {
        log.append(lines);
        if (verbosity() === "full") for (const line of lines) this.announcer.say(line.text);
      },
      prepend: (/** @type {any[]} */ lines) => log.prepend(lines),
      replace: (/** @type {any[]} */ lines) => log.replace(lines),
    };
    /** The prompt last said, with its version (said again at a new decision). */
    this.spoken = "";
    /** The hint last said: its version and words. */
    this.hintSpoken = "";
    /** The opponent N reads next (an index into state.opponents). */
    this.nextOpponent = 0;
    this.winbar = new WinBar(byId("winbar"));
    this.hint = new HintPanel(byId("hint-button"), byId("hint-panel"), {
      send,
      onChange: () => {
        this.markSuggestion();
        this.sayHint(false);
      },
    });
    /** @type {string|null} what the bar shows: (version, names, own seat, language) */
    this.drawnChances = null;
    /** @type {ReturnType<typeof setTimeout>|undefined} */
    this.errorTimer = undefined;
    /** @type {Promise<void>|null} */
    this.partyAsked = null;
    /** @type {Map<string, {close(): void}>} the other tables of the party, followed
     *  until the final */
    this.partyFollowed = new Map();
    /** @type {ReturnType<typeof setTimeout>|undefined} */
    this.partyChangedTimer = undefined;
  }

  /** @returns {TableController} */
  get control() {
    if (this.controller === null) throw new Error("the table page has no controller yet");
    return this.controller;
  }

  clearChances() {
    this.drawnChances = null;
    this.winbar.clear();
  }

  seatsChanged() {
    document.body.dataset.seats = [...this.app.seats].join(",");
  }

  /** @param {string} tableId */
  goToTable(tableId) {
    location.assign(paths.tablePage(tableId)); // under the app's root (not the frame's url)
  }

  // -- errors ---------------------------------------------------------------------------

  /** Show an error for a few seconds (or until the page closes, if sticky).
   *  @param {string|null} key @param {string} [fallback] @param {boolean} [sticky] */
  showError(key, fallback, sticky = false) {
    const app = this.app;
    const translated = key ? t(key) : null;
    app.error = translated && translated !== key ? translated : (fallback || t("error.generic"));
    clearTimeout(this.errorTimer);
    if (!sticky) {
      this.errorTimer = setTimeout(() => { app.error = null; this.renderError(); }, 6000);
    }
    this.renderError();
  }

  renderError() {
    const box = byId("error");
    box.textContent = this.app.error || "";
    box.hidden = !this.app.error || Boolean(this.app.gone);
  }

  // -- drawing -----------------------------------------------------------------------------

  render() {
    const app = this.app;
    const body = document.body.dataset;
    body.version = app.version === null ? "" : String(app.version);
    body.phase = app.state ? app.state.phase : (app.table ? app.table.status : "");
    body.busy = app.busy || app.sent ? "1" : "0";
    const acting = actingSeat(app);
    body.acting = acting === null ? "" : String(acting);
    body.pass = passShown(app) ? "1" : "0";
    body.gone = app.gone ? "1" : "0";
    if (app.gone) {
      this.renderGone();
      return;
    }
    const prompt = promptText(app);
    if (byId("prompt").textContent !== prompt) byId("prompt").textContent = prompt;
    this.sayPrompt(prompt, acting);
    const conn = byId("conn");
    conn.textContent = app.online ? t("conn.online")
      : (app.status === "crowded" ? t("conn.crowded_short") : t("conn.offline"));
    conn.dataset.online = app.online ? "1" : "0";
    this.renderInfo();
    this.renderNotes();
    this.renderError();
    this.renderWaiting();
    this.renderBoards(acting);
    this.renderResult();
    this.renderPass();
    this.renderTopbar();
    this.renderAids();
    this.renderReactions();
    this.markSuggestion();
    motion.keepHidden();
    this.afterRender?.();
  }

  /** The win-chance bar (whatever `chances` the server sent) and the Hint button (where
   *  the table allows hints, on this screen's own decision). */
  renderAids() {
    const app = this.app;
    const acting = actingSeat(app);
    const allowed = Boolean(app.table && app.table.hints) && acting !== null;
    this.hint.update({ allowed, token: acting === null ? null : tokenFor(app, acting),
      version: app.version });
    const chances = takeChances(app);
    if (chances) {
      const players = (app.state && app.state.players) || (app.table && app.table.seats) || [];
      const names = players.map((_, seat) => nameOf(app, seat));
      const mine = app.seats.size === 1 ? homeSeat(app) : null;
      const key = JSON.stringify([chances.version, names, mine, currentLanguage()]);
      if (key !== this.drawnChances) this.winbar.update(chances, names, mine);
      this.drawnChances = key;
    }
    // A spectator is told plainly that the bar is live, and whether the players see it.
    const note = byId("aids-note");
    note.hidden = !spectating(app) || this.winbar.root.hidden;
    note.textContent = app.table && app.table.hints ? t("winbar.watching")
      : t("winbar.watching_secret");
    document.body.dataset.hint = allowed ? "1" : "0";
    byId("aids").hidden = app.gone !== null
      || (this.winbar.root.hidden && byId("hint-button").hidden);
  }

  renderGone() {
    const gone = /** @type {{title: string, text: string}} */ (this.app.gone);
    for (const id of ["status", "game", "waiting", "log", "aids"]) byId(id).hidden = true;
    byId("gone").hidden = false;
    byId("gone-title").textContent = gone.title;
    byId("gone-text").textContent = gone.text;
    this.renderTopbar();
  }

  renderTopbar() {
    const app = this.app;
    const party = app.table && app.table.party;
    const link = /** @type {HTMLAnchorElement} */ (byId("party-link"));
    link.hidden = !party;
    if (party) link.href = paths.partyPage(party);
    byId("download").hidden = Boolean(app.gone);
    byId("watch-open").hidden = Boolean(app.gone);
  }

  renderInfo() {
    const app = this.app;
    const state = app.shown;
    const facts = [];
    if (app.table && app.table.summary) facts.push(presetTitle(app));
    if (state && state.round) facts.push(t("info.round", { round: state.round }));
    if (state && state.dealer !== null && state.dealer !== undefined
      && state.players[state.dealer]) {
      facts.push(t("info.dealer", { name: nameOf(app, state.dealer, state) }));
    }
    if (spectating(app)) facts.push(t("info.watching"));
    byId("info").textContent = facts.join(" · ");
    this.renderRuleBadges();
  }

  renderRuleBadges() {
    const box = byId("rule-badges");
    const badges = ruleBadges(this.app);
    const key = badges.map((b) => b.text).join("|");
    if (box.dataset.key === key) return;
    box.dataset.key = key;
    box.replaceChildren(...badges.map((badge) => el("span", `rule-badge rule-${badge.kind}`,
      badge.text)));
  }

  renderNotes() {
    const notes = notesFor(this.app, this.app.shown);
    if (this.app.warming) notes.unshift({ kind: "warmup", text: t("note.warming_up") });
    const list = byId("notes");
    list.hidden = notes.length === 0;
    list.replaceChildren(...notes.map((note) => el("li", `note note-${note.kind}`, note.text)));
  }

  /** @param {number|null} acting */
  renderBoards(acting) {
    const app = this.app;
    const state = app.shown;
    const main = byId("game");
    main.hidden = !state || !state.players || !state.players.length
      || (!state.players[0].slots.length && state.phase === "chance");
    if (main.hidden || !state) return;
    const home = homeSeat(app);
    const players = state.players.length;
    const big = home === null ? 0 : home;
    const others = [];
    for (let step = 1; step < players; step += 1) others.push((big + step) % players);
    const legal = acting === null || !app.state ? new Set() : new Set(app.state.legal);
    const slots = new Set(wildSlots(legal));
    const act = (/** @type {string} */ action) => this.control.act(action);
    const boardCtx = (/** @type {number} */ seat, /** @type {boolean} */ isBig) => ({
      seat,
      player: state.players[seat],
      name: nameOf(app, seat, state),
      big: isBig,
      you: you(app, seat),
      toAct: state.to_act === seat,
      badges: badgesFor(state, seat),
      wildSlots: acting === seat ? slots : null,
      onSlot: (/** @type {number} */ k) => act(`wild ${k}`),
      startSize: startSize(app),
      focus: app.focus && typeof app.focus === "object" ? app.focus : null,
      revealed: app.revealed && isOver(state) ? app.revealed[seat] : null,
      reaction: this.reactionsShown.get(seat)?.emote ?? null,
    });
    const opponents = byId("opponents");
    opponents.style.setProperty("--others", String(Math.max(others.length, 1)));
    opponents.dataset.count = String(others.length);
    opponents.replaceChildren(...others.map((seat) => boardElement(boardCtx(seat, false))));
    byId("home").replaceChildren(boardElement(boardCtx(big, true)));
    const handOwner = state.to_act !== null && state.to_act !== undefined
      && !you(app, state.to_act) ? nameOf(app, state.to_act, state) : null;
    const over = app.state && ["round_over", "match_over"].includes(app.state.phase) && !app.busy;
    const center = byId("center");
    center.hidden = Boolean(over);
    if (over) return;
    center.replaceChildren(centerElement({
      state,
      legal,
      act,
      showPile: () => this.showPile(),
      wildRanks: wildRanks(app),
      focus: typeof app.focus === "string" ? app.focus : null,
      handOwner,
    }));
  }

  // -- reactions (js/reactions.js) -------------------------------------------------------

  /** The reactions bar: at an online table that allows them and has a seat for a friend
   *  by link (against the computer or on one device there is no one to react to), for a
   *  page with a seat. */
  renderReactions() {
    const app = this.app;
    const bar = byId("reactions");
    const table = /** @type {Record<string, any>|null} */ (app.table);
    const friends = Boolean(table) && table.seats.some((/** @type {{kind: string}} */ s) =>
      s.kind === "open");
    bar.hidden = !table || !table.reactions || Boolean(table.local) || !friends
      || homeSeat(app) === null;
    if (bar.hidden) return;
    const list = byId("reactions-list");
    if (!list.children.length) {
      for (const emote of EMOTES) {
        const button = /** @type {HTMLButtonElement} */ (el("button", "reaction-button"));
        button.type = "button";
        button.dataset.emote = emote;
        button.addEventListener("click", () => this.react(emote));
        list.append(button);
      }
    }
    for (const child of list.children) {
      const button = /** @type {HTMLElement} */ (child);
      const emote = button.dataset.emote || "";
      const label = reactionLabel(emote);
      if (button.dataset.label === label) continue;
      button.dataset.label = label;
      const icon = el("span", "reaction-icon", EMOJI[emote] || "");
      icon.setAttribute("aria-hidden", "true");
      button.replaceChildren(icon, el("span", "reaction-word", label));
    }
  }

  /** Send a reaction; the next waits REACTION_INTERVAL_MS (the server's limit).
   *  @param {string} emote */
  react(emote) {
    const seat = homeSeat(this.app);
    const token = seat === null ? null : tokenFor(this.app, seat);
    if (!token || this.reacting) return;
    this.send(/** @type {any} */ ({ type: "react", token, emote }));
    this.reacting = true;
    const buttons = [...byId("reactions-list").children];
    for (const button of buttons) button.setAttribute("aria-disabled", "true");
    setTimeout(() => {
      this.reacting = false;
      for (const button of buttons) button.removeAttribute("aria-disabled");
    }, REACTION_INTERVAL_MS);
  }

  /** A seat's reaction: beside its board for REACTION_SHOWN_MS, and said.
   *  @param {number} seat @param {string} emote */
  showReaction(seat, emote) {
    const until = Date.now() + REACTION_SHOWN_MS;
    this.reactionsShown.set(seat, { emote, until });
    this.render();
    const label = reactionLabel(emote);
    this.announcer.say(you(this.app, seat) ? t("reaction.said_you", { emote: label })
      : t("reaction.said", { name: nameOf(this.app, seat), emote: label }));
    setTimeout(() => {
      const shown = this.reactionsShown.get(seat);
      if (!shown || shown.until > Date.now()) return;
      this.reactionsShown.delete(seat);
      this.render();
    }, REACTION_SHOWN_MS);
  }

  // -- what is said (js/announce.js) -----------------------------------------------------

  /** The events of a move have come: at the "one sentence a turn" verbosity, say them so
   *  (at "every step" the log's lines are said as they are told).
   *  @param {Array<Record<string, any>>} events @param {ViewState|null} state */
  told(events, state) {
    if (verbosity() !== "brief") return;
    for (const line of summarizeEvents(events, logContext(this.app, state || this.app.state))) {
      this.announcer.say(line.text);
    }
  }

  /** Say the prompt when it asks this page for a decision, or says that a round or the
   *  match is over or whose device it is: once for each version.
   *  @param {string} prompt @param {number|null} acting */
  sayPrompt(prompt, acting) {
    const app = this.app;
    const wanted = acting !== null || passPending(app)
      || (!app.busy && isOver(app.state));
    const key = `${app.version}|${prompt}`;
    if (!wanted || key === this.spoken) return;
    this.spoken = key;
    this.announcer.say(prompt);
  }

  /** Say the hint on show (its conclusion, or why there is none), once; ``again``: say it
   *  even if it was said. @param {boolean} again */
  sayHint(again) {
    const panel = byId("hint-panel");
    if (panel.hidden) return;
    const words = panel.querySelector(".hint-best, .hint-refused");
    if (!words || !words.textContent) return;
    const text = `${t("hint.title")}: ${words.textContent}`;
    const key = `${this.app.version}|${text}`;
    if (!again && key === this.hintSpoken) return;
    this.hintSpoken = key;
    this.announcer.say(text);
  }

  /** H: the hint on show is said again; else one is asked for (said when it comes). */
  hearHint() {
    if (this.hint.suggestion(this.app.version) !== null) {
      this.sayHint(true);
    } else if (!byId("hint-button").hidden) {
      this.hint.ask();
    } else {
      this.announcer.say(t("read.no_hint"));
    }
  }

  /** N: the next opponent's board, in turn order, round and round. */
  readNextOpponent() {
    const seats = opponents(this.app);
    if (!seats.length) {
      this.announcer.say(t("read.nothing"));
      return;
    }
    const seat = seats[this.nextOpponent % seats.length];
    this.nextOpponent = (this.nextOpponent + 1) % seats.length;
    this.announcer.say(boardSpeech(this.app, seat));
  }

  /** V: every step, or one sentence a turn. */
  switchVerbosity() {
    const next = verbosity() === "full" ? "brief" : "full";
    setVerbosity(next);
    this.renderVerbosity();
    this.announcer.say(t(`announce.now_${next}`));
  }

  renderVerbosity() {
    const chosen = verbosity();
    for (const input of document.querySelectorAll("input[name=verbosity]")) {
      const box = /** @type {HTMLInputElement} */ (input);
      box.checked = box.value === chosen;
    }
  }

  /** Mark on the table the move the hint on show suggests: its pile, slot or button,
   *  framed (css/ai.css), tagged in words and named so. */
  markSuggestion() {
    for (const node of document.querySelectorAll("#game .hint-pick")) {
      node.classList.remove("hint-pick");
      const named = /** @type {HTMLElement} */ (node).dataset.unhinted;
      if (named !== undefined) node.setAttribute("aria-label", named);
      delete (/** @type {HTMLElement} */ (node)).dataset.unhinted;
    }
    for (const tag of document.querySelectorAll("#game .hint-tag")) tag.remove();
    const action = this.hint.suggestion(this.app.version);
    if (!action || actingSeat(this.app) === null) return;
    const [verb, slot] = action.split(" ");
    let target = null;
    if (verb === "stock" || verb === "discard") {
      target = byId("center").querySelector(`.pile.${verb}`);
    } else if (verb === "wild") {
      target = byId("home").querySelector(`.slot[data-slot="${Number(slot)}"]`);
    } else {
      target = byId("center").querySelector(`.action-${verb}`);
    }
    if (!(target instanceof HTMLElement)) return;
    target.classList.add("hint-pick");
    const mark = t("hint.button");
    const tag = el("span", "hint-tag", `★ ${mark}`);
    tag.setAttribute("aria-hidden", "true");  // the name below says it
    (target.querySelector(".card") || target).append(tag);
    const label = target.getAttribute("aria-label");
    if (label !== null) {
      target.dataset.unhinted = label;
      target.setAttribute("aria-label", t("hint.suggested", { label, mark }));
    }
  }

  renderWaiting() {
    const app = this.app;
    const panel = byId("waiting");
    const table = app.table;
    const waiting = table && table.status === "waiting" && !app.state;
    panel.hidden = !waiting;
    if (!waiting || !table) return;
    byId("waiting-seats").replaceChildren(...table.seats.map((seat) => el("li", "",
      seat.taken ? t("waiting.seat_taken", { seat: seat.seat + 1,
        name: displayName(seat.name) })
        : t("waiting.seat_open", { seat: seat.seat + 1 }))));
    inputById("invite-link").value = new URL(paths.tablePage(app.tableId), location.href).href;
    inputById("watch-link").value = new URL(paths.watchPage(app.tableId), location.href).href;
    const canJoin = !app.watching && app.seats.size === 0 && (table.open || []).length > 0;
    byId("join-form").hidden = !canJoin;
    if (canJoin && !inputById("join-name").value) inputById("join-name").value = store.savedName();
  }

  renderResult() {
    const app = this.app;
    const panel = byId("result");
    const state = app.state;
    const over = state && (state.phase === "round_over" || state.phase === "match_over")
      && !app.busy;
    panel.hidden = !over;
    if (!over || !state) return;
    const people = state.players;
    const matchOver = state.phase === "match_over";
    byId("result-title").textContent = matchOver
      ? t("result.match_won", { name: nameOf(app, state.match_winner) })
      : t("result.round_won", { names: listNames(app, state.round_winners),
        round: state.round });
    const standings = byId("standings");
    standings.hidden = !matchOver;
    if (matchOver) {
      const places = state.standings || people.map(() => 0);
      const order = people.map((p, seat) => ({ p, seat, place: places[seat] }))
        .sort((a, b) => a.place - b.place || a.seat - b.seat);
      byId("standings-body").replaceChildren(...order.map(({ p, seat, place }) => {
        const row = el("tr");
        const cells = [
          t("result.place", { place }), nameOf(app, seat),
          String(p.rounds_won),
          String(p.slots.filter((s) => !s.up).length),
        ];
        for (const [i, text] of cells.entries()) {
          const cell = el(i === 1 ? "th" : "td");
          if (i === 1) {
            cell.scope = "row";
            cell.append(...wholeWords(text));  // a name breaks between its words only
          } else {
            cell.textContent = text;
          }
          row.append(cell);
        }
        return row;
      }));
    } else {
      byId("result-scores").textContent = people
        .map((p, seat) => t("result.score_line", { name: nameOf(app, seat), count: p.rounds_won }))
        .join(" · ");
    }
    byId("result-scores").hidden = matchOver;
    // What the "face down" tags on the boards mean, while boards show them.
    byId("result-revealed").hidden = !(app.revealed && app.revealed.some(
      (board) => (board || []).some(Boolean)));
    const mine = app.seats.size > 0;
    const party = app.table && app.table.party;
    const next = /** @type {HTMLButtonElement} */ (byId("next-round"));
    next.hidden = matchOver || !mine;
    const ready = (app.table && app.table.ready) || [];
    const allMineReady = [...app.seats].every((s) => ready.includes(s));
    next.disabled = Boolean(app.readyClicked || (mine && allMineReady));
    byId("result-wait").hidden = matchOver || !(app.readyClicked || (mine && allMineReady));
    byId("play-again").hidden = !matchOver || !mine || Boolean(party);
    const review = /** @type {HTMLAnchorElement} */ (byId("review-link"));
    review.hidden = !matchOver;
    review.href = paths.reviewPage(app.tableId);
    byId("to-party").hidden = !matchOver || !party;
    if (party && matchOver) this.renderPartyLink(party);
  }

  // -- the end of a party's table --------------------------------------------------------

  /** The end of a party's table leads on: to the final (to play it, if this browser won
   *  here, else to watch it) once both tables are over, else back to the party page.
   *  Until the final exists, this page follows the party's other tables on their
   *  websockets (as a spectator, as the party page does) and asks for the party again
   *  when one changes: no polling. */
  partyTableChanged() {
    clearTimeout(this.partyChangedTimer);
    // Changes that come together (a move's events, then the table) ask once.
    this.partyChangedTimer = setTimeout(() => {
      this.app.partyInfo = undefined;
      this.render();
    }, 150);
  }

  /** @param {any} info */
  followParty(info) {
    const waiting = info && info.final_wanted && !info.final;
    if (!waiting) {
      for (const followed of this.partyFollowed.values()) followed.close();
      this.partyFollowed.clear();
      document.body.dataset.partyFollowing = "0";
      return;
    }
    for (const other of info.tables) {
      if (!other || other.table_id === this.app.tableId || this.partyFollowed.has(other.table_id)) {
        continue;
      }
      this.partyFollowed.set(other.table_id,
        watchTable(other.table_id, () => this.partyTableChanged()));
    }
    document.body.dataset.partyFollowing = String(this.partyFollowed.size);
  }

  /** @param {string} partyId */
  async renderPartyLink(partyId) {
    const app = this.app;
    const link = /** @type {HTMLAnchorElement} */ (byId("to-party"));
    const info = /** @type {any} */ (app.partyInfo);
    const final = info && info.final ? info.final.table_id : null;
    if (final && final !== app.tableId) {
      const mine = app.watching ? [] : store.adoptFinalSeats(info);
      link.href = mine.length ? paths.tablePage(final) : paths.watchPage(final);
      link.textContent = mine.length ? t("party.play_final") : t("party.watch_final");
      link.dataset.final = final;
    } else {
      link.href = paths.partyPage(partyId);
      link.textContent = t("party.back");
      delete link.dataset.final;
    }
    if (info !== undefined || this.partyAsked) return;
    this.partyAsked = api.party(partyId).then((answer) => { app.partyInfo = answer; },
      () => { app.partyInfo = null; });
    await this.partyAsked;
    this.partyAsked = null;
    this.followParty(app.partyInfo);
    this.renderResult();
  }

  renderPass() {
    const app = this.app;
    const pending = passShown(app);
    byId("pass").hidden = !pending;
    byId("game").inert = pending;
    if (!pending || !app.state) return;
    const name = nameOf(app, app.state.to_act);
    byId("pass-title").textContent = t("pass.title", { name });
    const button = byId("pass-button");
    button.textContent = t("pass.button", { name });
    if (document.activeElement !== button) button.focus();
  }

  renderLogButton() {
    const button = /** @type {HTMLButtonElement} */ (byId("log-earlier"));
    button.hidden = !(this.app.historyFrom !== null && this.app.historyFrom > 0);
    button.disabled = this.app.asked !== null;
  }

  renderSound() {
    const on = sound.soundOn();
    const button = byId("sound-button");
    button.setAttribute("aria-pressed", on ? "true" : "false");
    const label = on ? t("sound.on") : t("sound.off");
    button.setAttribute("aria-label", label);
    button.title = label;
    button.dataset.on = on ? "1" : "0";
  }

  showPile() {
    const state = this.app.shown || this.app.state;
    if (!state) return;
    const ranks = wildRanks(this.app);
    byId("pile-list").replaceChildren(...state.discard.slice().reverse().map((card) => {
      const item = el("li");
      item.append(cardElement(card, { wild: isWildCard(card, ranks) }));
      return item;
    }));
    byId("pile-count").textContent = t("pile.count", { count: state.discard.length });
    dialogById("pile-dialog").showModal();
  }

  /** The table cannot be shown: one clear message and the way back to the lobby.
   *  @param {{close(): void}|null} connection */
  async tableGone(connection) {
    connection?.close();
    let code = "no_table";
    try {
      await api.table(this.app.tableId);
    } catch (error) {
      code = (/** @type {any} */ (error).body && /** @type {any} */ (error).body.error) || code;
    }
    const key = code === "quarantined" ? "quarantined" : "no_table";
    this.app.gone = { title: t(`gone.${key}_title`), text: t(`gone.${key}_text`) };
    store.forgetTable(this.app.tableId);
    this.render();
  }

  /** Take an open seat with ``name``; the socket joins again with its token.
   *  @param {string} name @param {() => void} rejoin */
  async joinTable(name, rejoin) {
    const app = this.app;
    try {
      const answer = await api.join(app.tableId, name, undefined);
      store.saveName(name);
      app.entry = store.addSeats(app.tableId, [{ seat: answer.seat, token: answer.token }]);
      store.updateTable(app.tableId, { created: Date.now() });
      rejoin();
    } catch (error) {
      const body = /** @type {any} */ (error).body;
      this.showError(body && body.error ? `error.${body.error}` : null,
        /** @type {Error} */ (error).message);
    }
  }

  // -- the controls --------------------------------------------------------------------

  /** @param {() => void} rejoin */
  wireControls(rejoin) {
    const app = this.app;
    const control = () => this.control;
    byId("help-button").addEventListener("click", () => dialogById("help-dialog").showModal());
    for (const button of document.querySelectorAll("[data-close]")) {
      button.addEventListener("click", () => button.closest("dialog")?.close());
    }
    byId("pass-button").addEventListener("click", () => control().passed());
    byId("next-round").addEventListener("click", () => control().nextRound());
    byId("play-again").addEventListener("click", () => control().rematch());
    byId("join-form").addEventListener("submit", (event) => {
      event.preventDefault();
      const field = inputById("join-name");
      const name = field.value.trim();
      if (!name) {
        field.setAttribute("aria-invalid", "true");
        this.showError("join.need_name");
        field.focus();
        return;
      }
      this.joinTable(name, rejoin);
    });
    inputById("join-name").addEventListener("input",
      () => byId("join-name").removeAttribute("aria-invalid"));
    for (const button of document.querySelectorAll("[data-copy]")) {
      const source = /** @type {HTMLElement} */ (button).dataset.copy || "";
      button.addEventListener("click", () => {
        copyLink(inputById(source).value, /** @type {HTMLElement} */ (button),
          t("waiting.copied"));
      });
    }
    const download = /** @type {HTMLAnchorElement} */ (byId("download"));
    download.href = paths.record(app.tableId);
    // The name the server gives the file (its Content-Disposition), so both agree.
    download.setAttribute("download", paths.recordFile(app.tableId));
    const watch = /** @type {HTMLAnchorElement} */ (byId("watch-open"));
    watch.href = paths.watchPage(app.tableId);
    watch.addEventListener("click", (event) => {
      event.preventDefault();
      copyLink(new URL(paths.watchPage(app.tableId), location.href).href, byId("watch-text"),
        t("table.spectate_copied"));
    });
    byId("sound-button").addEventListener("click", () => {
      sound.setSound(!sound.soundOn());
      this.renderSound();
      sound.play("place");
    });
    byId("log-earlier").addEventListener("click", () => control().askHistory(app.historyFrom));
    installKeys({
      act: (action) => control().act(action),
      slot: (k) => control().act(`wild ${k}`),
      hint: () => this.hearHint(),
      help: () => dialogById("help-dialog").showModal(),
      pass: () => { if (passShown(app)) byId("pass-button").click(); },
      board: () => this.announcer.say(boardSpeech(app, homeSeat(app) ?? 0)),
      piles: () => this.announcer.say(pilesSpeech(app)),
      next: () => this.readNextOpponent(),
      repeat: () => this.announcer.say(byId("prompt").textContent || t("read.nothing")),
      verbosity: () => this.switchVerbosity(),
    });
    for (const input of document.querySelectorAll("input[name=verbosity]")) {
      input.addEventListener("change", () => {
        const box = /** @type {HTMLInputElement} */ (input);
        if (box.checked) setVerbosity(box.value === "brief" ? "brief" : "full");
      });
    }
    this.renderVerbosity();
  }
}

/** Copy ``link`` (or show it to copy by hand), and say so on ``button`` for a moment.
 *  @param {string} link @param {HTMLElement} button @param {string} done */
async function copyLink(link, button, done) {
  try {
    await navigator.clipboard.writeText(link);
  } catch {
    window.prompt(t("waiting.copy_by_hand"), link); // eslint-disable-line no-alert
  }
  const before = button.textContent;
  button.textContent = done;
  button.dataset.copied = "1";
  setTimeout(() => { button.textContent = before; delete button.dataset.copied; }, 2000);
}
