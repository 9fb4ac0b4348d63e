// The profile page (/profile): this device's profile (profile.js) drawn with its
// ratings, chart, results and matches; the name changed; the profile exported to a file
// or a file's matches imported. With a server, accounts.js adds signing in.

import {
  currentLanguage, detectLanguage, loadLanguage, mountLanguageSwitcher, onLanguageChange, t,
  translatePage,
} from "./i18n.js";
import { paths } from "./config.js";
import {
  ProfileError, exportProfile, familyOfGame, isRated, loadProfile, mergeProfile, parseProfile,
  ratingHistory, ratingsNow, saveProfile, summary,
} from "./profile.js";
import { renderChart, renderGames, renderRatings, renderResults } from "./playerviews.js";
import { mountAccount, refresh as refreshAccount } from "./accountbox.js";

const $ = (id) => document.getElementById(id);

function render() {
  const profile = loadProfile();
  $("profile-name").value = profile.name;
  const sums = summary(profile);
  $("record-line").textContent = t("profile.record", {
    count: sums.games, won: sums.won, streak: sums.streak, best: sums.best_streak });
  const counts = {};
  for (const game of profile.games) {
    if (isRated(game)) counts[familyOfGame(game)] = (counts[familyOfGame(game)] || 0) + 1;
  }
  renderRatings($("ratings-body"), ratingsNow(profile), counts);
  renderChart($("rating-chart"), ratingHistory(profile));
  renderResults($("results"), sums);
  renderGames($("games-list"), profile.games);
  $("no-games").hidden = profile.games.length > 0;
}

function wire() {
  $("name-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const name = $("profile-name").value.trim();
    if (!name || name.length > 24 || name.startsWith("bot:")) {
      $("name-status").textContent = t("profile.bad_name");
      return;
    }
    const profile = loadProfile();
    profile.name = name;
    saveProfile(profile);
    $("name-status").textContent = t("profile.saved");
  });
  $("export-profile").addEventListener("click", () => {
    const link = document.createElement("a");
    link.href = URL.createObjectURL(exportProfile(loadProfile()));
    link.download = "trash-profile.json";
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
  });
  $("import-profile").addEventListener("change", async (event) => {
    const file = event.target.files[0];
    if (!file) return;
    try {
      const other = parseProfile(await file.text());
      const profile = loadProfile();
      const added = mergeProfile(profile, other);
      saveProfile(profile);
      $("file-status").textContent = t("profile.imported", { count: added });
      render();
    } catch (err) {
      const why = err instanceof ProfileError ? err.message : String(err);
      $("file-status").textContent = t("profile.import_failed", { why });
    }
    event.target.value = "";
  });
}

async function main() {
  await loadLanguage(detectLanguage());
  translatePage();
  mountLanguageSwitcher($("lang"));
  const retitle = () => {
    document.title = t("profile.page_title");
    $("rules-link").href = paths.rulesPage(currentLanguage());
  };
  retitle();
  onLanguageChange(() => { translatePage(); retitle(); render(); refreshAccount(); });
  wire();
  render();
  await mountAccount($("account-box"), render);
  document.body.dataset.ready = "1";
}

main();
