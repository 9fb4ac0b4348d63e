// @ts-check
// The lobby: create a table (preset, variants, 2–4 seats) or a party (5–8 seats at two
// tables), list open tables to join, the tables and parties this browser already sits
// at (with their game, players and whose turn it is), and join by link.

import {
  currentLanguage, detectLanguage, loadLanguage, mountLanguageSwitcher, onLanguageChange, t,
  translatePage,
} from "./i18n.js";
import { api } from "./api.js";
import { createLocalTable, LOCAL_LEVELS } from "./local/tables.js";
import { paths } from "./config.js";
import * as store from "./store.js";
import { displayName, nameProblem } from "./names.js";
import { DEFAULTS, FLAGS, PRESETS, RANGES } from "./spec.js";
import { buttonById, byId, inputById, linkById, selectById } from "./dom.js";
import { offerDue, setLearnState, startGuidedGame } from "./learn.js";

const $ = byId;
/** A form control of a seat row (an input or a select: its value is what is read).
 *  @param {ParentNode} row @param {string} selector @returns {HTMLInputElement} */
const control = (row, selector) => /** @type {HTMLInputElement} */ (row.querySelector(selector));
/** The seat rows of the form. @returns {HTMLElement[]} */
const seatRows = () => /** @type {HTMLElement[]} */ ([...$("seat-rows").children]);
const MIN_SEATS = 2;
const TABLE_SEATS = 4; // more seats make a party at two tables (RULES.md §2)
const MAX_SEATS = 8;
const REFRESH_MS = 5000;

/** Presets offered, in this order (the server's /api/presets supplies their fields). */
const OFFERED = ["standard", "classic", "kids", "kings-wild", "all-faces-wild", "jokers",
  "call-trash", "last-chance"];
/** The ladder of computer levels, easiest first, with their measured Elo (filled from
 *  GET /api/levels; the bot plays the level). */
let levels = [{ name: "beginner", bot: "sometimes" }, { name: "casual", bot: "kid" },
              { name: "good", bot: "greedy" }, { name: "expert", bot: "expert" }];

/** Each rules field of a preset (js/spec.js, generated from trashcards.rules). */
function fieldsOf(preset) {
  return { ...DEFAULTS, ...(PRESETS[preset] || {}) };
}

/** The checkbox of a house rule (FLAGS): `call_trash` → #call-trash. */
const flagId = (flag) => flag.replaceAll("_", "-");

/** A checkbox for each house rule, with its label and help (`create.<flag>`,
 *  `create.<flag>_help` in the catalogs): a new flag needs no markup. */
function fillFlags() {
  $("flags").replaceChildren(...Object.keys(FLAGS).map((flag) => {
    const box = document.createElement("div");
    box.className = "check";
    const input = document.createElement("input");
    input.type = "checkbox";
    input.id = flagId(flag);
    input.setAttribute("aria-describedby", `${flagId(flag)}-help`);
    const label = document.createElement("label");
    label.htmlFor = input.id;
    label.dataset.i18n = `create.${flag}`;
    label.textContent = t(`create.${flag}`);
    const help = document.createElement("p");
    help.id = `${flagId(flag)}-help`;
    help.className = "help";
    help.dataset.i18n = `create.${flag}_help`;
    help.textContent = t(`create.${flag}_help`);
    box.append(input, label, help);
    return box;
  }));
}

// -- rules ----------------------------------------------------------------------------

function fillPresets() {
  const select = selectById("preset");
  const chosen = select.value || "standard";
  select.replaceChildren(...OFFERED.filter((name) => PRESETS[name]).map((name) => {
    const option = document.createElement("option");
    option.value = name;
    option.textContent = t(`preset.${name}.name`);
    return option;
  }));
  select.value = chosen;
  $("preset-help").textContent = t(`preset.${select.value}.help`);
}

function fillNumbers(select, from, to, format) {
  const keep = select.value;
  select.replaceChildren();
  for (let n = from; n <= to; n += 1) {
    const option = document.createElement("option");
    option.value = String(n);
    option.textContent = format(n);
    select.append(option);
  }
  if (keep && Number(keep) >= from && Number(keep) <= to) select.value = keep;
}

