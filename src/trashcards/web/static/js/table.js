// The table page: joins the table's websocket with this browser's seat tokens, draws the
// view it is sent, animates each chain step of an `events` message in order, and sends
// the player's decisions (clicks or keys). The server decides everything; the client
// only offers what the view's `legal` list allows.

import {
  detectLanguage, loadLanguage, mountLanguageSwitcher, onLanguageChange, t, translatePage,
} from "./i18n.js";
import { api } from "./api.js";
import { paths } from "./config.js";
import { Connection } from "./connection.js";
import * as store from "./store.js";
import { boardElement, centerElement } from "./board.js";
import { cardElement, isWildCard } from "./cards.js";
import { describeEvent, stepState } from "./events.js";
import { installKeys } from "./keys.js";

const STEP_MS = 420;
const QUIET_STEP_MS = 160;
const MAX_ANIMATED = 80;
const LOG_LINES = 60;

const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
const query = new URLSearchParams(location.search);
const watching = query.has("watch");
const reducedMotion = matchMedia("(prefers-reduced-motion: reduce)");

const app = {
  table: null,
  state: null, // the latest view from the server
  shown: null, // what is drawn (an intermediate state while animating)
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
};

const $ = (id) => document.getElementById(id);

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

function names() {
  if (app.state) return app.state.players.map((p) => p.name);
  if (app.table) return app.table.seats.map((s) => s.name);
  return [];
}

const hotSeat = () => app.seats.size > 1;

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

// -- messages ---------------------------------------------------------------------------

function onMessage(msg) {
  switch (msg.type) {
    case "joined":
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
      app.queue.push(msg);
      drain();
      break;
    case "rematch":
      goToRematch(msg.table_id, msg.url);
      break;
    case "error":
      app.sent = false;
      if (msg.code !== "stale_version") showError(`error.${msg.code}`, msg.message);
      render();
      break;
    default:
      break;
  }
}

function goToRematch(newId, url) {
  if (!newId) return;
  if (app.entry.seats.length) {
    store.addSeats(newId, app.entry.seats);
    store.updateTable(newId, { created: Date.now() });
  }
  location.assign(url || paths.tablePage(newId));
}

let draining = false;

async function drain() {
  if (draining) return;
  draining = true;
  try {
    while (app.queue.length) {
      const msg = app.queue.shift();
      if (msg.type === "events") await playEvents(msg);
      else setState(msg.state, msg.version);
    }
  } finally {
    draining = false;
  }
}

function setState(state, version) {
  app.state = state;
  app.shown = state;
  app.focus = null;
  app.version = version;
  app.sent = false;
  if (state && state.phase !== "round_over") app.readyClicked = false;
  if (!hotSeat() && app.seats.size === 1) app.entry.shown = Math.min(...app.seats);
  store.updateTable(tableId, { version, shown: app.entry.shown });
  render();
}

const sleep = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });

async function playEvents(msg) {
  const events = msg.events || [];
  const names = (msg.state || app.state || { players: [] }).players.map((p) => p.name);
  const animate = app.shown && app.version !== null && msg.from_version === app.version
    && !reducedMotion.matches && events.length <= MAX_ANIMATED;
  const told = events.length > MAX_ANIMATED ? events.slice(-MAX_ANIMATED) : events;
  if (!animate) {
    for (const event of told) announce(describeEvent(event, names, app.seats));
    setState(msg.state, msg.version);
    return;
  }
  app.busy = true;
  try {
    for (const event of events) {
      const { state, focus } = stepState(app.shown, event);
      app.shown = state;
      app.focus = focus;
      announce(describeEvent(event, names, app.seats));
      render();
      await sleep(focus ? STEP_MS : QUIET_STEP_MS);
    }
  } finally {
    app.busy = false;
  }
  setState(msg.state, msg.version);
}

// -- live region --------------------------------------------------------------------------

function announce(text) {
  if (!text) return;
  const log = $("log-list");
  const item = document.createElement("li");
  item.textContent = text;
  log.append(item);
  while (log.children.length > LOG_LINES) log.firstElementChild.remove();
  const box = $("log");
  box.scrollTop = box.scrollHeight;
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
  box.hidden = !app.error;
}

// -- drawing ---------------------------------------------------------------------------------

