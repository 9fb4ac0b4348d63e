// The table page: joins the table's websocket with this browser's seat tokens, draws the
// view it is sent, plays each step of an `events` message in order (cards fly unless the
// reader asked for reduced motion), tells it in the "What happened" log, and sends the
// player's decisions (clicks or keys). The server decides everything; the client only
// offers what the view's `legal` list allows.

import {
  currentLanguage, detectLanguage, loadLanguage, mountLanguageSwitcher, onLanguageChange, t,
  translatePage,
} from "./i18n.js";
import { api } from "./api.js";
import { paths, routeParts } from "./config.js";
import { Connection, watchTable } from "./connection.js";
import * as store from "./store.js";
import { boardElement, centerElement } from "./board.js";
import { cardElement, isWildCard } from "./cards.js";
import { describeEvents, stepState, turnEndReason } from "./events.js";
import { installKeys } from "./keys.js";
import { Log } from "./log.js";
import * as motion from "./motion.js";
import { HintPanel } from "./hint.js";
import { displayName } from "./names.js";
import { andList, turnPrompt, wildSlots } from "./prompt.js";
import * as sound from "./sound.js";
import { WinBar } from "./winbar.js";

const MAX_ANIMATED = 80;

const tableId = decodeURIComponent(routeParts()[1] || "");
const query = new URLSearchParams(location.search);
const watching = query.has("watch");

const app = {
  table: null,
  state: null, // the latest view from the server
  shown: null, // what is drawn (an intermediate state while a chain plays)
  focus: null,
  version: null,
  seats: new Set(), // seats the server accepted for our tokens
  entry: store.loadTable(tableId),
  busy: false,
  sent: false, // an action is on its way: wait for the answer
  queue: [],
  presets: {},
  error: null,
  online: false,
  gone: null, // {title, text}: the table cannot be shown
  reason: null, // why this player's last turn ended, while the others play
  roundShown: null, // {at, arrived}: when the round-over panel was shown, its frame came
  historyFrom: null, // the first move the log holds (from the server's history)
  asked: null, // the `before` of the history page asked for
  partyInfo: undefined, // the party of this table (asked for at the end of its match)
  revealed: null, // each seat's face-down cards, turned up when the round ended
};

const $ = (id) => document.getElementById(id);
const log = new Log($("log-list"), $("log-scroll"));
const winbar = new WinBar($("winbar"));
const hint = new HintPanel($("hint-button"), $("hint-panel"), {
  send: (message) => connection.send(message),
  onChange: () => markSuggestion(),
});
let warming = false; // the server's AI warms up after a start (its /healthz says so)
let chances = null; // the "chances" message the bar shows (or is to show)
/** "chances" messages for versions the board does not show yet (its events are still
 *  playing): the bar follows the board, never runs ahead of it. */
const heldChances = [];
let drawnChances = null; // what the bar shows: (version, names, own seat, language)

// -- rules of this table ---------------------------------------------------------------

function ruleField(name, fallback) {
  const rules = (app.table && app.table.rules) || {};
  if (rules[name] !== undefined && rules[name] !== null) return rules[name];
  const preset = app.presets[rules.preset || "standard"];
  if (preset && preset[name] !== undefined && preset[name] !== null) return preset[name];
  return fallback;
}

const wildRanks = () => ruleField("wild_ranks", ["J"]);
const startSize = () => ruleField("start_size", 10);

// -- seats ------------------------------------------------------------------------------

function tokenFor(seat) {
  const held = app.entry.seats.find((s) => s.seat === seat);
  return held ? held.token : null;
}

function tokens() {
  return watching ? [] : app.entry.seats.map((s) => s.token);
}

/** The display name of a seat, in the viewer's language for a computer's seat. */
function nameOf(seat, state = app.state) {
  const raw = state && state.players[seat] ? state.players[seat].name
    : app.table && app.table.seats[seat] ? app.table.seats[seat].name : null;
  return raw === null || raw === undefined ? t("seat.unknown", { seat: Number(seat) + 1 })
    : displayName(raw);
}

const hotSeat = () => app.seats.size > 1;
/** The seat spoken to as "you": the one seat this screen plays (none on a hot seat). */
const you = (seat) => app.seats.size === 1 && app.seats.has(seat);
const logContext = (state) => ({ name: (seat) => nameOf(seat, state), you });

