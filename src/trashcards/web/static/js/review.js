// @ts-check
// The Review page: a record (a downloaded file, or the table of ?table=ID) is sent to
// the server, which judges every decision from what the players could see; the page draws
// each player's chance of winning the match across the match (an SVG chart), sums up
// each player, and shows the position at any move (step with the buttons, the slider,
// the arrow keys, or a click on the chart). A table "On this device" (ids local-…), or
// any record when the server cannot be reached, is reviewed on this device instead, in a
// Web Worker (local/reviewworker.js), which answers what the server would: coarser, and
// the notes say so (docs/offline.md).

import { paths } from "./config.js";
import { buttonById, inputById } from "./dom.js";
import { cardElement, cardShort, isWildInSlot } from "./cards.js";
import { describeAction } from "./hint.js";
import { detectLanguage, loadLanguage, mountLanguageSwitcher, onLanguageChange, t,
         translatePage } from "./i18n.js";
import { isLocalTableId, localRecordText } from "./local/tables.js";
import { displayName } from "./names.js";
import { percent } from "./winbar.js";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const COLOURS = ["#1b6fd1", "#c2410c", "#7e22ce", "#047857"];

let review = null;
let moves = [];
let at = 0;

function svg(name, attrs = {}) {
  const el = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, String(value));
  return el;
}

function showError(message) {
  $("review-error").textContent = message;
  $("review-error").hidden = !message;
}

/** The review's time on this device in ms (a page may set window.trashReviewBudget
 *  first: the tests do), or undefined for the default. */
function localBudget() {
  const wanted = Number(globalThis.trashReviewBudget);
  return Number.isFinite(wanted) && wanted > 0 ? wanted : undefined;
}

/** Review the record text on this device, in a Web Worker: {body} or {error}. */
function reviewHere(text) {
  return new Promise((resolve) => {
    const worker = new Worker(new URL("./local/reviewworker.js", import.meta.url),
                              { type: "module" });
    const finish = (result) => { worker.terminate(); resolve(result); };
    worker.addEventListener("message", (event) => {
      const msg = event.data || {};
      if (msg.type === "progress") {
        $("review-status").textContent = t("review.working_local",
                                           { done: msg.done, total: msg.total });
      } else if (msg.type === "review") {
        finish({ body: msg.review });
      } else {
        finish({ error: msg.message || "?" });
      }
    });
    worker.addEventListener("error", (event) => finish({ error: event.message || "?" }));
    $("review-status").textContent = t("review.working_local", { done: 0, total: "…" });
    worker.postMessage({ text, budgetMs: localBudget() });
  });
}

/** Send the record text to the server and show its review; with `here` (a table on
 *  this device), or when the server cannot be reached, review it on this device. */
async function reviewText(text, { here = false } = {}) {
  showError("");
  let body = null;
  let local = here;
  if (!local) {
    $("review-status").textContent = t("review.working");
    let response;
    try {
      response = await fetch(paths.review, {
        method: "POST", body: text,
        headers: { "Content-Type": "application/json", Accept: "application/json" },
      });
      body = await response.json();
    } catch {
      local = true; // no server (offline, or a static copy of the app): review it here
    }
    if (!local && !response.ok) {
      $("review-status").textContent = "";
      showError(t("review.failed", { reason: body?.message || `HTTP ${response.status}` }));
      return;
    }
  }
  if (local) {
    const found = await reviewHere(text);
    if (found.error !== undefined) {
      $("review-status").textContent = "";
      showError(t("review.failed", { reason: found.error }));
      return;
    }
    body = found.body;
  }
  $("review-status").textContent = "";
  try { moves = JSON.parse(text).moves || []; } catch { moves = []; }
  review = body;
  // People read the computer's seats by their level, in their language ("bot:greedy"
  // is "Computer (good)"), as on the table.
  review.raw_players = review.players;
  review.players = review.players.map((name) => displayName(name));
  show();
}

function show() {
  $("review").hidden = false;
  drawChart();
  drawSummary();
  const slider = inputById("move-slider");
  slider.max = String(review.positions.length - 1);
  goTo(review.positions.length - 1);
}

