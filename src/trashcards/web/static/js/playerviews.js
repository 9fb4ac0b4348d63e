// @ts-check
// What the profile page and a player's page both draw, from plain data: the ratings
// table, the rating chart, the results tables and the list of matches.

import { t } from "./i18n.js";
import { paths } from "./config.js";
import { displayName } from "./names.js";
import { interval, isProvisional } from "./ratings.js";
import { el } from "./dom.js";

/** A rating as drawn: its value and deviation (the server's have more fields).
 *  @typedef {{rating: number, rd: number}} ShownRating */
/** A rating as the server shows it (web/boards.py): with its range, whether it is
 *  provisional, and its rated games.
 *  @typedef {import("./glicko2.js").Rating
 *    & {low: number, high: number, provisional: boolean, games: number}} BoardRating */
/** @typedef {import("./profile.js").Summary} Summary */
/** @typedef {import("./profile.js").Tally} Tally */
/** A match as listed: the profile's fields a line shows (a player's page makes them from
 *  the server's games). @typedef {Pick<import("./profile.js").Game,
 *  "id" | "at" | "where" | "rules" | "seats" | "me" | "winner">} ShownGame */

const SVG = "http://www.w3.org/2000/svg";
/** @type {Record<string, string>} */
const COLOURS = { standard: "#0b6e4f", "call-trash": "#a4001c", kids: "#0a5a8a", short: "#8a5a00" };

/** "1612" or "1540?" (provisional). @param {ShownRating} r @returns {string} */
export function ratingText(r) {
  return `${Math.round(r.rating)}${isProvisional(r) ? "?" : ""}`;
}

/** The 95 % range in words. @param {ShownRating} r @returns {string} */
export function rangeText(r) {
  const [low, high] = interval(r);
  return t("profile.range", { low, high });
}

/** A family's name in the page's language. @param {string} family @returns {string} */
export const familyName = (family) => t(`family.${family}`);

/** Rows of the ratings table: ratings {family: {rating, rd, volatility}}, counts
 *  {family: rated matches}.
 *  @param {HTMLElement} body @param {Record<string, ShownRating>} ratings
 *  @param {Record<string, number>} counts */
export function renderRatings(body, ratings, counts) {
  const families = Object.keys(ratings);
  body.replaceChildren(...families.map((family) => {
    const row = el("tr");
    const r = ratings[family];
    const head = el("th", "", familyName(family));
    row.append(head, el("td", "num rating-value", ratingText(r)),
      el("td", "", rangeText(r)), el("td", "num", String(counts[family] || 0)));
    head.scope = "row";
    row.dataset.family = family;
    if (isProvisional(r)) row.title = t("profile.provisional");
    return row;
  }));
  if (!families.length) {
    const row = el("tr");
    const cell = el("td", "", t("profile.no_rating"));
    cell.colSpan = 4;
    row.append(cell);
    body.replaceChildren(row);
  }
}

/** The rating chart: one line per family over its rated matches, the 95 % band behind
 *  it. `history` is {family: [{rating: {rating, rd}}]}.
 *  @param {HTMLElement} box @param {Record<string, {rating: ShownRating}[]>} history */
