// @ts-check
// The profile page (/profile): this device's profile (profile.js) drawn with its
// ratings, chart, results and matches; the name changed; the profile exported to a file
// or a file's matches imported. With a server, accountbox.js adds signing in.

import { t } from "./i18n.js";
import {
  ProfileError, exportProfile, familyOfGame, isRated, loadProfile, mergeProfile, parseProfile,
  ratingHistory, ratingsNow, saveProfile, summary,
} from "./profile.js";
import { renderChart, renderGames, renderRatings, renderResults } from "./playerviews.js";
import { mountAccount, refresh as refreshAccount } from "./accountbox.js";
import { startPage } from "./pagestart.js";
import { nameProblem } from "./names.js";
import { buttonById, byId, inputById } from "./dom.js";

/** Draw this device's profile (again after a change, and when the language changes). */
function render() {
  const profile = loadProfile();
  inputById("profile-name").value = profile.name;
  const sums = summary(profile);
  byId("record-line").textContent = t("profile.record", {
    count: sums.games, won: sums.won, streak: sums.streak, best: sums.best_streak });
  /** @type {Record<string, number>} */
  const counts = {};
  for (const game of profile.games) {
    if (isRated(game)) counts[familyOfGame(game)] = (counts[familyOfGame(game)] || 0) + 1;
  }
  renderRatings(byId("ratings-body"), ratingsNow(profile), counts);
  renderChart(byId("rating-chart"), ratingHistory(profile));
  renderResults(byId("results"), sums);
  renderGames(byId("games-list"), profile.games);
  byId("no-games").hidden = profile.games.length > 0;
}

/** The forms: change the name, export the profile, import a file's matches. */
function wire() {
  byId("name-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const name = inputById("profile-name").value.trim();
    if (nameProblem(name)) {  // a name the profile would not read back is never saved
      byId("name-status").textContent = t("profile.bad_name");
      return;
    }
    const profile = loadProfile();
    profile.name = name;
    saveProfile(profile);
    byId("name-status").textContent = t("profile.saved");
  });
  buttonById("export-profile").addEventListener("click", () => {
    const link = document.createElement("a");
    link.href = URL.createObjectURL(exportProfile(loadProfile()));
    link.download = "trash-profile.json";
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
  });
  const picker = inputById("import-profile");
  picker.addEventListener("change", async () => {
    const file = picker.files[0];
    if (!file) return;
    try {
      const other = parseProfile(await file.text());
      const profile = loadProfile();
      const added = mergeProfile(profile, other);
      saveProfile(profile);
      byId("file-status").textContent = t("profile.imported", { count: added });
      render();
    } catch (err) {
      const why = err instanceof ProfileError ? err.message : String(err);
      byId("file-status").textContent = t("profile.import_failed", { why });
    }
    picker.value = "";
  });
}

/** Start the page: its language, the profile, and the account part with a server. */
async function main() {
  await startPage("profile.page_title", () => { render(); refreshAccount(); });
  wire();
  render();
  await mountAccount(byId("account-box"), render);
  document.body.dataset.ready = "1";
}

main();
