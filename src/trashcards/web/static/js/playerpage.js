// @ts-check
// A player's public page (/player/NAME): name, ratings with their ranges, the rating
// chart, habits, results, finished games with a link to each one's Review.

import { t } from "./i18n.js";
import { paths, routeParts } from "./config.js";
import { startPage } from "./pagestart.js";
import { renderChart, renderGames, renderRatings, renderResults } from "./playerviews.js";
import { renderHabits } from "./habits.js";
import { byId } from "./dom.js";

/** @typedef {import("./glicko2.js").Rating} Rating */
/** @typedef {import("./playerviews.js").ShownGame} ShownGame */
/** @typedef {import("./playerviews.js").BoardRating} BoardRating */
/**
 * A finished game of the player, as GET /api/players/NAME lists it (newest first).
 * @typedef {object} PlayerGame
 * @property {string} table_id
 * @property {number} seat
 * @property {string} family
 * @property {boolean} rated
 * @property {number} finished when, in seconds
 * @property {string} preset
 * @property {number} players
 * @property {string[]} seats each seat's name
 * @property {number} place
 * @property {boolean} won
 * @property {Rating|null} before the rating before (a rated game's)
 * @property {Rating|null} after the rating after (a rated game's)
 */
/**
 * GET /api/players/NAME: the player's ratings, games, results and habits.
 * @typedef {object} PlayerPage
 * @property {string} name
 * @property {Record<string, BoardRating>} ratings
 * @property {PlayerGame[]} games
 * @property {import("./profile.js").Summary} summary
 * @property {import("./habits.js").Habit[]} habits
 * @property {import("./habits.js").PeerBand|null} [peers] the rated players its habits
 *   are compared with (null: the player has no rating)
 * @property {import("./habits.js").LevelShown|null} [level] the level nearest its rating
 */

const API = paths.tables.replace(/\/api\/tables$/, "");
const name = decodeURIComponent(routeParts()[1] || "");
/** @type {PlayerPage|null} */
let shown = null;

/** The server's games in the profile's shape (for the shared drawing).
 *  @param {PlayerGame[]} games @returns {ShownGame[]} */
function asProfileGames(games) {
  return games.slice().reverse().map((game) => ({
    id: game.table_id, at: game.finished, where: "online", rules: { preset: game.preset },
    seats: game.seats, me: game.seat, winner: game.won ? game.seat : -1,
  }));
}

/** Draw the player (again when the language changes). */
function render() {
  if (!shown) return;
  byId("player-title").textContent = shown.name;
  const sums = shown.summary;
  byId("record-line").textContent = t("profile.record", {
    count: sums.games, won: sums.won, streak: sums.streak, best: sums.best_streak });
  const counts = Object.fromEntries(Object.entries(shown.ratings).map(([f, r]) => [f, r.games]));
  renderRatings(byId("ratings-body"), shown.ratings, counts);
  /** @type {Record<string, {rating: Rating}[]>} */
  const history = {};
  for (const game of shown.games.slice().reverse()) {
    if (game.rated && game.after) (history[game.family] ||= []).push({ rating: game.after });
  }
  renderChart(byId("rating-chart"), history);
  renderResults(byId("results"), sums);
  renderGames(byId("games-list"), asProfileGames(shown.games));
  renderHabits(byId("habits-list"), shown.habits || null, byId("habits-peers"),
    shown.peers ?? null, shown.level ?? null);
}

/** Load the page's language and the player, and draw it. */
async function main() {
  await startPage("player.page_title", render);
  const response = await fetch(`${API}/api/players/${encodeURIComponent(name)}`,
    { credentials: "same-origin" });
  if (response.ok) {
    shown = await response.json();
    render();
  } else {
    byId("player-missing").hidden = false;
  }
  document.body.dataset.ready = "1";
}

main();
