// @ts-check
// The Play now page (/play): ask the server's pairing pool for a game, wait with the
// window shown, take the computer when it is offered, go to the table when seated; or,
// signed in, start a rated game against a computer level.

import { t } from "./i18n.js";
import { paths } from "./config.js";
import * as store from "./store.js";
import { AccountError, currentAccount, send } from "./account.js";
import { makeRules } from "./local/engine.js";
import { LEVELS, familyOf } from "./ratings.js";
import { loadProfile, ratingsNow } from "./profile.js";
import { startPage } from "./pagestart.js";
import { buttonById, byId, inputById, selectById } from "./dom.js";

/** A seat given: the table, the seat and its token. @typedef {{table_id: string,
 *  seat: number, token: string}} Seated */
/**
 * POST /api/pair/TICKET: seated (with the seat), still waiting (how long, the window
 * asked for, whether the computer is offered) or cancelled.
 * @typedef {object} PairAnswer
 * @property {"seated" | "waiting" | "cancelled"} status
 * @property {string} [table_id]
 * @property {number} [seat]
 * @property {string} [token]
 * @property {number} [waited] seconds
 * @property {number} [window] seconds
 * @property {boolean} [bot]
 */

const PRESETS = ["standard", "kings-wild", "jokers", "call-trash", "kids", "classic", "last-chance"];
/** The pool's ticket while waiting. @type {string|null} */
let ticket = null;
/** @type {ReturnType<typeof setTimeout>|null} */
let polling = null;
/** @type {import("./account.js").Account|null} */
let account = null;

/** The presets' and levels' choices, in the page's language, keeping what is chosen. */
function fillSelects() {
  for (const id of ["pair-preset", "rated-preset"]) {
    const select = selectById(id);
    const keep = select.value;
    select.replaceChildren(...PRESETS.map((name) => {
      const option = document.createElement("option");
      option.value = name;
      option.textContent = t(`preset.${name}.name`);
      return option;
    }));
    if (keep) select.value = keep;
  }
  const level = selectById("rated-level");
  const keep = level.value;
  level.replaceChildren(...LEVELS.map((lv) => {
    const option = document.createElement("option");
    option.value = lv.name;
    option.textContent = t("level.option", { level: t(`level.${lv.name}`), elo: Math.round(lv.elo) });
    return option;
  }));
  level.value = keep || "good";
}

/** What to say of a request that failed. @param {unknown} err @returns {string} */
const failure = (err) => (err instanceof AccountError ? err.message : t("play.no_server"));

/** Keep the seat's token and go to its table.
 *  @param {string} tableId @param {number} seat @param {string} token */
function seatAndGo(tableId, seat, token) {
  store.addSeats(tableId, [{ seat, token }]);
  store.updateTable(tableId, { created: Date.now() });
  location.assign(paths.tablePage(tableId));
}

/** Stop asking the pool (the form is ready again). */
function stopWaiting() {
  clearTimeout(polling);
  polling = null;
  ticket = null;
  buttonById("pair-start").disabled = false;
  buttonById("pair-cancel").hidden = true;
  buttonById("pair-bot").hidden = true;
}

/** Ask the pool about the ticket: go to the table when seated, else show the wait and
 *  ask again in half a second. */
async function poll() {
  if (!ticket) return;
  try {
    /** @type {PairAnswer} */
    const answer = await send(`/api/pair/${ticket}`);
    if (answer.status === "seated") {
      document.body.dataset.seated = answer.table_id;
      seatAndGo(answer.table_id, answer.seat, answer.token);
      return;
    }
    byId("pair-status").textContent = t("play.waiting", { seconds: Math.floor(answer.waited),
      window: answer.window });
    if (answer.bot) {
      buttonById("pair-bot").hidden = false;
      buttonById("pair-bot").textContent = t("play.take_bot");
    }
    polling = setTimeout(poll, 500);
  } catch (err) {
    stopWaiting();
    byId("pair-status").textContent = failure(err);
  }
}

/** This profile's rating now in the preset's family (1500 without one).
 *  @param {string} preset @returns {number} */
function myRating(preset) {
  const family = familyOf(makeRules({ preset }));
  const rating = ratingsNow(loadProfile())[family];
  return rating ? rating.rating : 1500;
}

/** The forms' buttons: ask the pool, stop waiting, take the computer, a rated game. */
function wire() {
  inputById("pair-name").value = loadProfile().name === "You" ? "" : loadProfile().name;
  byId("pair-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    stopWaiting();
    const preset = selectById("pair-preset").value;
    try {
      /** @type {{ticket: string, rating: number}} */
      const asked = await send("/api/pair", {
        preset, players: Number(selectById("pair-players").value),
        wait: Number(inputById("pair-wait").value),
        name: inputById("pair-name").value.trim() || undefined, rating: myRating(preset) });
      ticket = asked.ticket;
      buttonById("pair-start").disabled = true;
      buttonById("pair-cancel").hidden = false;
      byId("pair-status").textContent = t("play.waiting", { seconds: 0, window: "…" });
      poll();
    } catch (err) {
      byId("pair-status").textContent = failure(err);
    }
  });
  buttonById("pair-cancel").addEventListener("click", async () => {
    if (ticket) await send(`/api/pair/${ticket}/cancel`).catch(() => null);
    stopWaiting();
    byId("pair-status").textContent = "";
  });
  buttonById("pair-bot").addEventListener("click", async () => {
    try {
      /** @type {Seated} */
      const seated = await send(`/api/pair/${ticket}/bot`);
      seatAndGo(seated.table_id, seated.seat, seated.token);
    } catch (err) {
      byId("pair-status").textContent = failure(err);
    }
  });
  byId("rated-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      /** @type {Seated} */
      const made = await send("/api/rated", { preset: selectById("rated-preset").value,
        players: 2, level: selectById("rated-level").value });
      seatAndGo(made.table_id, made.seat, made.token);
    } catch (err) {
      byId("rated-status").textContent = failure(err);
    }
  });
}

/** Start the page: its language, the choices, the buttons, and whether signed in. */
async function main() {
  await startPage("play.page_title", fillSelects);
  fillSelects();
  wire();
  const state = await currentAccount();
  account = state && state.signed_in ? state.account : null;
  byId("rated-form").hidden = !account;
  byId("rated-signed-out").hidden = Boolean(account);
  byId("pair-name-field").hidden = Boolean(account);
  document.body.dataset.ready = "1";
}

main();