/** The seat whose screen this is: its board is drawn largest. */
function homeSeat() {
  if (app.seats.size === 0) return null;
  if (hotSeat() && app.entry.shown !== null && app.seats.has(app.entry.shown)) {
    return app.entry.shown;
  }
  return Math.min(...app.seats);
}

/** A hot-seat turn waits behind a "pass to …" screen until the next player confirms. */
function passPending() {
  const state = app.state;
  if (!hotSeat() || !state || state.to_act === null) return false;
  return app.seats.has(state.to_act) && app.entry.shown !== state.to_act;
}

/** The seat this browser may act for now, or null. */
function actingSeat() {
  const state = app.state;
  if (!state || !app.online || app.busy || app.sent || state.to_act === null) return null;
  if (!app.seats.has(state.to_act) || passPending()) return null;
  return state.to_act;
}

// -- sending ------------------------------------------------------------------------------

let connection = null;

function act(action) {
  const seat = actingSeat();
  if (seat === null || !app.state.legal.includes(action)) return;
  const ok = connection.send({
    type: "act", token: tokenFor(seat), action, version: app.version,
  });
  if (ok) {
    app.sent = true;
    render();
  }
}

function sendNextRound() {
  for (const seat of app.seats) {
    connection.send({ type: "next_round", token: tokenFor(seat) });
  }
  app.readyClicked = true;
  render();
}

function sendRematch() {
  const seat = Math.min(...app.seats);
  connection.send({ type: "rematch", token: tokenFor(seat) });
}

async function joinTable(name, seat) {
  try {
    const answer = await api.join(tableId, name, seat);
    store.saveName(name);
    app.entry = store.addSeats(tableId, [{ seat: answer.seat, token: answer.token }]);
    store.updateTable(tableId, { created: Date.now() });
    connection.rejoin();
  } catch (error) {
    showError(error.body && error.body.error ? `error.${error.body.error}` : null,
      error.message);
  }
}

function askHistory(before) {
  if (before <= 0 || app.asked !== null) return;
  if (connection.send({ type: "history", before })) {
    app.asked = before;
    renderLogButton();
  }
}

// -- messages ---------------------------------------------------------------------------

let joinedHere = false; // this socket has joined (a join refused for its rate is retried)

function onMessage(msg) {
  switch (msg.type) {
    case "joined":
      joinedHere = true;
      // What this page may see changed with its seats (a spectator who took a seat at a
      // table without hints sees no chances): the server sends what it may see now.
      chances = null;
      heldChances.length = 0;
      drawnChances = null;
      winbar.clear();
      app.seats = new Set(msg.seats || []);
      app.table = msg.table || app.table;
      document.body.dataset.seats = [...app.seats].join(",");
      render();
      break;
    case "table":
      app.table = msg.table;
      render();
      break;
    case "state":
    case "events":
    case "history":
      msg.arrived = performance.now();
      app.queue.push(msg);
      drain();
      break;
    case "rematch":
      goToRematch(msg.table_id);
      break;
    case "chances":
      heldChances.push(msg);
      heldChances.sort((a, b) => a.version - b.version);
      renderAids();
      break;
    case "hint":
      hint.receive(msg);
      break;
    case "error":
      onError(msg);
      break;
    default:
      break;
  }
}

/** The codes an error answering a hint request may carry. */
const HINT_ERRORS = ["busy", "rate_limited", "hints_off", "not_your_turn", "stale_version"];

function onError(msg) {
  if (hint.waiting && !app.sent && joinedHere && HINT_ERRORS.includes(msg.code)) {
    hint.refused(msg.code);
    return;
  }
  app.sent = false;
  if (msg.code === "rate_limited" && !joinedHere) {
    // The join itself was refused for this address's rate: join again when allowed.
    const wait = Math.max(1, Number(msg.retry_after) || 5);
    showError(null, t("error.join_later", { seconds: Math.ceil(wait) }));
    setTimeout(() => connection.rejoin(), wait * 1000);
  } else if (msg.code === "storage_error") {
    showError("error.storage_error", msg.message);
  } else if (msg.code !== "stale_version") {
    showError(`error.${msg.code}`, msg.message);
  }
  render();
}

function goToRematch(newId) {
  if (!newId) return;
  if (app.entry.seats.length) {
    store.addSeats(newId, app.entry.seats);
    store.updateTable(newId, { created: Date.now() });
  }
  location.assign(paths.tablePage(newId));  // under the app's root (not the frame's url)
}

let draining = false;