function promptText() {
  const state = app.state;
  const table = app.table;
  if (!state) {
    if (table && table.status === "waiting") return t("prompt.waiting");
    return app.online ? t("prompt.loading") : t("prompt.connecting");
  }
  const players = state.players;
  if (state.phase === "match_over") {
    return t("prompt.match_over", { name: players[state.match_winner]?.name ?? "" });
  }
  if (state.phase === "round_over") {
    return t("prompt.round_over", { names: listNames(state.round_winners) });
  }
  if (state.to_act === null) return t("prompt.dealing");
  const name = players[state.to_act].name;
  if (passPending()) return t("prompt.pass", { name });
  const seat = actingSeat();
  if (seat === null) {
    if (!app.online && app.seats.has(state.to_act)) return t("conn.offline");
    if (app.busy) return t("prompt.playing", { name });
    if (app.sent) return t("prompt.sent");
    return t("prompt.other_turn", { name });
  }
  const hot = hotSeat();
  const legal = new Set(state.legal);
  if (state.phase === "draw") {
    const key = legal.has("discard") ? "prompt.draw_or_discard" : "prompt.draw";
    return t(hot ? `${key}_named` : key, { name });
  }
  if (state.phase === "wild") return t("prompt.wild", { name });
  if (state.phase === "swap") return t("prompt.swap", { name });
  return t("prompt.other_turn", { name });
}

function listNames(seats) {
  const people = names();
  const list = (seats || []).map((s) => people[s] ?? "");
  try {
    return new Intl.ListFormat(document.documentElement.lang, { type: "conjunction" })
      .format(list);
  } catch {
    return list.join(", ");
  }
}

function render() {
  document.body.dataset.version = app.version === null ? "" : String(app.version);
  document.body.dataset.phase = app.state ? app.state.phase : (app.table ? app.table.status : "");
  document.body.dataset.busy = app.busy || app.sent ? "1" : "0";
  const acting = actingSeat();
  document.body.dataset.acting = acting === null ? "" : String(acting);
  document.body.dataset.pass = passPending() ? "1" : "0";

  const prompt = promptText();
  if ($("prompt").textContent !== prompt) $("prompt").textContent = prompt;
  $("conn").textContent = app.online ? t("conn.online") : t("conn.offline");
  $("conn").dataset.online = app.online ? "1" : "0";
  renderInfo();
  renderError();
  renderWaiting();
  renderBoards(acting);
  renderResult();
  renderPass();
}

function renderInfo() {
  const state = app.shown;
  const facts = [];
  if (app.table && app.table.summary) facts.push(presetTitle());
  if (state && state.round) facts.push(t("info.round", { round: state.round }));
  if (state && state.dealer !== null && state.dealer !== undefined && state.players[state.dealer]) {
    facts.push(t("info.dealer", { name: state.players[state.dealer].name }));
  }
  if (watching || (app.state && app.seats.size === 0)) facts.push(t("info.watching"));
  $("info").textContent = facts.join(" · ");
}

function presetTitle() {
  const preset = (app.table.rules && app.table.rules.preset) || "standard";
  const key = `preset.${preset}.name`;
  const name = t(key);
  return name === key ? preset : name;
}