// -- the chart --------------------------------------------------------------------------

const W = 640, H = 240, PAD = { left: 44, right: 12, top: 10, bottom: 28 };

function x(move) {
  const last = Math.max(1, review.positions.length - 1);
  return PAD.left + (move / last) * (W - PAD.left - PAD.right);
}
function y(chance) { return PAD.top + (1 - chance) * (H - PAD.top - PAD.bottom); }

/** Each player's chance along the match as [position, chance] points: a decision at
 *  move m gives the chance before it (position m, the best action assumed) and after it
 *  (position m + 1, the action taken); the end of a round, the chance after it. */
function series(seat) {
  const points = [];
  for (const point of review.curve) {
    if (point.decision) points.push([point.move, point.before[seat]]);
    points.push([point.move + 1, point.after[seat]]);
  }
  return points;
}

function drawChart() {
  const chart = svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img",
                             "aria-labelledby": "chart-title", class: "chart-svg" });
  for (const level of [0, 0.25, 0.5, 0.75, 1]) {
    chart.append(svg("line", { x1: PAD.left, x2: W - PAD.right, y1: y(level), y2: y(level),
                               class: level === 0.5 ? "grid mid" : "grid" }));
    const label = svg("text", { x: PAD.left - 6, y: y(level) + 4, class: "axis",
                                "text-anchor": "end" });
    label.textContent = `${Math.round(level * 100)} %`;
    chart.append(label);
  }
  const axis = svg("text", { x: (W + PAD.left) / 2, y: H - 6, class: "axis",
                             "text-anchor": "middle" });
  axis.textContent = t("review.axis_moves", { count: review.positions.length - 1 });
  chart.append(axis);
  review.players.forEach((name, seat) => {
    const d = series(seat).map(([m, c], i) => `${i ? "L" : "M"}${x(m).toFixed(1)},${y(c).toFixed(1)}`);
    chart.append(svg("path", { d: d.join(" "), class: `curve seat-${seat}`,
                               stroke: COLOURS[seat % COLOURS.length], fill: "none",
                               "data-seat": seat }));
  });
  for (const decision of review.decisions.filter((d) => d.mistake)) {
    chart.append(svg("circle", { cx: x(decision.move), cy: y(decision.match_win_before),
                                 r: 3.5, class: "mistake",
                                 fill: COLOURS[decision.seat % COLOURS.length] }));
  }
  const cursor = svg("line", { id: "chart-cursor", class: "cursor", y1: PAD.top,
                               y2: H - PAD.bottom, x1: x(0), x2: x(0) });
  chart.append(cursor);
  chart.addEventListener("click", (event) => {
    const box = chart.getBoundingClientRect();
    const px = ((event.clientX - box.left) / box.width) * W;
    const last = review.positions.length - 1;
    const move = Math.round(((px - PAD.left) / (W - PAD.left - PAD.right)) * last);
    goTo(Math.max(0, Math.min(last, move)));
  });
  $("chart").replaceChildren(chart);
  $("chart-legend").replaceChildren(...review.players.map((name, seat) => {
    const item = document.createElement("li");
    const swatch = document.createElement("span");
    swatch.className = "chart-swatch";
    swatch.style.background = COLOURS[seat % COLOURS.length];
    swatch.setAttribute("aria-hidden", "true");
    const final = review.curve.length ? review.curve[review.curve.length - 1].after[seat] : 0;
    item.append(swatch, document.createTextNode(
      t("review.legend", { name, percent: percent(final, true) })));
    return item;
  }));
}

// -- the summary ------------------------------------------------------------------------

