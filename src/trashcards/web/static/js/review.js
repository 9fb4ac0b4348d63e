// @ts-check
// The Review page: a record (a downloaded file, or the table of ?table=ID) is sent to
// the server, which judges every decision from what the players could see; the page draws
// each player's chance of winning the match across the match (an SVG chart drawn at the
// width it is shown, so its labels keep their size on a phone), gives each player's
// figures (mistakes, small losses, decisions that matched the best, the largest loss),
// tells every mistake and small loss in sentences beside the player's board (slot
// labels on the cards), and shows the position at any move (step with the buttons, the
// slider, the arrow keys, or a click on the chart or on a mistake). A table "On this
// device" (ids local-…), or any record when the server cannot be reached, is reviewed on
// this device instead, in a Web Worker (local/reviewworker.js), which answers what the
// server would: coarser, and the notes say so (docs/offline.md).

import { slotLabel } from "./board.js";
import { paths } from "./config.js";
import { buttonById, inputById } from "./dom.js";
import { cardElement, cardShort, isWildInSlot } from "./cards.js";
import { detectLanguage, loadLanguage, mountLanguageSwitcher, onLanguageChange, t,
         translatePage } from "./i18n.js";
import { isLocalTableId, localRecordText } from "./local/tables.js";
import { displayName } from "./names.js";
import { figuresOf, headingOf, lessonOf, points, say } from "./reviewtext.js";
import { percent } from "./winbar.js";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const COLOURS = ["#1b6fd1", "#c2410c", "#7e22ce", "#047857"];
/** The least cost of a mistake (trashcards.ai.review.THRESHOLD), for the notes. */
const THRESHOLD = 0.005;

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
  drawLessons();
  const slider = inputById("move-slider");
  slider.max = String(review.positions.length - 1);
  goTo(review.positions.length - 1);
}

// -- the chart --------------------------------------------------------------------------