async function drain() {
  if (draining) return;
  draining = true;
  try {
    while (app.queue.length) {
      await holdRoundOver(app.queue[0]);
      const msg = app.queue.shift();
      if (msg.type === "events") await playEvents(msg);
      else if (msg.type === "history") onHistory(msg);
      else setState(msg.state, msg.version, msg.arrived);
    }
  } finally {
    draining = false;
  }
}

/** The round-over panel stays up for the whole pause between rounds, counted from when
 *  this page showed it (the server counts from the end of the round, and the winning
 *  chain may take a while to play here): the next deal waits for the rest of the pause,
 *  unless it came early because everyone clicked "Next round", or this page did. */
async function holdRoundOver(next) {
  const shown = app.roundShown;
  if (!shown || !app.state || app.state.phase !== "round_over" || next.type === "history") {
    return;
  }
  const pause = 1000 * Number((app.table && app.table.round_pause) || 0);
  const now = performance.now();
  const early = next.arrived - shown.arrived < pause - 500; // everyone was ready
  const left = pause - (now - shown.at);
  if (early || app.readyClicked || left <= 0) return;
  await sleep(left);
}

function setState(state, version, arrived = performance.now()) {
  const wasMine = app.state && actingSeat() !== null;
  const ended = state && state.phase === "round_over"
    && !(app.state && app.state.phase === "round_over" && app.version === version);
  if (ended) app.roundShown = { at: performance.now(), arrived };
  else if (!state || state.phase !== "round_over") app.roundShown = null;
  if (!isOver(state)) app.revealed = null;
  app.state = state;
  app.shown = state;
  app.focus = null;
  app.version = version;
  app.sent = false;
  if (state && state.phase !== "round_over") app.readyClicked = false;
  if (state && (state.to_act === null || app.seats.has(state.to_act))) app.reason = null;
  if (!hotSeat() && app.seats.size === 1) app.entry.shown = Math.min(...app.seats);
  store.updateTable(tableId, { version, shown: app.entry.shown });
  render();
  if (!wasMine && actingSeat() !== null) sound.play("turn");
}

/** A page of the log from the server: the whole current round after a fresh state, or
 *  an older page asked for. */
function onHistory(msg) {
  if (isOver(app.state)) noteRevealed(msg.events || []);  // a page opened after the round
  const lines = describeEvents(msg.events || [], logContext(app.state));
  if (app.asked !== null && msg.version === app.asked) log.prepend(lines);
  else log.replace(lines);
  app.asked = null;
  app.historyFrom = msg.from_version;
  app.roundFrom = msg.round_from;
  if (msg.from_version > msg.round_from) askHistory(msg.from_version); // finish the round
  renderLogButton();
}

const sleep = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });

/** Whether a view is between rounds or at the match's end. */
function isOver(state) {
  return Boolean(state) && ["round_over", "match_over"].includes(state.phase);
}

/** Keep the boards the end of a round turned up (its last round_won or its round_void
 *  carries them: docs/protocol.md, "events"), to show them until the next deal. */
function noteRevealed(events) {
  for (const event of events) if (event.revealed) app.revealed = event.revealed;
}

/** Remember why this player's turn ended on a discard, to say so while others play. */
function noteTurnEnd(events) {
  for (let i = 0; i < events.length; i += 1) {
    const event = events[i];
    if (event.type === "discarded" && app.seats.has(event.seat)) {
      const reason = turnEndReason(event);
      if (reason) app.reason = reason;
    }
    if (event.type === "turn_passed" && app.seats.has(event.seat)) app.reason = null;
  }
}

async function playEvents(msg) {
  const events = msg.events || [];
  const lines = describeEvents(events, logContext(msg.state || app.state));
  const animate = app.shown && app.version !== null && msg.from_version === app.version
    && motion.motionOn() && events.length <= MAX_ANIMATED;
  noteTurnEnd(events);
  if (!animate) {
    noteRevealed(events);
    log.append(lines);
    for (const event of events) {
      if (event.type === "round_won" || event.type === "match_won") sound.play("win");
    }
    setState(msg.state, msg.version, msg.arrived);
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
      noteRevealed([event]);
      render();
      while (told < lines.length && lines[told].first <= index) log.append([lines[told++]]);
      const noise = sound.soundOf(event);
      if (noise) sound.play(noise);
      if (event.type === "dealt") await motion.animateDeal(event, speed);
      else await motion.animateEvent(event, from, speed);
      await sleep(motion.pause(speed));
    }
  } finally {
    log.append(lines.slice(told));
    app.busy = false;
  }
  setState(msg.state, msg.version, msg.arrived);
}