function drawSummary() {
  $("summary-body").replaceChildren(...review.summary.map((s) => {
    const row = document.createElement("tr");
    row.dataset.seat = String(s.seat);
    const name = document.createElement("th");
    name.scope = "row";
    const shown = displayName(s.name);
    name.textContent = s.seat === review.winner ? t("review.winner", { name: shown }) : shown;
    row.append(name);
    const cells = [
      t("review.percent", { percent: Math.round(s.accuracy * 100) }),
      t("review.mistakes", { count: s.mistakes, decisions: s.decisions }),
      t("review.points", { points: (s.total_cost * 100).toFixed(1) }),
    ];
    const labels = ["review.col_accuracy", "review.col_mistakes", "review.col_cost"];
    cells.forEach((text, i) => {
      const td = document.createElement("td");
      td.textContent = text;
      td.dataset.label = t(labels[i]); // a phone shows each row as a card of labelled lines
      row.append(td);
    });
    const biggest = document.createElement("td");
    biggest.dataset.label = t("review.col_biggest");
    s.biggest_mistakes.forEach((move, i) => {
      const link = document.createElement("button");
      link.type = "button";
      link.className = "link-button";
      link.textContent = String(move + 1);
      link.addEventListener("click", () => goTo(move));
      if (i) biggest.append(" ");
      biggest.append(link);
    });
    if (!s.biggest_mistakes.length) biggest.textContent = t("review.none");
    row.append(biggest);
    return row;
  }));
  // A review computed on this device (docs/offline.md) has far fewer deals: say so.
  const here = review.engine === "local" ? [t("review.local")] : [];
  $("review-notes").textContent = [
    t("review.method", { samples: review.samples }), ...here, ...review.notes].join(" ");
}

// -- the position -----------------------------------------------------------------------

/** Show the position before move `index` (index = number of moves played). */
function goTo(index) {
  at = index;
  inputById("move-slider").value = String(index);
  const cursor = $("chart-cursor");
  if (cursor) { cursor.setAttribute("x1", String(x(index))); cursor.setAttribute("x2", String(x(index))); }
  const total = review.positions.length - 1;
  const next = moves[index];
  $("move-text").textContent = next === undefined
    ? t("review.at_end", { count: total })
    : t("review.at_move", { n: index + 1, count: total, move: moveSentence(index, next) });
  const decision = review.decisions.find((d) => d.move === index);
  $("decision-text").textContent = decision ? decisionText(decision) : "";
  $("decision-text").className = decision?.mistake ? "decision-text mistake" : "decision-text";
  drawPosition(review.positions[index]);
  buttonById("prev-move").disabled = index === 0;
  buttonById("first-move").disabled = index === 0;
  buttonById("next-move").disabled = index === total;
  buttonById("last-move").disabled = index === total;
}

/** Move `index` of the record (its text `move`) as the table's log says it: "Ana takes
 *  7♥ from the discard pile." The cards come from the positions before and after it. */
function moveSentence(index, move) {
  const before = review.positions[index];
  const after = review.positions[index + 1] || before;
  const text = String(move);
  const [, prefix, rest] = /^(?:(\d+):\s*)?(.*)$/.exec(text.trim()) || [];
  const [verb, arg] = (rest || "").split(/\s+/);
  const seat = prefix === undefined ? null : Number(prefix);
  const name = seat === null ? "" : review.players[seat] || String(seat);
  const short = (card) => (card ? cardShort(card) : "?");
  const top = (state) => (state.discard.length ? state.discard[state.discard.length - 1] : null);
  switch (verb) {
    case "dealer":
      return t("event.dealer_first", { name: review.players[Number(arg)] || arg });
    case "deck":
      return t("event.dealt", { round: after.round,
        dealer: review.players[after.dealer] || "", first: review.players[after.to_act] || "" });
    case "reshuffle":
      return t("event.reshuffled", { count: after.stock_count });
    case "stock": // the card drawn may have gone on at once (a chain): not named
      return t("review.drew_stock", { name });
    case "discard":
      return t("event.drew_discard", { name, card: short(top(before)) });
    case "wild":
      return t("event.placed_wild", { name, card: short(before.in_hand), slot: arg });
    case "swap": {
      const was = before.players[seat] ? before.players[seat].slots : [];
      const now = after.players[seat] ? after.players[seat].slots : [];
      const k = was.findIndex((slot, i) => slot.up && slot.card && isWildInSlot(slot.card, i + 1)
        && now[i] && now[i].card === before.in_hand);
      return t("event.swapped", { name, card: short(before.in_hand), slot: k + 1,
        wild: short(k >= 0 ? was[k].card : null) });
    }
    case "trash":
      return t("event.discarded", { name, card: short(before.in_hand) });
    case "call":
      return t("event.called", { name });
    default:
      return text;
  }
}

