// @ts-check
// The party page (/p/{id}): five to eight people at two tables, each its own match, and
// the final table of the two winners if the party wants one. It shows every table live
// (following each table's websocket as a spectator: any change of a table fetches the
// party again) with its standings, whose turn it is and who
// won, and leads to each table: to play at it (this browser holds a seat there), to take
// an open seat, or to watch. Seats, invites, spectating and reconnecting are the
// ordinary table pages'.

import {
  currentLanguage, detectLanguage, loadLanguage, mountLanguageSwitcher, onLanguageChange, t,
  translatePage,
} from "./i18n.js";
import { api } from "./api.js";
import { paths, routeParts } from "./config.js";
import * as store from "./store.js";
import { displayName } from "./names.js";
import { watchTable } from "./connection.js";
import { el, inputById, linkById, wholeWords } from "./dom.js";

/** Changes that come together (a move's events, then the table) fetch the party once. */
const SETTLE_MS = 150;
const partyId = decodeURIComponent(routeParts()[1] || "");
const watching = new URLSearchParams(location.search).has("watch");
const $ = (id) => document.getElementById(id);

let party = null;
let gone = false;
/** The websocket followed for each table of the party (as a spectator). */
const followed = new Map();
let refreshTimer = null;
let refreshing = null;
let again = false;

function presetName(rules) {
  const preset = (rules && rules.preset) || "standard";
  const name = t(`preset.${preset}.name`);
  return name === `preset.${preset}.name` ? preset : name;
}

/** The seats this browser holds at a table. */
function heldSeats(tableId) {
  return watching ? new Set() : new Set(store.loadTable(tableId).seats.map((s) => s.seat));
}

function seatName(table, seat, held) {
  const raw = table.seats[seat] ? table.seats[seat].name : null;
  const name = raw ? displayName(raw) : t("seat.unknown", { seat: seat + 1 });
  return held.has(seat) && held.size === 1 ? t("party.you", { name }) : name;
}

function tableStatus(table, held) {
  const progress = table.progress;
  if (table.status === "waiting") {
    return t("party.table_waiting", { count: (table.open || []).length });
  }
  if (!progress) return t("party.status_playing");
  if (progress.match_winner !== null && progress.match_winner !== undefined) {
    return t("party.table_won", { name: seatName(table, progress.match_winner, held) });
  }
  if (progress.to_act === null || progress.to_act === undefined) {
    return t("party.table_between", { round: progress.round });
  }
  if (held.size === 1 && held.has(progress.to_act)) {
    return t("party.table_your_turn", { round: progress.round });
  }
  return t("party.table_turn", { round: progress.round,
    name: seatName(table, progress.to_act, held) });
}

/** One table's card: its status, standings and the way to it. */
function tableCard(table, title) {
  const card = el("section", "panel party-table");
  const heading = el("h2", "party-table-title", title);
  card.append(heading);
  if (!table) {
    card.append(el("p", "party-table-status", t("party.expired")));
    return card;
  }
  card.dataset.table = table.table_id;
  card.dataset.status = table.status;
  const held = heldSeats(table.table_id);
  card.append(el("p", "party-table-status", tableStatus(table, held)));
  const progress = table.progress;
  const won = progress ? progress.rounds_won : table.seats.map(() => 0);
  const order = table.seats.map((s) => s.seat)
    .sort((a, b) => (won[b] || 0) - (won[a] || 0) || a - b);
  const list = el("ol", "party-standings");
  for (const seat of order) {
    const row = el("li", "party-seat");
    const taken = table.seats[seat].taken;
    const name = el("span", "party-seat-name");
    name.append(...wholeWords(taken ? seatName(table, seat, held)
      : t("waiting.seat_open", { seat: seat + 1 })));
    row.append(name);
    row.append(el("span", "fact", t("party.rounds", { count: won[seat] || 0 })));
    if (progress && progress.match_winner === seat) {
      row.append(el("span", "fact winner", t("party.winner")));
    } else if (progress && progress.to_act === seat && table.status !== "over") {
      row.append(el("span", "fact turn", t("board.to_play")));
    }
    list.append(row);
  }
  card.append(list);
  const actions = el("div", "party-actions");
  if (held.size) {
    const play = el("a", "button primary", table.status === "over" ? t("party.open")
      : t("party.play"));
    play.href = paths.tablePage(table.table_id);
    actions.append(play);
  } else if (!watching && (table.open || []).length) {
    const join = el("a", "button primary", t("party.take_seat"));
    join.href = paths.tablePage(table.table_id);
    actions.append(join);
  }
  const watch = el("a", "button", t("party.watch"));
  watch.href = paths.watchPage(table.table_id);
  actions.append(watch);
  card.append(actions);
  return card;
}