function fillSizes() {
  const sizes = RANGES.start_size;
  fillNumbers(selectById("start-size"), sizes.min, sizes.max, (n) => t("create.size_option", { count: n }));
  const size = Number(selectById("start-size").value);
  fillNumbers(selectById("rounds"), 1, size, (n) => (n === size
    ? t("create.rounds_full", { count: n }) : t("create.rounds_option", { count: n })));
}

function applyPreset(name) {
  const rules = fieldsOf(name);
  const wild = [...rules.wild_ranks].sort().join("");
  selectById("wilds").value = ["J", "K", "JKQ"].includes(wild) ? (wild === "JKQ" ? "JQK" : wild) : "J";
  inputById("jokers").checked = rules.jokers_per_deck > 0;
  for (const flag of Object.keys(FLAGS)) inputById(flagId(flag)).checked = rules[flag];
  selectById("start-size").value = String(rules.start_size);
  fillSizes();
  selectById("rounds").value = String(rules.rounds_to_win ?? rules.start_size);
  $("preset-help").textContent = t(`preset.${name}.help`);
}

function chosenRules() {
  const preset = selectById("preset").value || "standard";
  const size = Number(selectById("start-size").value) || 10;
  const rounds = Number(selectById("rounds").value) || size;
  const rules = {
    preset,
    wild_ranks: selectById("wilds").value.split(""),
    jokers_per_deck: inputById("jokers").checked ? 2 : 0,
    start_size: size,
    rounds_to_win: rounds,
  };
  for (const flag of Object.keys(FLAGS)) rules[flag] = inputById(flagId(flag)).checked;
  return rules;
}

// -- seats ----------------------------------------------------------------------------

function addSeatRow(kind = "bot", bot = "greedy") {
  const rows = $("seat-rows");
  if (rows.children.length >= MAX_SEATS) return;
  const template = /** @type {HTMLTemplateElement} */ ($("seat-row"));
  const row = /** @type {HTMLElement} */ (template.content.firstElementChild.cloneNode(true));
  control(row, ".seat-kind").value = kind;
  rows.append(row);
  translatePage(row);
  fillBotSelect(control(row, ".seat-bot"), bot);
  control(row, ".seat-kind").addEventListener("change", () => updateSeatRows());
  control(row, ".seat-bot").addEventListener("change",
    (event) => renderBotNote(event.target));
  updateSeatRows();
}

function fillBotSelect(select, chosen) {
  const keep = select.value || chosen;
  select.replaceChildren(...levels.map((level) => {
    const option = document.createElement("option");
    option.value = level.bot;
    const name = t(`level.${level.name}`);
    // The seat's kind already says "Computer": the level and its Elo, short enough
    // for the select; a level no stronger than the one below says so under the row.
    option.textContent = level.elo == null ? name
      : t("level.option", { level: name, elo: level.elo });
    option.dataset.same = level.apart_from_below === false ? "1" : "";
    return option;
  }));
  if (levels.some((level) => level.bot === keep)) select.value = keep;
  markServerLevels(select);
  renderBotNote(select);
}

/** Under a computer seat: a note when its level is not measurably stronger than the
 *  level below. */
function renderBotNote(select) {
  const row = select.closest(".seat-row");
  if (!row) return;
  const note = row.querySelector(".seat-bot-note");
  const option = select.selectedOptions[0];
  const same = row.dataset.kind === "bot" && option && option.dataset.same === "1";
  note.hidden = !same;
  note.textContent = same ? t("level.same_note") : "";
}

