// A player's public page (/player/NAME): name, ratings with their ranges, the rating
// chart, habits, results, finished games with a link to each one's Review.

import { t } from "./i18n.js";
import { paths, routeParts } from "./config.js";
import { startPage } from "./pagestart.js";
import { renderChart, renderGames, renderRatings, renderResults } from "./playerviews.js";
import { renderHabits } from "./habits.js";

const $ = (id) => document.getElementById(id);
const API = paths.tables.replace(/\/api\/tables$/, "");
const name = decodeURIComponent(routeParts()[1] || "");
let shown = null;

/** The server's games in the profile's shape (for the shared drawing). */
function asProfileGames(games) {
  return games.slice().reverse().map((game) => ({
    id: game.table_id, at: game.finished, where: "online", rules: { preset: game.preset },
    seats: game.seats, me: game.seat, winner: game.won ? game.seat : -1,
  }));
}

function render() {
  if (!shown) return;
  $("player-title").textContent = shown.name;
  const sums = shown.summary;
  $("record-line").textContent = t("profile.record", {
    count: sums.games, won: sums.won, streak: sums.streak, best: sums.best_streak });
  const counts = Object.fromEntries(Object.entries(shown.ratings).map(([f, r]) => [f, r.games]));
  renderRatings($("ratings-body"), shown.ratings, counts);
  const history = {};
  for (const game of shown.games.slice().reverse()) {
    if (game.rated && game.after) (history[game.family] ||= []).push({ rating: game.after });
  }
  renderChart($("rating-chart"), history);
  renderResults($("results"), sums);
  renderGames($("games-list"), asProfileGames(shown.games));
  renderHabits($("habits-list"), shown.habits || null);
}

async function main() {
  await startPage("player.page_title", render);
  const response = await fetch(`${API}/api/players/${encodeURIComponent(name)}`,
    { credentials: "same-origin" });
  if (response.ok) {
    shown = await response.json();
    render();
  } else {
    $("player-missing").hidden = false;
  }
  document.body.dataset.ready = "1";
}

main();