export function renderChart(box, history) {
  const families = Object.keys(history).filter((f) => history[f].length);
  box.replaceChildren();
  if (!families.length) return;
  const width = 600;
  const height = 180;
  const pad = 30;
  const all = families.flatMap((f) => history[f].map((p) => p.rating));
  const low = Math.min(...all.map((r) => r.rating - 2 * r.rd), 1450);
  const high = Math.max(...all.map((r) => r.rating + 2 * r.rd), 1750);
  /** @param {number} v @returns {number} */
  const y = (v) => height - pad / 2 - ((v - low) / (high - low)) * (height - pad);
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", t("profile.chart_label"));
  for (const mark of [1535, 1596, 1670]) {
    if (mark < low || mark > high) continue;
    const line = document.createElementNS(SVG, "line");
    line.setAttribute("class", "axis");
    line.setAttribute("x1", String(pad)); line.setAttribute("x2", String(width));
    line.setAttribute("y1", String(y(mark))); line.setAttribute("y2", String(y(mark)));
    const label = document.createElementNS(SVG, "text");
    label.setAttribute("x", "0"); label.setAttribute("y", String(y(mark) + 4));
    label.textContent = String(mark);
    svg.append(line, label);
  }
  for (const family of families) {
    const points = history[family];
    /** @param {number} i @returns {number} */
    const x = (i) => pad + (points.length === 1 ? (width - pad) / 2
      : (i / (points.length - 1)) * (width - pad - 4));
    const top = points.map((p, i) => `${x(i)},${y(p.rating.rating + 2 * p.rating.rd)}`);
    const bottom = points.map((p, i) => `${x(i)},${y(p.rating.rating - 2 * p.rating.rd)}`).reverse();
    const band = document.createElementNS(SVG, "polygon");
    band.setAttribute("class", "band");
    band.setAttribute("fill", COLOURS[family] || "#555");
    band.setAttribute("points", [...top, ...bottom].join(" "));
    const line = document.createElementNS(SVG, "polyline");
    line.setAttribute("class", "line");
    line.setAttribute("stroke", COLOURS[family] || "#555");
    line.setAttribute("points", points.map((p, i) => `${x(i)},${y(p.rating.rating)}`).join(" "));
    svg.append(band, line);
  }
  const keys = el("ul", "chart-keys");
  for (const family of families) {
    const item = el("li");
    const swatch = el("i");
    swatch.style.background = COLOURS[family] || "#555";
    item.append(swatch, familyName(family));
    keys.append(item);
  }
  box.append(svg, keys);
}

/** A table of matches won, drawn and lost, a row for each key of `rows`.
 *  @param {string} title @param {Record<string, Tally>} rows
 *  @param {(key: string) => string} label a row's heading @returns {HTMLElement} */
function tallyTable(title, rows, label) {
  const box = el("div");
  box.append(el("h3", "", title));
  const table = el("table", "players-table");
  const head = el("tr");
  for (const key of ["profile.col_what", "profile.col_won", "profile.col_drawn", "profile.col_lost"]) {
    head.append(el("th", "", t(key)));
  }
  table.append(el("thead"), el("tbody"));
  table.tHead.append(head);
  for (const [name, tally] of Object.entries(rows)) {
    const row = el("tr");
    row.append(el("th", "", label(name)), el("td", "num", String(tally.won)),
      el("td", "num", String(tally.drawn)), el("td", "num", String(tally.lost)));
    table.tBodies[0].append(row);
  }
  box.append(table);
  return box;
}

/** The results: by level, by preset, by number of players.
 *  @param {HTMLElement} box @param {Summary} summary */
export function renderResults(box, summary) {
  const parts = [];
  if (Object.keys(summary.by_level).length) {
    parts.push(tallyTable(t("profile.by_level"), summary.by_level, (n) => t(`level.${n}`)));
  }
  if (Object.keys(summary.by_preset).length) {
    parts.push(tallyTable(t("profile.by_preset"), summary.by_preset, (n) => n));
  }
  if (Object.keys(summary.by_players).length) {
    parts.push(tallyTable(t("profile.by_players"), summary.by_players,
      (n) => t("profile.players_n", { count: Number(n) })));
  }
  box.replaceChildren(...parts);
}

/** One line per match, newest first: when, the game, the others, the result, a link to
 *  its Review (not for a terminal match, whose record is a file).
 *  @param {HTMLElement} list @param {ShownGame[]} games @param {number} [limit] */
export function renderGames(list, games, limit = 30) {
  list.replaceChildren(...games.slice(-limit).reverse().map((game) => {
    const item = el("li");
    const when = new Date(game.at * 1000).toLocaleDateString();
    const others = game.seats.filter((_n, seat) => seat !== game.me).map(displayName).join(", ");
    const result = game.winner === game.me ? t("profile.won") : t("profile.lost");
    item.append(el("span", "", t("profile.game_line", {
      when, preset: game.rules.preset || "standard", others, result })));
    if (game.where !== "terminal") {
      const link = el("a", "", t("profile.review"));
      link.href = paths.reviewPage(game.id);
      item.append(" ", link);
    }
    return item;
  }));
}