function updateSeatRows() {
  const rows = seatRows();
  rows.forEach((row, i) => {
    const n = i + 1;
    row.querySelector(".seat-number").textContent = t("create.seat_number", { n });
    row.querySelector(".seat-kind-text").textContent = t("create.seat_kind", { n });
    row.querySelector(".seat-bot-text").textContent = t("create.seat_bot", { n });
    row.querySelector(".seat-name-text").textContent = t("create.seat_name", { n });
    const kind = control(row, ".seat-kind").value;
    row.dataset.kind = kind;
    control(row, ".seat-bot-label").hidden = kind !== "bot";
    renderBotNote(control(row, ".seat-bot"));
    const nameInput = control(row, ".seat-name");
    control(row, ".seat-name-label").hidden = kind !== "hotseat";
    nameInput.placeholder = t("create.seat_name_placeholder", { n });
    // "Me" can be one seat only: the others lose the option while it is taken.
    const meElsewhere = rows.some((other) => other !== row
      && control(other, ".seat-kind").value === "me");
    control(row, '.seat-kind option[value="me"]').disabled = meElsewhere;
  });
  // With no server, a friend's seat by link cannot work: the option goes, with its reason.
  for (const row of rows) {
    const open = control(row, '.seat-kind option[value="open"]');
    open.disabled = !serverAnswers;
    if (!serverAnswers && control(row, ".seat-kind").value === "open") {
      control(row, ".seat-kind").value = "bot";
      row.dataset.kind = "bot";
      control(row, ".seat-bot-label").hidden = false;
    }
  }
  buttonById("add-seat").disabled = rows.length >= MAX_SEATS;
  buttonById("remove-seat").disabled = rows.length <= MIN_SEATS;
  const party = rows.length > TABLE_SEATS;
  $("party-box").hidden = !party;
  if (party) {
    const [first, second] = partySplit(rows.length);
    $("party-note").textContent = t("create.party_note", { count: rows.length, first, second });
  }
  $("create-submit").textContent = t(party ? "create.submit_party" : "create.submit");
  // Hints: on against the computer or on one device, off once a friend joins by link
  // (the server's default), until the creator chooses.
  if (inputById("table-hints").dataset.chosen !== "1") {
    inputById("table-hints").checked = !rows.some((row) => control(row, ".seat-kind").value === "open");
  }
}

/** The sizes of a party's two tables (the server's split: 5 → 3 + 2, 8 → 4 + 4). */
function partySplit(seats) { return [Math.ceil(seats / 2), Math.floor(seats / 2)]; }

/** A refusal of the server in the reader's language (its `error` code), else its words. */
function errorText(error) {
  const code = error && error.body && error.body.error;
  const text = code ? t(`error.${code}`) : null;
  return text && text !== `error.${code}` ? text : (error && error.message) || t("error.generic");
}

/** Why these seats' names cannot be used, in words, or null. */
function seatNamesProblem(seats) {
  const names = seats.filter((s) => s.name !== undefined).map((s) => s.name);
  for (const name of names) {
    const problem = nameProblem(name);
    if (problem) return t(problem);
  }
  const folded = names.map((name) => name.trim().toLowerCase());
  return new Set(folded).size === folded.length ? null : t("name.taken");
}

function chosenSeats() {
  const myName = inputById("my-name").value.trim();
  return seatRows().map((row, i) => {
    const kind = control(row, ".seat-kind").value;
    if (kind === "me") return { kind, name: myName || t("create.default_name", { n: i + 1 }) };
    if (kind === "bot") return { kind, bot: control(row, ".seat-bot").value };
    if (kind === "hotseat") {
      return { kind, name: control(row, ".seat-name").value.trim()
        || t("create.default_name", { n: i + 1 }) };
    }
    return { kind };
  });
}

async function createTable(event) {
  event.preventDefault();
  const errorBox = $("create-error");
  errorBox.hidden = true;
  const name = inputById("my-name").value.trim();
  const seats = chosenSeats();
  const refuse = (text) => {
    errorBox.textContent = text;
    errorBox.hidden = false;
  };
  if (!seats.some((s) => s.kind === "me" || s.kind === "hotseat")) {
    refuse(t("create.need_person"));
    return;
  }
  const problem = seatNamesProblem(seats);
  if (problem) {
    refuse(problem);
    return;
  }
  if (name) store.saveName(name);
  if (inputById("on-device").checked) {
    createOnDevice(seats, refuse);
    return;
  }
  try {
    if (seats.length > TABLE_SEATS) {
      const answer = await api.createParty(chosenRules(), seats, inputById("party-final").checked,
        inputById("table-hints").checked, inputById("table-reactions").checked);
      const byTable = new Map();
      for (const seat of answer.seats || []) {
        if (!byTable.has(seat.table_id)) byTable.set(seat.table_id, []);
        byTable.get(seat.table_id).push(seat);
      }
      for (const [id, held] of byTable) {
        store.addSeats(id, held);
        store.updateTable(id, { created: Date.now() });
      }
      store.rememberParty(answer.party_id);
      location.assign(paths.partyPage(answer.party_id));
      return;
    }
    const answer = await api.createTable(chosenRules(), seats, inputById("table-hints").checked,
      inputById("table-reactions").checked);
    store.addSeats(answer.table_id, answer.seats || []);
    store.updateTable(answer.table_id, { created: Date.now() });
    location.assign(paths.tablePage(answer.table_id));
  } catch (error) {
    refuse(t("create.failed", { reason: errorText(error) }));
  }
}