// The chart is drawn in CSS pixels at the width it is shown (redrawn when that changes),
// so its labels keep their font size from a phone to a desktop.
let W = 640;
const H = 240;
const PAD = { left: 46, right: 12, top: 12, bottom: 30 };

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
  W = Math.max(280, Math.round($("chart").clientWidth || 640));
  const chart = svg("svg", { viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: "img",
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
                                 r: 4, class: "mistake",
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
  const labels = ["review.col_mistakes", "review.col_small", "review.col_matched",
                  "review.col_largest"];
  $("summary-body").replaceChildren(...review.summary.map((s) => {
    const row = document.createElement("tr");
    row.dataset.seat = String(s.seat);
    const name = document.createElement("th");
    name.scope = "row";
    const shown = displayName(s.name);
    name.textContent = s.seat === review.winner ? t("review.winner", { name: shown }) : shown;
    row.append(name);
    figuresOf(s).forEach((text, i) => {
      const td = document.createElement("td");
      td.dataset.label = t(labels[i]); // a phone shows each row as a card of labelled lines
      td.dataset.figure = labels[i].slice("review.col_".length);
      if (i === 3 && s.largest_loss) {
        const link = document.createElement("button");
        link.type = "button";
        link.className = "link-button";
        link.textContent = text;
        link.addEventListener("click", () => showLesson(s.largest_loss.move));
        td.append(link);
      } else {
        td.textContent = text;
      }
      row.append(td);
    });
    return row;
  }));
  // A review computed on this device (docs/offline.md) has far fewer deals: say so.
  const here = review.engine === "local" ? [t("review.local")] : [];
  $("review-notes").textContent = [
    t("review.method", { samples: review.samples, threshold: points(THRESHOLD, 1) }), ...here,
    ...review.notes].join(" ");
}

// -- the mistakes and small losses, in words ----------------------------------------------

function drawLessons() {
  const losses = review.decisions.filter((d) => d.kind !== "ok");
  $("lessons-note").textContent = t("review.lessons_note", { threshold: points(THRESHOLD, 1) });
  $("lessons-none").hidden = losses.length > 0;
  $("lessons-none").textContent = t("review.lessons_none");
  $("lessons").replaceChildren(...losses.map((d) => {
    const item = document.createElement("li");
    item.className = `lesson kind-${d.kind}`;
    item.id = `lesson-${d.move}`;
    item.dataset.move = String(d.move);
    item.dataset.kind = d.kind;
    const head = document.createElement("p");
    head.className = "lesson-head";
    const kind = document.createElement("span");
    kind.className = "lesson-kind";
    kind.textContent = t(`review.kind.${d.kind}`);
    const where = document.createElement("button");
    where.type = "button";
    where.className = "link-button lesson-where";
    where.textContent = headingOf(d, review.players[d.seat]);
    where.addEventListener("click", () => goTo(d.move, { scroll: true }));
    head.append(kind, " ", where);
    const text = document.createElement("p");
    text.className = "lesson-text";
    const before = review.positions[d.move];
    text.textContent = say(lessonOf(d, before, review.players[d.seat]));
    item.append(head, text, seatPosition(before, d.seat));
    return item;
  }));
}

/** Show the lesson of the decision at `move` (from the figures). */
function showLesson(move) {
  const item = $(`lesson-${move}`);
  if (item) {
    item.scrollIntoView({ block: "center" });
    const where = /** @type {HTMLElement | null} */ (item.querySelector(".lesson-where"));
    where?.focus({ preventScroll: true });
  }
}

/** A player's position before a decision: the top of the discard pile, the card in hand
 *  and the player's board, each card with its slot's label under it. */
function seatPosition(state, seat) {
  const box = document.createElement("div");
  box.className = "lesson-position";
  const piles = document.createElement("div");
  piles.className = "lesson-piles";
  const top = state.discard.length ? state.discard[state.discard.length - 1] : null;
  piles.append(labelledCard(top, t("review.discard_top"), { empty: !top }),
               labelledCard(state.in_hand, t("review.in_hand"), { empty: !state.in_hand }));
  const player = state.players[seat];
  const board = document.createElement("div");
  board.className = "lesson-board";
  const title = document.createElement("p");
  title.className = "lesson-board-title";
  title.textContent = t("review.board_of", { name: displayName(player.name) });
  board.append(title, slotsElement(player));
  box.append(piles, board);
  return box;
}

/** A card with a caption under it (a slot's label, or what the pile is). */
function labelledCard(card, caption, { wild = false, empty = false } = {}) {
  const figure = document.createElement("figure");
  figure.className = "labelled-card";
  const face = empty ? document.createElement("span") : cardElement(card, { wild });
  face.classList.add("small");
  if (empty) face.className = "card small empty";
  const label = document.createElement("figcaption");
  label.className = "slot-label";
  label.textContent = caption;
  figure.append(face, label);
  return figure;
}

/** A board's slots, each card with its label (A, 2 … 10) under it. */
function slotsElement(player) {
  const row = document.createElement("div");
  row.className = "review-slots";
  player.slots.forEach((slot, i) => {
    const card = slot.up ? slot.card : null;
    row.append(labelledCard(card, slotLabel(i + 1),
                            { wild: Boolean(slot.up && isWildInSlot(slot.card, i + 1)) }));
  });
  return row;
}

// -- the position -----------------------------------------------------------------------

/** Show the position before move `index` (index = number of moves played); with
 *  `scroll`, bring the position into view. */
function goTo(index, { scroll = false } = {}) {
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
  if (scroll) $("position-title").scrollIntoView({ block: "start" });
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
  return say(lessonOf(d, review.positions[d.move], review.players[d.seat]));
}

function drawPosition(state) {
  const boards = state.players.map((player, seat) => {
    const box = document.createElement("div");
    box.className = "review-board" + (state.to_act === seat ? " to-act" : "");
    box.dataset.seat = String(seat);
    const title = document.createElement("h3");
    title.textContent = t("review.board_title", { name: displayName(player.name),
                                                  count: player.rounds_won });
    box.append(title, slotsElement(player));
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

/** The page's controls. A record chosen while the page's language is still loading is
 *  reviewed once it is there (`language`), not lost.
 *  @param {Promise<unknown>} language */
function wire(language) {
  $("record-file").addEventListener("change", async (event) => {
    const file = /** @type {HTMLInputElement} */ (event.target).files?.[0];
    if (!file) return;
    const text = await file.text();
    await language;
    reviewText(text);
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
  const language = loadLanguage(detectLanguage());
  wire(language);
  await language;
  translatePage();
  mountLanguageSwitcher($("lang"));
  onLanguageChange(() => {
    translatePage();
    if (review) { drawChart(); drawSummary(); drawLessons(); goTo(at); }
  });
  // The chart is drawn at its shown width: draw it again when that changes.
  let shownWidth = 0;
  new ResizeObserver(() => {
    const width = Math.round($("chart").clientWidth);
    if (review && width && width !== shownWidth) { shownWidth = width; drawChart(); goTo(at); }
  }).observe($("chart"));
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
