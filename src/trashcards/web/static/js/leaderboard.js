// @ts-check
// The leaderboards (/leaderboard): per family, the top 100 active rated players and,
// signed in, your own rank.

import { t } from "./i18n.js";
import { paths, root } from "./config.js";
import { FAMILIES } from "./ratings.js";
import { startPage } from "./pagestart.js";
import { familyName, rangeText, ratingText } from "./playerviews.js";
import { byId, selectById } from "./dom.js";

/** @typedef {import("./playerviews.js").BoardRating} BoardRating */
/** A player on a leaderboard. @typedef {BoardRating & {rank: number, name: string}} Entry */
/**
 * GET /api/leaderboard/FAMILY: the top players, and your own entry signed in.
 * @typedef {object} Board
 * @property {string} family
 * @property {Entry[]} players the top 100, best first
 * @property {Entry|null} you
 * @property {number} active_days how recently a player must have played to be listed
 * @property {number} ranked how many players are ranked
 */

const API = paths.tables.replace(/\/api\/tables$/, "");
let family = new URLSearchParams(location.search).get("family") || "standard";
/** @type {Board|null} */
let shown = null;

/** The families' choice, with the family shown chosen. */
function fillFamilies() {
  selectById("board-family").replaceChildren(...FAMILIES.map((name) => {
    const option = document.createElement("option");
    option.value = name;
    option.textContent = familyName(name);
    return option;
  }));
  selectById("board-family").value = family;
}

/** Draw the board (again when the language changes). */
function render() {
  fillFamilies();
  if (!shown) return;
  byId("board-help").textContent = t("leaders.help", { days: shown.active_days });
  byId("board-body").replaceChildren(...shown.players.map((entry) => {
    const row = document.createElement("tr");
    if (shown.you && shown.you.rank === entry.rank) row.className = "me";
    const cells = [String(entry.rank), null, ratingText(entry), rangeText(entry), String(entry.games)];
    cells.forEach((text, index) => {
      const cell = document.createElement("td");
      if (index === 1) {
        const link = document.createElement("a");
        link.href = `${root}player/${encodeURIComponent(entry.name)}`;
        link.textContent = entry.name;
        cell.append(link);
      } else {
        cell.textContent = text;
      }
      if ([0, 2, 4].includes(index)) cell.className = "num";
      row.append(cell);
    });
    return row;
  }));
  byId("board-empty").hidden = shown.players.length > 0;
  byId("board-you").textContent = shown.you
    ? t("leaders.you", { rank: shown.you.rank, count: shown.ranked }) : "";
}

/** Fetch the family's board and draw it. */
async function load() {
  const response = await fetch(`${API}/api/leaderboard/${encodeURIComponent(family)}`,
    { credentials: "same-origin" });
  shown = response.ok ? await response.json() : null;
  render();
  document.body.dataset.ready = "1";
}

/** Start the page: its language, the families, the board. */
async function main() {
  await startPage("leaders.page_title", render);
  fillFamilies();
  selectById("board-family").addEventListener("change", () => {
    family = selectById("board-family").value;
    history.replaceState(null, "", `?family=${family}`);
    load();
  });
  await load();
}

main();