// -- on this device (docs/offline.md) -------------------------------------------------

/** Whether a trashcards server answers at this address. A static copy of the app with
 *  no server (`trashcards build-static` on any static host), or a page with no network,
 *  has none: then the lobby offers only what works there, tables on this device, and
 *  says why the rest is missing, instead of failing on "Create the table". */
let serverAnswers = true;

/** @returns {Promise<boolean>} */
async function probeServer() {
  try {
    const response = await fetch(paths.health, { cache: "no-store" });
    if (!response.ok) return false;
    const body = await response.json();
    return Boolean(body) && typeof body === "object" && "ok" in body && "ai" in body;
  } catch {
    return false;
  }
}

/** @param {boolean} answers */
function applyServer(answers) {
  serverAnswers = answers;
  document.body.dataset.server = answers ? "1" : "0";
  const onDevice = inputById("on-device");
  if (!answers) onDevice.checked = true;
  onDevice.disabled = !answers;
  $("no-server").hidden = answers;
  for (const select of document.querySelectorAll("select.seat-bot")) {
    markServerLevels(/** @type {HTMLSelectElement} */ (select));
  }
  updateSeatRows();
  refreshOpen();
}

/** With no server, the levels that play only there are offered disabled, saying so.
 *  @param {HTMLSelectElement} select */
function markServerLevels(select) {
  for (const option of select.options) {
    const local = LOCAL_LEVELS.includes(option.value);
    option.disabled = !serverAnswers && !local;
    if (!serverAnswers && !local && !option.dataset.serverOnly) {
      option.dataset.serverOnly = "1";
      option.textContent = t("offline.level_needs_server", { level: option.textContent });
    }
  }
  if (select.selectedOptions[0] && select.selectedOptions[0].disabled) select.value = "greedy";
}

async function createOnDevice(seats, refuse) {
  if (seats.some((s) => s.kind === "open") || seats.length > TABLE_SEATS) {
    refuse(t("offline.no_open"));
    return;
  }
  try {
    const answer = await createLocalTable(chosenRules(), seats, null, inputById("table-hints").checked);
    store.addSeats(answer.table_id, answer.seats);
    store.updateTable(answer.table_id, { created: Date.now() });
    location.assign(paths.tablePage(answer.table_id));
  } catch (error) {
    refuse(t("create.failed", { reason: error.message }));
  }
}

// -- the guided first game (js/learn.js) -----------------------------------------------

async function learn() {
  const box = $("learn-error");
  box.hidden = true;
  const typed = inputById("my-name").value.trim();
  const name = typed && !nameProblem(typed) ? typed : t("create.default_name", { n: 1 });
  try {
    await startGuidedGame(name);
  } catch (error) {
    box.textContent = t("learn.failed", { reason: String(error.message || error) });
    box.hidden = false;
  }
}

function wireLearning() {
  $("learn-offer").hidden = !offerDue();
  $("learn-line").hidden = offerDue();  // the offer says the same, with its buttons
  buttonById("learn-start").addEventListener("click", learn);
  buttonById("learn-offer-start").addEventListener("click", learn);
  buttonById("learn-offer-skip").addEventListener("click", () => {
    setLearnState("skipped");
    $("learn-offer").hidden = true;
    $("learn-line").hidden = false;
    buttonById("learn-start").focus();
  });
}

// -- lists ----------------------------------------------------------------------------

function presetName(rules) {
  const preset = (rules && rules.preset) || "standard";
  const name = t(`preset.${preset}.name`);
  return name === `preset.${preset}.name` ? preset : name;
}