let errorTimer = null;

/** Show an error for a few seconds (or until the page closes, if sticky). */
function showError(key, fallback, sticky = false) {
  const translated = key ? t(key) : null;
  app.error = translated && translated !== key ? translated : (fallback || t("error.generic"));
  clearTimeout(errorTimer);
  if (!sticky) errorTimer = setTimeout(() => { app.error = null; renderError(); }, 6000);
  renderError();
}

function renderError() {
  const box = $("error");
  box.textContent = app.error || "";
  box.hidden = !app.error || Boolean(app.gone);
}

// -- drawing ---------------------------------------------------------------------------------

function promptText() {
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
    return t("prompt.match_over", { name: nameOf(state.match_winner) });
  }
  if (state.phase === "round_over") {
    return t("prompt.round_over", { names: listNames(state.round_winners) });
  }
  if (state.to_act === null) return t("prompt.dealing");
  const name = nameOf(state.to_act);
  if (passPending()) return t("prompt.pass", { name });
  const seat = actingSeat();
  if (seat === null) {
    if (!app.online && app.seats.has(state.to_act)) return t("conn.offline");
    if (app.sent) return t("prompt.sent");
    const turn = app.busy ? t("prompt.playing", { name }) : t("prompt.other_turn", { name });
    return app.reason ? t("prompt.with_reason", { why: app.reason, turn }) : turn;
  }
  return turnPrompt(state, name, hotSeat());
}

function listNames(seats) {
  return andList((seats || []).map((s) => nameOf(s)));
}

function render() {
  document.body.dataset.version = app.version === null ? "" : String(app.version);
  document.body.dataset.phase = app.state ? app.state.phase : (app.table ? app.table.status : "");
  document.body.dataset.busy = app.busy || app.sent ? "1" : "0";
  const acting = actingSeat();
  document.body.dataset.acting = acting === null ? "" : String(acting);
  document.body.dataset.pass = passPending() ? "1" : "0";
  document.body.dataset.gone = app.gone ? "1" : "0";
  if (app.gone) {
    renderGone();
    return;
  }
  const prompt = promptText();
  if ($("prompt").textContent !== prompt) $("prompt").textContent = prompt;
  $("conn").textContent = app.online ? t("conn.online")
    : (app.status === "crowded" ? t("conn.crowded_short") : t("conn.offline"));
  $("conn").dataset.online = app.online ? "1" : "0";
  renderInfo();
  renderNotes();
  renderError();
  renderWaiting();
  renderBoards(acting);
  renderResult();
  renderPass();
  renderTopbar();
  renderAids();
  markSuggestion();
  motion.keepHidden();
}

/** The win-chance bar (whatever `chances` the server sent) and the Hint button (where
 *  the table allows hints, on this screen's own decision). */
function renderAids() {
  const acting = actingSeat();
  const allowed = Boolean(app.table && app.table.hints) && acting !== null;
  hint.update({ allowed, token: acting === null ? null : tokenFor(acting),
                version: app.version });
  while (heldChances.length && app.version !== null && heldChances[0].version <= app.version) {
    const next = heldChances.shift();
    if (!chances || next.version >= chances.version) chances = next;
  }
  if (chances) {
    const players = (app.state && app.state.players) || (app.table && app.table.seats) || [];
    const names = players.map((_, seat) => nameOf(seat));
    const mine = app.seats.size === 1 ? homeSeat() : null;
    const key = JSON.stringify([chances.version, names, mine, currentLanguage()]);
    if (key !== drawnChances) winbar.update(chances, names, mine);
    drawnChances = key;
  }
  // A spectator is told plainly that the bar is live, and whether the players see it.
  const spectator = watching || (app.state && app.seats.size === 0);
  const note = $("aids-note");
  note.hidden = !spectator || winbar.root.hidden;
  note.textContent = app.table && app.table.hints ? t("winbar.watching")
    : t("winbar.watching_secret");
  document.body.dataset.hint = allowed ? "1" : "0";
  $("aids").hidden = app.gone !== null || (winbar.root.hidden && $("hint-button").hidden);
}

function renderGone() {
  for (const id of ["status", "game", "waiting", "log", "aids"]) $(id).hidden = true;
  $("gone").hidden = false;
  $("gone-title").textContent = app.gone.title;
  $("gone-text").textContent = app.gone.text;
  renderTopbar();
}

