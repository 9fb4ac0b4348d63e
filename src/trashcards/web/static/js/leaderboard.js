// The leaderboards (/leaderboard): per family, the top 100 active rated players and,
// signed in, your own rank.

import { t } from "./i18n.js";
import { paths, root } from "./config.js";
import { FAMILIES } from "./ratings.js";
import { startPage } from "./pagestart.js";
import { familyName, rangeText, ratingText } from "./playerviews.js";

const $ = (id) => document.getElementById(id);
const API = paths.tables.replace(/\/api\/tables$/, "");
let family = new URLSearchParams(location.search).get("family") || "standard";
let shown = null;

function fillFamilies() {
  $("board-family").replaceChildren(...FAMILIES.map((name) => {
    const option = document.createElement("option");
    option.value = name;
    option.textContent = familyName(name);
    return option;
  }));
  $("board-family").value = family;
}

function render() {
  fillFamilies();
  if (!shown) return;
  $("board-help").textContent = t("leaders.help", { days: shown.active_days });
  $("board-body").replaceChildren(...shown.players.map((entry) => {
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
  $("board-empty").hidden = shown.players.length > 0;
  $("board-you").textContent = shown.you
    ? t("leaders.you", { rank: shown.you.rank, count: shown.ranked }) : "";
}

async function load() {
  const response = await fetch(`${API}/api/leaderboard/${encodeURIComponent(family)}`,
    { credentials: "same-origin" });
  shown = response.ok ? await response.json() : null;
  render();
  document.body.dataset.ready = "1";
}

async function main() {
  await startPage("leaders.page_title", render);
  fillFamilies();
  $("board-family").addEventListener("change", () => {
    family = $("board-family").value;
    history.replaceState(null, "", `?family=${family}`);
    load();
  });
  await load();
}

main();