async function refreshOpen() {
  if (!serverAnswers) {
    $("open-empty").textContent = t("offline.no_server_open");
    $("open-empty").hidden = false;
    $("open-list").replaceChildren();
    return;
  }
  $("open-empty").textContent = t("open.empty");
  let tables = [];
  try { tables = await api.openTables(); } catch { tables = []; }
  const list = $("open-list");
  list.replaceChildren(...tables.map((table) => {
    const item = document.createElement("li");
    item.className = "table-item";
    const text = document.createElement("span");
    const people = table.seats.filter((s) => s.taken).map((s) => displayName(s.name));
    text.textContent = t("open.line", {
      game: presetName(table.rules),
      players: t("open.players", { count: table.players }),
      open: t("open.open_seats", { count: (table.open || []).length }),
      names: people.join(", "),
    });
    const join = document.createElement("button");
    join.type = "button";
    join.textContent = t("open.join");
    join.setAttribute("aria-label", t("open.join_label", { names: people.join(", ") }));
    join.addEventListener("click", () => joinOpen(table.table_id, join));
    const watch = document.createElement("a");
    watch.href = paths.watchPage(table.table_id);
    watch.textContent = t("open.watch");
    item.append(text, join, watch);
    return item;
  }));
  $("open-empty").hidden = tables.length > 0;
}

async function joinOpen(tableId, button) {
  const name = inputById("my-name").value.trim();
  const problem = nameProblem(name);
  const box = $("open-error");
  box.hidden = true;
  if (problem) {
    box.textContent = t(problem === "name.empty" ? "join.need_name_lobby" : problem);
    box.hidden = false;
    inputById("my-name").focus();
    inputById("my-name").setAttribute("aria-invalid", "true");
    return;
  }
  button.disabled = true;
  try {
    const answer = await api.join(tableId, name);
    store.saveName(name);
    store.addSeats(tableId, [{ seat: answer.seat, token: answer.token }]);
    store.updateTable(tableId, { created: Date.now() });
    location.assign(paths.tablePage(tableId));
  } catch (error) {
    box.textContent = errorText(error);
    box.hidden = false;
    button.disabled = false;
    refreshOpen();
  }
}

let mineRun = 0;

/** "Your tables": each table this browser sits at with its game, players and status,
 *  and the parties it made; one click goes back. A table the server no longer has is
 *  forgotten. */
async function showMine() {
  const run = ++mineRun;
  const entries = store.myTables().slice(0, 8);
  const parties = store.myParties().slice(0, 4);
  const looked = await Promise.all(entries.map(async (entry) => {
    try {
      return { entry, info: await api.table(entry.id) };
    } catch (error) {
      return { entry, info: null, gone: error.status === 404 || error.status === 410 };
    }
  }));
  if (run !== mineRun) return;
  const items = [];
  const inParty = new Set();
  for (const { entry, info, gone } of looked) {
    if (gone) {
      store.forgetTable(entry.id);
      continue;
    }
    if (info && info.party) inParty.add(info.party);
    items.push(tableItem(entry, info));
  }
  for (const party of parties) {
    if (!inParty.has(party.id)) continue; // a party shows while this browser holds a seat
    items.unshift(partyItem(party.id));
  }
  $("mine-panel").hidden = items.length === 0;
  $("mine-list").replaceChildren(...items);
}

function tableItem(entry, info) {
  const item = document.createElement("li");
  item.className = "table-item mine-item";
  item.dataset.table = entry.id;
  const text = document.createElement("span");
  const mine = new Set(entry.seats.map((s) => s.seat));
  if (!info) {
    text.textContent = t("mine.unreachable");
  } else {
    const name = (seat) => (mine.has(seat) && mine.size === 1 ? t("mine.you")
      : displayName(info.seats[seat] ? info.seats[seat].name : ""));
    const people = info.seats.map((s) => name(s.seat));
    text.textContent = t("mine.line", {
      game: presetName(info.rules), players: people.join(", "), status: statusOf(info, mine, name),
    });
  }
  const link = document.createElement("a");
  link.className = "button";
  link.href = paths.tablePage(entry.id);
  link.textContent = info && info.status === "over" ? t("mine.open") : t("mine.rejoin");
  item.append(text, link);
  if (info && info.status === "over") {
    const review = document.createElement("a");
    review.className = "button review-link";
    review.href = paths.reviewPage(entry.id);
    review.textContent = t("result.review");
    item.append(review);
  }
  return item;
}