function partyStatus(info) {
  if (info.status === "waiting") return t("party.status_waiting");
  if (info.status === "final") return t("party.status_final");
  if (info.status === "over") {
    const final = info.final;
    const winner = final && final.progress ? final.progress.match_winner : null;
    if (final && winner !== null && winner !== undefined) {
      return t("party.status_won", { name: seatName(final, winner, heldSeats(final.table_id)) });
    }
    return t("party.status_over");
  }
  return info.final_wanted ? t("party.status_playing_final") : t("party.status_playing");
}

function render() {
  document.body.dataset.status = party ? party.status : (gone ? "gone" : "");
  $("gone").hidden = !gone;
  for (const id of ["party-tables", "party-share"]) $(id).hidden = gone || !party;
  if (gone || !party) return;
  const players = party.tables.reduce((sum, table) => sum + (table ? table.players : 0), 0);
  $("party-summary").textContent = t("party.summary", { game: presetName(party.rules),
    count: players });
  $("party-status").textContent = partyStatus(party);
  const cards = party.tables.map((table, i) => tableCard(table, t("party.table", { n: i + 1 })));
  if (party.final) cards.push(tableCard(party.final, t("party.final")));
  else if (party.final_wanted) {
    const waiting = el("section", "panel party-table party-final-due");
    waiting.append(el("h2", "party-table-title", t("party.final")),
      el("p", "party-table-status", t("party.final_due")));
    cards.push(waiting);
  }
  $("party-tables").replaceChildren(...cards);
  inputById("party-invite").value = new URL(paths.partyPage(partyId), location.href).href;
  inputById("party-watch").value = new URL(paths.partyWatchPage(partyId), location.href).href;
}

async function refresh() {
  if (refreshing) {
    again = true;
    return;
  }
  refreshing = (async () => {
    try {
      party = await api.party(partyId);
      gone = false;
      if (!watching) store.adoptFinalSeats(party);
    } catch (error) {
      if (error.status === 404) {
        gone = true;
        party = null;
      }
    }
    render();
    follow();
  })();
  await refreshing;
  refreshing = null;
  if (again) {
    again = false;
    await refresh();
  }
}

/** Fetch the party again soon: a table it follows changed. */
function changed() {
  clearTimeout(refreshTimer);
  refreshTimer = setTimeout(refresh, SETTLE_MS);
}

/** Follow every table of the party on its websocket, the final too once it exists. */
function follow() {
  if (gone || !party) {
    for (const connection of followed.values()) connection.close();
    followed.clear();
    return;
  }
  const ids = [...party.tables, party.final].filter(Boolean).map((table) => table.table_id);
  for (const id of ids) {
    if (followed.has(id)) continue;
    followed.set(id, watchTable(id, changed));
  }
  document.body.dataset.following = String(followed.size);
}

async function copyLink(input, button) {
  try {
    await navigator.clipboard.writeText(input.value);
  } catch {
    input.select();
    window.prompt(t("waiting.copy_by_hand"), input.value); // eslint-disable-line no-alert
  }
  button.textContent = t("waiting.copied");
  setTimeout(() => { button.textContent = t("waiting.copy"); }, 2000);
}

async function main() {
  await loadLanguage(detectLanguage());
  translatePage();
  mountLanguageSwitcher($("lang"));
  const retitle = () => {
    document.title = t("party.page_title");
    linkById("rules-link").href = paths.rulesPage(currentLanguage());
  };
  retitle();
  onLanguageChange(() => {
    translatePage();
    retitle();
    render();
  });
  for (const button of document.querySelectorAll("[data-copy]")) {
    if (!(button instanceof HTMLElement)) continue;
    button.addEventListener("click", () => copyLink($(button.dataset.copy), button));
  }
  if (!partyId) {
    gone = true;
    render();
    return;
  }
  if (!watching) store.rememberParty(partyId);
  await refresh();
}

main();