function renderTopbar() {
  const party = app.table && app.table.party;
  $("party-link").hidden = !party;
  if (party) $("party-link").href = paths.partyPage(party);
  $("download").hidden = Boolean(app.gone);
  $("watch-open").hidden = Boolean(app.gone);
}

function renderInfo() {
  const state = app.shown;
  const facts = [];
  if (app.table && app.table.summary) facts.push(presetTitle());
  if (state && state.round) facts.push(t("info.round", { round: state.round }));
  if (state && state.dealer !== null && state.dealer !== undefined && state.players[state.dealer]) {
    facts.push(t("info.dealer", { name: nameOf(state.dealer, state) }));
  }
  if (watching || (app.state && app.seats.size === 0)) facts.push(t("info.watching"));
  $("info").textContent = facts.join(" · ");
  renderRuleBadges();
}

/** The table's rules that change play, as badges: the wilds, the packs, the variants and
 *  the rounds the match is played to. */
function ruleBadges() {
  if (!app.table) return [];
  const badges = [];
  const wilds = [...wildRanks()];
  if (ruleField("jokers_per_deck", 0) > 0) wilds.push(t("rule.joker"));
  badges.push({ kind: "wild", text: t("rule.wild", { ranks: wilds.join(" ") }) });
  const decks = app.table.decks || 1;
  if (decks > 1) badges.push({ kind: "packs", text: t("rule.packs", { count: decks }) });
  if (ruleField("call_trash", false)) badges.push({ kind: "call", text: t("rule.call_trash") });
  if (ruleField("last_chance", false)) badges.push({ kind: "lap", text: t("rule.last_chance") });
  const rounds = ruleField("rounds_to_win", null) ?? startSize();
  badges.push({ kind: "rounds", text: t("rule.first_to", { count: rounds }) });
  return badges;
}

function renderRuleBadges() {
  const box = $("rule-badges");
  const badges = ruleBadges();
  const key = badges.map((b) => b.text).join("|");
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  box.replaceChildren(...badges.map((badge) => {
    const span = document.createElement("span");
    span.className = `rule-badge rule-${badge.kind}`;
    span.textContent = badge.text;
    return span;
  }));
}

function presetTitle() {
  const preset = (app.table.rules && app.table.rules.preset) || "standard";
  const key = `preset.${preset}.name`;
  const name = t(key);
  return name === key ? preset : name;
}