function statusOf(info, mine, name) {
  const progress = info.progress;
  if (info.status === "waiting") {
    return t("mine.waiting", { count: (info.open || []).length });
  }
  if (!progress) return t("mine.playing");
  if (progress.match_winner !== null && progress.match_winner !== undefined) {
    return t("mine.won", { name: name(progress.match_winner) });
  }
  if (progress.to_act === null || progress.to_act === undefined) {
    return t("mine.round_over", { round: progress.round });
  }
  if (mine.has(progress.to_act)) {
    return mine.size === 1 ? t("mine.your_turn", { round: progress.round })
      : t("mine.turn_of", { name: name(progress.to_act), round: progress.round });
  }
  return t("mine.turn_of", { name: name(progress.to_act), round: progress.round });
}

function partyItem(id) {
  const item = document.createElement("li");
  item.className = "table-item mine-item";
  const text = document.createElement("span");
  text.textContent = t("mine.party");
  const link = document.createElement("a");
  link.className = "button";
  link.href = paths.partyPage(id);
  link.textContent = t("mine.open");
  item.append(text, link);
  return item;
}

function openLink(event) {
  event.preventDefault();
  const raw = inputById("link-input").value.trim();
  let id = raw;
  const party = /\/p\/([^/?#]+)/.exec(raw);
  if (party) {
    location.assign(paths.partyPage(decodeURIComponent(party[1])));
    return;
  }
  const match = /\/t\/([^/?#]+)/.exec(raw);
  if (match) id = decodeURIComponent(match[1]);
  if (id) location.assign(paths.tablePage(id));
}

// -- start ----------------------------------------------------------------------------

async function loadServerLists() {
  try {
    const ladder = await api.levels();
    if (ladder.length) levels = ladder;
  } catch { /* keep the defaults */ }
  for (const select of document.querySelectorAll(".seat-bot")) fillBotSelect(select, "greedy");
}

function retranslate() {
  translatePage();
  fillPresets();
  fillSizes();
  for (const select of document.querySelectorAll(".seat-bot")) fillBotSelect(select, "greedy");
  updateSeatRows();
  linkById("rules-link").href = paths.rulesPage(currentLanguage());
  document.title = t("lobby.page_title");
  refreshOpen();
  showMine();
}

async function main() {
  await loadLanguage(detectLanguage());
  mountLanguageSwitcher($("lang"));
  inputById("my-name").value = store.savedName();
  fillPresets();
  fillFlags();
  fillSizes();
  addSeatRow("me");
  addSeatRow("bot", "greedy");
  applyPreset("standard");
  retranslate();
  onLanguageChange(retranslate);

  selectById("preset").addEventListener("change", () => applyPreset(selectById("preset").value));
  selectById("start-size").addEventListener("change", () => {
    const follows = Number(selectById("rounds").value) === selectById("rounds").options.length;
    fillSizes();
    if (follows) selectById("rounds").value = selectById("start-size").value;
  });
  buttonById("add-seat").addEventListener("click", () => addSeatRow("bot", "greedy"));
  buttonById("remove-seat").addEventListener("click", () => {
    const rows = $("seat-rows");
    if (rows.children.length > MIN_SEATS) rows.lastElementChild.remove();
    updateSeatRows();
  });
  inputById("my-name").addEventListener("input", () => {
    inputById("my-name").removeAttribute("aria-invalid");
    $("open-error").hidden = true;
  });
  $("create-form").addEventListener("submit", createTable);
  inputById("table-hints").addEventListener("change", () => { inputById("table-hints").dataset.chosen = "1"; });
  if (!navigator.onLine) inputById("on-device").checked = true;
  $("link-form").addEventListener("submit", openLink);
  wireLearning();

  applyServer(navigator.onLine && await probeServer());
  window.addEventListener("online", async () => applyServer(await probeServer()));
  window.addEventListener("offline", () => applyServer(false));
  await loadServerLists();
  applyPreset(selectById("preset").value);
  setInterval(refreshOpen, REFRESH_MS);
}

main();
