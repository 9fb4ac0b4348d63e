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

const PRESETS = ["standard", "kings-wild", "jokers", "call-trash", "kids", "classic", "last-chance"];
const $ = (id) => document.getElementById(id);
let ticket = null;
let polling = null;
let account = null;

function fillSelects() {
  for (const id of ["pair-preset", "rated-preset"]) {
    const select = $(id);
    const keep = select.value;
    select.replaceChildren(...PRESETS.map((name) => {
      const option = document.createElement("option");
      option.value = name;
      option.textContent = t(`preset.${name}.name`);
      return option;
    }));
    if (keep) select.value = keep;
  }
  const level = $("rated-level");
  const keep = level.value;
  level.replaceChildren(...LEVELS.map((lv) => {
    const option = document.createElement("option");
    option.value = lv.name;
    option.textContent = t("level.option", { level: t(`level.${lv.name}`), elo: Math.round(lv.elo) });
    return option;
  }));
  level.value = keep || "good";
}

function seatAndGo(tableId, seat, token) {
  store.addSeats(tableId, [{ seat, token }]);
  store.updateTable(tableId, { created: Date.now() });
  location.assign(paths.tablePage(tableId));
}

function stopWaiting() {
  clearTimeout(polling);
  polling = null;
  ticket = null;
  $("pair-start").disabled = false;
  $("pair-cancel").hidden = true;
  $("pair-bot").hidden = true;
}

async function poll() {
  if (!ticket) return;
  try {
    const answer = await send(`/api/pair/${ticket}`);
    if (answer.status === "seated") {
      document.body.dataset.seated = answer.table_id;
      seatAndGo(answer.table_id, answer.seat, answer.token);
      return;
    }
    $("pair-status").textContent = t("play.waiting", { seconds: Math.floor(answer.waited), window: answer.window });
    if (answer.bot) {
      $("pair-bot").hidden = false;
      $("pair-bot").textContent = t("play.take_bot");
    }
    polling = setTimeout(poll, 500);
  } catch (err) {
    stopWaiting();
    $("pair-status").textContent = err instanceof AccountError ? err.message : t("play.no_server");
  }
}

function myRating(preset) {
  const family = familyOf(makeRules({ preset }));
  const rating = ratingsNow(loadProfile())[family];
  return rating ? rating.rating : 1500;
}

function wire() {
  $("pair-name").value = loadProfile().name === "You" ? "" : loadProfile().name;
  $("pair-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    stopWaiting();
    const preset = $("pair-preset").value;
    try {
      const asked = await send("/api/pair", {
        preset, players: Number($("pair-players").value), wait: Number($("pair-wait").value),
        name: $("pair-name").value.trim() || undefined, rating: myRating(preset) });
      ticket = asked.ticket;
      $("pair-start").disabled = true;
      $("pair-cancel").hidden = false;
      $("pair-status").textContent = t("play.waiting", { seconds: 0, window: "…" });
      poll();
    } catch (err) {
      $("pair-status").textContent = err instanceof AccountError ? err.message : t("play.no_server");
    }
  });
  $("pair-cancel").addEventListener("click", async () => {
    if (ticket) await send(`/api/pair/${ticket}/cancel`).catch(() => null);
    stopWaiting();
    $("pair-status").textContent = "";
  });
  $("pair-bot").addEventListener("click", async () => {
    try {
      const seated = await send(`/api/pair/${ticket}/bot`);
      seatAndGo(seated.table_id, seated.seat, seated.token);
    } catch (err) {
      $("pair-status").textContent = err instanceof AccountError ? err.message : t("play.no_server");
    }
  });
  $("rated-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const made = await send("/api/rated", { preset: $("rated-preset").value, players: 2,
        level: $("rated-level").value });
      seatAndGo(made.table_id, made.seat, made.token);
    } catch (err) {
      $("rated-status").textContent = err instanceof AccountError ? err.message : t("play.no_server");
    }
  });
}

async function main() {
  await startPage("play.page_title", fillSelects);
  fillSelects();
  wire();
  const state = await currentAccount();
  account = state && state.signed_in ? state.account : null;
  $("rated-form").hidden = !account;
  $("rated-signed-out").hidden = Boolean(account);
  $("pair-name-field").hidden = Boolean(account);
  document.body.dataset.ready = "1";
}

main();
