// What the profile page and a player's page both draw, from plain data: the ratings
// table, the rating chart, the results tables and the list of matches.

import { t } from "./i18n.js";
import { paths } from "./config.js";
import { displayName } from "./names.js";
import { interval, isProvisional } from "./ratings.js";

const SVG = "http://www.w3.org/2000/svg";
const COLOURS = { standard: "#0b6e4f", "call-trash": "#a4001c", kids: "#0a5a8a", short: "#8a5a00" };

function el(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = text;
  if (className) node.className = className;
  return node;
}

/** "1612" or "1540?" (provisional). */
export function ratingText(r) {
  return `${Math.round(r.rating)}${isProvisional(r) ? "?" : ""}`;
}

export function rangeText(r) {
  const [low, high] = interval(r);
  return t("profile.range", { low, high });
}

export const familyName = (family) => t(`family.${family}`);

/** Rows of the ratings table: ratings {family: {rating, rd, volatility}}, counts
 *  {family: rated matches}. */
export function renderRatings(body, ratings, counts) {
  const families = Object.keys(ratings);
  body.replaceChildren(...families.map((family) => {
    const row = el("tr");
    const r = ratings[family];
    row.append(el("th", familyName(family)), el("td", ratingText(r), "num rating-value"),
      el("td", rangeText(r)), el("td", String(counts[family] || 0), "num"));
    row.firstChild.scope = "row";
    row.dataset.family = family;
    if (isProvisional(r)) row.title = t("profile.provisional");
    return row;
  }));
  if (!families.length) {
    const row = el("tr");
    const cell = el("td", t("profile.no_rating"));
    cell.colSpan = 4;
    row.append(cell);
    body.replaceChildren(row);
  }
}

/** The rating chart: one line per family over its rated matches, the 95 % band behind
 *  it. `history` is {family: [{rating: {rating, rd}}]}. */
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
  const y = (v) => height - pad / 2 - ((v - low) / (high - low)) * (height - pad);
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", t("profile.chart_label"));
  for (const mark of [1535, 1596, 1670]) {
    if (mark < low || mark > high) continue;
    const line = document.createElementNS(SVG, "line");
    line.setAttribute("class", "axis");
    line.setAttribute("x1", pad); line.setAttribute("x2", width);
    line.setAttribute("y1", y(mark)); line.setAttribute("y2", y(mark));
    const label = document.createElementNS(SVG, "text");
    label.setAttribute("x", 0); label.setAttribute("y", y(mark) + 4);
    label.textContent = String(mark);
    svg.append(line, label);
  }
  for (const family of families) {
    const points = history[family];
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
  const keys = el("ul", null, "chart-keys");
  for (const family of families) {
    const item = el("li");
    const swatch = el("i");
    swatch.style.background = COLOURS[family] || "#555";
    item.append(swatch, familyName(family));
    keys.append(item);
  }
  box.append(svg, keys);
}

function tallyTable(title, rows, label) {
  const box = el("div");
  box.append(el("h3", title));
  const table = el("table", null, "players-table");
  const head = el("tr");
  for (const key of ["profile.col_what", "profile.col_won", "profile.col_drawn", "profile.col_lost"]) {
    head.append(el("th", t(key)));
  }
  table.append(el("thead"), el("tbody"));
  table.tHead.append(head);
  for (const [name, tally] of Object.entries(rows)) {
    const row = el("tr");
    row.append(el("th", label(name)), el("td", String(tally.won), "num"),
      el("td", String(tally.drawn), "num"), el("td", String(tally.lost), "num"));
    table.tBodies[0].append(row);
  }
  box.append(table);
  return box;
}

/** The results: by level, by preset, by number of players. */
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
 *  its Review (not for a terminal match, whose record is a file). */
export function renderGames(list, games, limit = 30) {
  list.replaceChildren(...games.slice(-limit).reverse().map((game) => {
    const item = el("li");
    const when = new Date(game.at * 1000).toLocaleDateString();
    const others = game.seats.filter((_n, seat) => seat !== game.me).map(displayName).join(", ");
    const result = game.winner === game.me ? t("profile.won") : t("profile.lost");
    item.append(el("span", t("profile.game_line", {
      when, preset: game.rules.preset || "standard", others, result })));
    if (game.where !== "terminal") {
      const link = el("a", t("profile.review"));
      link.href = paths.reviewPage(game.id);
      item.append(" ", link);
    }
    return item;
  }));
}