function renderBoards(acting) {
  const state = app.shown;
  const main = $("game");
  main.hidden = !state || !state.players || !state.players.length
    || !state.players[0].slots.length && state.phase === "chance";
  if (main.hidden) return;
  const home = homeSeat();
  const seatsInOrder = state.players.map((_, i) => i);
  const big = home === null ? 0 : home;
  const others = [];
  for (let step = 1; step < seatsInOrder.length; step += 1) {
    others.push((big + step) % seatsInOrder.length);
  }
  const legal = acting === null ? new Set() : new Set(app.state.legal);
  const wildSlots = new Set();
  for (const action of legal) {
    const match = /^wild (\d+)$/.exec(action);
    if (match) wildSlots.add(Number(match[1]));
  }
  const winners = new Set(state.round_winners || []);
  const boardCtx = (seat, isBig) => ({
    seat,
    player: state.players[seat],
    big: isBig,
    you: app.seats.has(seat) && !hotSeat(),
    toAct: state.to_act === seat,
    winner: state.match_winner === seat ? t("board.match_winner")
      : (winners.has(seat) ? t("board.round_winner") : null),
    wildSlots: acting === seat ? wildSlots : null,
    onSlot: (k) => act(`wild ${k}`),
    startSize: startSize(),
    focus: app.focus && typeof app.focus === "object" ? app.focus : null,
  });
  $("opponents").replaceChildren(...others.map((seat) => boardElement(boardCtx(seat, false))));
  $("home").replaceChildren(boardElement(boardCtx(big, true)));
  const handOwner = state.to_act !== null && state.to_act !== undefined
    && !(app.seats.has(state.to_act) && !hotSeat())
    ? state.players[state.to_act].name : null;
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
      ? t("waiting.seat_taken", { seat: seat.seat + 1, name: seat.name })
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
    ? t("result.match_won", { name: people[state.match_winner]?.name ?? "" })
    : t("result.round_won", { names: listNames(state.round_winners), round: state.round });
  const standings = $("standings");
  standings.hidden = !matchOver;
  if (matchOver) {
    const places = state.standings || people.map(() => 0);
    const order = people.map((p, seat) => ({ p, seat, place: places[seat] }))
      .sort((a, b) => a.place - b.place || a.seat - b.seat);
    const body = $("standings-body");
    body.replaceChildren(...order.map(({ p, place }) => {
      const row = document.createElement("tr");
      const cells = [
        t("result.place", { place }), p.name,
        t("board.rounds_won", { count: p.rounds_won }),
        t("result.face_down", { count: p.slots.filter((s) => !s.up).length }),
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
      .map((p) => t("result.score_line", { name: p.name, count: p.rounds_won }))
      .join(" · ");
  }
  $("result-scores").hidden = matchOver;
  const mine = app.seats.size > 0;
  $("next-round").hidden = matchOver || !mine;
  const ready = (app.table && app.table.ready) || [];
  const allMineReady = [...app.seats].every((s) => ready.includes(s));
  $("next-round").disabled = Boolean(app.readyClicked || (mine && allMineReady));
  $("result-wait").hidden = matchOver || !(app.readyClicked || (mine && allMineReady));
  $("play-again").hidden = !matchOver || !mine;
}

function renderPass() {
  const overlay = $("pass");
  const pending = passPending() && !app.busy;
  overlay.hidden = !pending;
  $("game").inert = pending;
  if (!pending) return;
  const name = app.state.players[app.state.to_act].name;
  $("pass-title").textContent = t("pass.title", { name });
  $("pass-button").textContent = t("pass.button", { name });
  if (document.activeElement !== $("pass-button")) $("pass-button").focus();
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
    if (name) joinTable(name);
  });
  for (const button of document.querySelectorAll("[data-copy]")) {
    button.addEventListener("click", async () => {
      const input = $(button.dataset.copy);
      try {
        await navigator.clipboard.writeText(input.value);
      } catch {
        input.select();
      }
      button.textContent = t("waiting.copied");
      setTimeout(() => { button.textContent = t("waiting.copy"); }, 2000);
    });
  }
  $("download").href = paths.record(tableId);
  $("download").setAttribute("download", `${tableId}.trash.json`);
  $("watch-open").href = paths.watchPage(tableId);
  installKeys({
    act: (action) => act(action),
    slot: (k) => act(`wild ${k}`),
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

async function main() {
  await loadLanguage(detectLanguage());
  translatePage();
  mountLanguageSwitcher($("lang"));
  onLanguageChange(() => { translatePage(); render(); });
  wireStaticControls();
  if (!tableId) {
    showError("error.no_table", null, true);
    return;
  }
  document.title = t("table.page_title", { id: tableId });
  onLanguageChange(() => { document.title = t("table.page_title", { id: tableId }); });
  loadPresets();
  let firstJoin = true;
  connection = new Connection(tableId, {
    tokens,
    // A fresh page asks for a whole state; a reconnect asks for what it missed.
    version: () => (firstJoin ? null : app.version),
    onMessage,
    onStatus: (status) => {
      if (status === "gone") showError("error.no_table", null, true);
      if (status === "online") firstJoin = false;
      app.online = status === "online";
      render();
    },
  });
  connection.open();
  render();
}

main();