/** The seats still to play their one more turn of a last-chance lap, in turn order. */
function lapLeft(state) {
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
 *  last-chance lap and the round's winners so far. */
function notesFor(state) {
  const notes = [];
  if (!state || state.phase === "round_over" || state.phase === "match_over") return notes;
  for (const seat of state.unclaimed || []) {
    notes.push({ kind: "claim", text: you(seat) ? t("note.unclaimed_you")
      : t("note.unclaimed", { name: nameOf(seat, state) }) });
  }
  if (state.final_from !== null && state.final_from !== undefined) {
    const left = lapLeft(state).map((seat) => (you(seat) ? t("note.you") : nameOf(seat, state)));
    const text = you(state.final_from) ? t("note.last_chance_you", { left: andList(left) })
      : t("note.last_chance", { name: nameOf(state.final_from, state), left: andList(left) });
    notes.push({ kind: "lap", text });
    const winners = (state.round_winners || []).map((seat) => (you(seat) ? t("note.you")
      : nameOf(seat, state)));
    if (winners.length) notes.push({ kind: "won", text: t("note.winners", { names: andList(winners) }) });
  }
  return notes;
}

function renderNotes() {
  const notes = notesFor(app.shown);
  if (warming) notes.unshift({ kind: "warmup", text: t("note.warming_up") });
  const list = $("notes");
  list.hidden = notes.length === 0;
  list.replaceChildren(...notes.map((note) => {
    const item = document.createElement("li");
    item.className = `note note-${note.kind}`;
    item.textContent = note.text;
    return item;
  }));
}

function badgesFor(state, seat) {
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

function renderBoards(acting) {
  const state = app.shown;
  const main = $("game");
  main.hidden = !state || !state.players || !state.players.length
    || (!state.players[0].slots.length && state.phase === "chance");
  if (main.hidden) return;
  const home = homeSeat();
  const players = state.players.length;
  const big = home === null ? 0 : home;
  const others = [];
  for (let step = 1; step < players; step += 1) others.push((big + step) % players);
  const legal = acting === null ? new Set() : new Set(app.state.legal);
  const slots = new Set(wildSlots(legal));
  const boardCtx = (seat, isBig) => ({
    seat,
    player: state.players[seat],
    name: nameOf(seat, state),
    big: isBig,
    you: you(seat),
    toAct: state.to_act === seat,
    badges: badgesFor(state, seat),
    wildSlots: acting === seat ? slots : null,
    onSlot: (k) => act(`wild ${k}`),
    startSize: startSize(),
    focus: app.focus && typeof app.focus === "object" ? app.focus : null,
    revealed: app.revealed && isOver(state) ? app.revealed[seat] : null,
  });
  $("opponents").style.setProperty("--others", String(Math.max(others.length, 1)));
  $("opponents").dataset.count = String(others.length);
  $("opponents").replaceChildren(...others.map((seat) => boardElement(boardCtx(seat, false))));
  $("home").replaceChildren(boardElement(boardCtx(big, true)));
  const handOwner = state.to_act !== null && state.to_act !== undefined && !you(state.to_act)
    ? nameOf(state.to_act, state) : null;
  const over = app.state && ["round_over", "match_over"].includes(app.state.phase) && !app.busy;
  $("center").hidden = over;
  if (over) return;
  $("center").replaceChildren(centerElement({
    state,
    legal,
    act,
    showPile,
    wildRanks: wildRanks(),
    focus: typeof app.focus === "string" ? app.focus : null,
    handOwner,
  }));
}

/** Mark on the table the move the hint on show suggests: its pile, slot or button. */
function markSuggestion() {
  for (const node of document.querySelectorAll("#game .hint-pick")) {
    node.classList.remove("hint-pick");
  }
  const action = hint.suggestion(app.version);
  if (!action || actingSeat() === null) return;
  const [verb, slot] = action.split(" ");
  let target = null;
  if (verb === "stock" || verb === "discard") {
    target = $("center").querySelector(`.pile.${verb}`);
  } else if (verb === "wild") {
    target = $("home").querySelector(`.slot[data-slot="${Number(slot)}"]`);
  } else {
    target = $("center").querySelector(`.action-${verb}`);
  }
  if (target) target.classList.add("hint-pick");
}

function renderWaiting() {
  const panel = $("waiting");
  const table = app.table;
  const waiting = table && table.status === "waiting" && !app.state;
  panel.hidden = !waiting;
  if (!waiting) return;
  const list = $("waiting-seats");
  list.replaceChildren(...table.seats.map((seat) => {
    const item = document.createElement("li");
    item.textContent = seat.taken
      ? t("waiting.seat_taken", { seat: seat.seat + 1, name: displayName(seat.name) })
      : t("waiting.seat_open", { seat: seat.seat + 1 });
    return item;
  }));
  $("invite-link").value = new URL(paths.tablePage(tableId), location.href).href;
  $("watch-link").value = new URL(paths.watchPage(tableId), location.href).href;
  const canJoin = !watching && app.seats.size === 0 && (table.open || []).length > 0;
  $("join-form").hidden = !canJoin;
  if (canJoin && !$("join-name").value) $("join-name").value = store.savedName();
}

function renderResult() {
  const panel = $("result");
  const state = app.state;
  const over = state && (state.phase === "round_over" || state.phase === "match_over")
    && !app.busy;
  panel.hidden = !over;
  if (!over) return;
  const people = state.players;
  const matchOver = state.phase === "match_over";
  $("result-title").textContent = matchOver
    ? t("result.match_won", { name: nameOf(state.match_winner) })
    : t("result.round_won", { names: listNames(state.round_winners), round: state.round });
  const standings = $("standings");
  standings.hidden = !matchOver;
  if (matchOver) {
    const places = state.standings || people.map(() => 0);
    const order = people.map((p, seat) => ({ p, seat, place: places[seat] }))
      .sort((a, b) => a.place - b.place || a.seat - b.seat);
    const body = $("standings-body");
    body.replaceChildren(...order.map(({ p, seat, place }) => {
      const row = document.createElement("tr");
      const cells = [
        t("result.place", { place }), nameOf(seat),
        String(p.rounds_won),
        String(p.slots.filter((s) => !s.up).length),
      ];
      for (const [i, text] of cells.entries()) {
        const cell = document.createElement(i === 1 ? "th" : "td");
        if (i === 1) cell.scope = "row";
        cell.textContent = text;
        row.append(cell);
      }
      return row;
    }));
  } else {
    $("result-scores").textContent = people
      .map((p, seat) => t("result.score_line", { name: nameOf(seat), count: p.rounds_won }))
      .join(" · ");
  }
  $("result-scores").hidden = matchOver;
  const mine = app.seats.size > 0;
  const party = app.table && app.table.party;
  $("next-round").hidden = matchOver || !mine;
  const ready = (app.table && app.table.ready) || [];
  const allMineReady = [...app.seats].every((s) => ready.includes(s));
  $("next-round").disabled = Boolean(app.readyClicked || (mine && allMineReady));
  $("result-wait").hidden = matchOver || !(app.readyClicked || (mine && allMineReady));
  $("play-again").hidden = !matchOver || !mine || Boolean(party);
  $("review-link").hidden = !matchOver;
  $("review-link").href = paths.reviewPage(tableId);
  $("to-party").hidden = !matchOver || !party;
  if (party && matchOver) renderPartyLink(party);
}

/** The end of a party's table leads on: to the final (to play it, if this browser won
 *  here, else to watch it) once both tables are over, else back to the party page. Until
 *  the final exists, this page follows the party's other tables on their websockets (as
 *  a spectator, as the party page does) and asks for the party again when one changes:
 *  no polling. */
let partyAsked = null;
const partyFollowed = new Map(); // the other tables of the party, followed until the final
let partyChangedTimer = null;

function partyTableChanged() {
  clearTimeout(partyChangedTimer);
  // Changes that come together (a move's events, then the table) ask once.
  partyChangedTimer = setTimeout(() => { app.partyInfo = undefined; render(); }, 150);
}

function followParty(info) {
  const waiting = info && info.final_wanted && !info.final;
  if (!waiting) {
    for (const followed of partyFollowed.values()) followed.close();
    partyFollowed.clear();
    document.body.dataset.partyFollowing = "0";
    return;
  }
  for (const other of info.tables) {
    if (!other || other.table_id === tableId || partyFollowed.has(other.table_id)) continue;
    partyFollowed.set(other.table_id, watchTable(other.table_id, partyTableChanged));
  }
  document.body.dataset.partyFollowing = String(partyFollowed.size);
}

async function renderPartyLink(partyId) {
  const link = $("to-party");
  const info = app.partyInfo;
  const final = info && info.final ? info.final.table_id : null;
  if (final && final !== tableId) {
    const mine = watching ? [] : store.adoptFinalSeats(info);
    link.href = mine.length ? paths.tablePage(final) : paths.watchPage(final);
    link.textContent = mine.length ? t("party.play_final") : t("party.watch_final");
    link.dataset.final = final;
  } else {
    link.href = paths.partyPage(partyId);
    link.textContent = t("party.back");
    delete link.dataset.final;
  }
  if (info !== undefined || partyAsked) return;
  partyAsked = api.party(partyId).then((answer) => { app.partyInfo = answer; },
    () => { app.partyInfo = null; });
  await partyAsked;
  partyAsked = null;
  followParty(app.partyInfo);
  renderResult();
}

function renderPass() {
  const overlay = $("pass");
  const pending = passPending() && !app.busy;
  overlay.hidden = !pending;
  $("game").inert = pending;
  if (!pending) return;
  const name = nameOf(app.state.to_act);
  $("pass-title").textContent = t("pass.title", { name });
  $("pass-button").textContent = t("pass.button", { name });
  if (document.activeElement !== $("pass-button")) $("pass-button").focus();
}

function renderLogButton() {
  const button = $("log-earlier");
  button.hidden = !(app.historyFrom > 0);
  button.disabled = app.asked !== null;
}

function renderSound() {
  const on = sound.soundOn();
  const button = $("sound-button");
  button.setAttribute("aria-pressed", on ? "true" : "false");
  const label = on ? t("sound.on") : t("sound.off");
  button.setAttribute("aria-label", label);
  button.title = label;
  button.dataset.on = on ? "1" : "0";
}

function showPile() {
  const state = app.shown || app.state;
  if (!state) return;
  const list = $("pile-list");
  list.replaceChildren(...state.discard.slice().reverse().map((card) => {
    const item = document.createElement("li");
    item.append(cardElement(card, { wild: isWildCard(card, wildRanks()) }));
    return item;
  }));
  $("pile-count").textContent = t("pile.count", { count: state.discard.length });
  $("pile-dialog").showModal();
}

/** The table cannot be shown: one clear message and the way back to the lobby. */
async function tableGone() {
  connection?.close();
  let code = "no_table";
  try {
    await api.table(tableId);
  } catch (error) {
    code = (error.body && error.body.error) || code;
  }
  const key = code === "quarantined" ? "quarantined" : "no_table";
  app.gone = { title: t(`gone.${key}_title`), text: t(`gone.${key}_text`) };
  store.forgetTable(tableId);
  render();
}

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

// -- start -------------------------------------------------------------------------------------

function wireStaticControls() {
  $("help-button").addEventListener("click", () => $("help-dialog").showModal());
  for (const button of document.querySelectorAll("[data-close]")) {
    button.addEventListener("click", () => button.closest("dialog").close());
  }
  $("pass-button").addEventListener("click", () => {
    app.entry.shown = app.state.to_act;
    store.updateTable(tableId, { shown: app.entry.shown });
    render();
  });
  $("next-round").addEventListener("click", sendNextRound);
  $("play-again").addEventListener("click", sendRematch);
  $("join-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const name = $("join-name").value.trim();
    if (!name) {
      $("join-name").setAttribute("aria-invalid", "true");
      showError("join.need_name");
      $("join-name").focus();
      return;
    }
    joinTable(name);
  });
  $("join-name").addEventListener("input", () => $("join-name").removeAttribute("aria-invalid"));
  for (const button of document.querySelectorAll("[data-copy]")) {
    button.addEventListener("click", () => {
      copyLink($(button.dataset.copy).value, button, t("waiting.copied"));
    });
  }
  $("download").href = paths.record(tableId);
  // The name the server gives the file (its Content-Disposition), so both agree.
  $("download").setAttribute("download", paths.recordFile(tableId));
  const watch = $("watch-open");
  watch.href = paths.watchPage(tableId);
  watch.addEventListener("click", (event) => {
    event.preventDefault();
    copyLink(new URL(paths.watchPage(tableId), location.href).href, $("watch-text"),
      t("table.spectate_copied"));
  });
  $("sound-button").addEventListener("click", () => {
    sound.setSound(!sound.soundOn());
    renderSound();
    sound.play("place");
  });
  $("log-earlier").addEventListener("click", () => askHistory(app.historyFrom));
  installKeys({
    act: (action) => act(action),
    slot: (k) => act(`wild ${k}`),
    hint: () => { if (!$("hint-button").hidden) hint.ask(); },
    help: () => $("help-dialog").showModal(),
    pass: () => { if (passPending()) $("pass-button").click(); },
  });
}

async function loadPresets() {
  try {
    for (const preset of await api.presets()) {
      if (preset && preset.name) app.presets[preset.name] = preset.rules || {};
    }
    render();
  } catch { /* the defaults do */ }
}

/** While the server's AI warms up after a start (`/healthz` says `"ai": "warming_up"`),
 *  a note says that hints and win chances are coarser and the expert computer thinks
 *  less meanwhile (the server answers on its slower engine rather than wait). */
async function watchWarmUp() {
  for (;;) {
    let ai = null;
    try {
      const response = await fetch(paths.health, { cache: "no-store" });
      ai = (await response.json()).ai;
    } catch {
      ai = null; // no answer: say nothing
    }
    warming = ai === "warming_up";
    renderNotes();
    if (!warming) return;
    await new Promise((resolve) => { setTimeout(resolve, 2000); });
  }
}

function retitle() {
  document.title = t("table.page_title", { id: tableId });
  $("rules-link").href = paths.rulesPage(currentLanguage());
}

async function main() {
  await loadLanguage(detectLanguage());
  translatePage();
  mountLanguageSwitcher($("lang"));
  wireStaticControls();
  renderSound();
  onLanguageChange(() => {
    translatePage();
    retitle();
    renderSound();
    if (app.gone) tableGone();
    render();
  });
  if (!tableId) {
    tableGone();
    return;
  }
  retitle();
  loadPresets();
  let firstJoin = true;
  connection = new Connection(tableId, {
    tokens,
    // A fresh page asks for a whole state and the round's history; a reconnect asks
    // for what it missed.
    version: () => (firstJoin ? null : app.version),
    history: () => firstJoin,
    onMessage,
    onStatus: (status) => {
      app.status = status;
      if (status === "gone") {
        tableGone();
        return;
      }
      if (status === "slow" || status === "no_join") {
        showError(`conn.${status}`);
        return;
      }
      if (status === "connecting") joinedHere = false;
      if (status === "online") firstJoin = false;
      app.online = status === "online";
      render();
    },
  });
  connection.open();
  render();
  watchWarmUp();
}

main();