function decisionText(d) {
  const name = review.players[d.seat];
  if (d.taken === d.best) {
    return t("review.decision_best", { name, action: describeAction(d.taken),
                                       percent: percent(d.match_win_before) });
  }
  return t("review.decision_other", {
    name, action: describeAction(d.taken), best: describeAction(d.best),
    points: (d.cost * 100).toFixed(1), low: (d.cost_ci[0] * 100).toFixed(1),
    high: (d.cost_ci[1] * 100).toFixed(1) });
}

function drawPosition(state) {
  const boards = state.players.map((player, seat) => {
    const box = document.createElement("div");
    box.className = "review-board" + (state.to_act === seat ? " to-act" : "");
    box.dataset.seat = String(seat);
    const title = document.createElement("h3");
    title.textContent = t("review.board_title", { name: displayName(player.name),
                                                  count: player.rounds_won });
    const row = document.createElement("div");
    row.className = "review-slots";
    player.slots.forEach((slot, i) => {
      const card = cardElement(slot.up ? slot.card : null,
                               { wild: Boolean(slot.up && isWildInSlot(slot.card, i + 1)) });
      card.classList.add("small");
      row.append(card);
    });
    box.append(title, row);
    return box;
  });
  const facts = document.createElement("p");
  facts.className = "review-facts";
  const top = state.discard.length ? cardShort(state.discard[state.discard.length - 1]) : t("pile.empty");
  facts.textContent = t("review.facts", {
    round: state.round, stock: state.stock_count, discard: top,
    hand: state.in_hand ? cardShort(state.in_hand) : t("review.nothing") });
  $("position").replaceChildren(facts, ...boards);
}

// -- start ------------------------------------------------------------------------------

function wire() {
  $("record-file").addEventListener("change", async (event) => {
    const file = /** @type {HTMLInputElement} */ (event.target).files?.[0];
    if (!file) return;
    reviewText(await file.text());
  });
  $("first-move").addEventListener("click", () => goTo(0));
  $("prev-move").addEventListener("click", () => goTo(Math.max(0, at - 1)));
  $("next-move").addEventListener("click", () =>
    goTo(Math.min(review.positions.length - 1, at + 1)));
  $("last-move").addEventListener("click", () => goTo(review.positions.length - 1));
  inputById("move-slider").addEventListener("input", (event) => goTo(Number(/** @type {HTMLInputElement} */ (event.target).value)));
  document.addEventListener("keydown", (event) => {
    if (!review || event.target instanceof HTMLInputElement && event.target.type !== "range") return;
    if (event.key === "ArrowLeft") { goTo(Math.max(0, at - 1)); event.preventDefault(); }
    if (event.key === "ArrowRight") {
      goTo(Math.min(review.positions.length - 1, at + 1));
      event.preventDefault();
    }
  });
}

async function main() {
  await loadLanguage(detectLanguage());
  translatePage();
  mountLanguageSwitcher($("lang"));
  onLanguageChange(() => { translatePage(); if (review) { drawChart(); drawSummary(); goTo(at); } });
  wire();
  const table = new URLSearchParams(location.search).get("table");
  if (table && isLocalTableId(table)) {
    const text = await localRecordText(table);
    if (text === null) { showError(t("review.failed", { reason: t("error.no_table") })); return; }
    reviewText(text, { here: true });
  } else if (table) {
    let response;
    try {
      response = await fetch(paths.record(table));
    } catch {
      showError(t("review.failed", { reason: t("review.no_server") }));
      return;
    }
    if (!response.ok) { showError(t("review.failed", { reason: `HTTP ${response.status}` })); return; }
    reviewText(await response.text());
  }
}

main();
