// @ts-check
// The rules page: /rules/{lang} shows that language, /rules the browser's (or the saved
// choice). The text of each language is a static HTML fragment under static/rules/.

import {
  LANGUAGES, currentLanguage, detectLanguage, loadLanguage, mountLanguageSwitcher,
  onLanguageChange, t, translatePage,
} from "./i18n.js";
import { paths, routeParts } from "./config.js";

function languageFromPath() {
  const parts = routeParts();
  const code = parts[0] === "rules" ? parts[1] : null;
  return LANGUAGES.some((l) => l.code === code) ? code : null;
}

async function showRules() {
  const lang = currentLanguage();
  const article = document.getElementById("rules-text");
  const response = await fetch(paths.rulesFragment(lang));
  article.innerHTML = response.ok ? await response.text() : "";
  article.lang = lang;
  document.title = t("rules.page_title");
  translatePage();
  const wanted = paths.rulesPage(lang);
  if (location.pathname !== wanted) {
    // A static copy's links are relative to this address: fix them before it changes.
    for (const link of document.querySelectorAll("a[href]")) {
      if (link.closest("#rules-text") || link.getAttribute("href").startsWith("#")) continue;
      link.setAttribute("href", /** @type {HTMLAnchorElement} */ (link).href);
    }
    history.replaceState(null, "", wanted);
  }
}

async function main() {
  const fromPath = languageFromPath();
  await loadLanguage(fromPath || detectLanguage());
  mountLanguageSwitcher(document.getElementById("lang"));
  onLanguageChange(showRules);
  await showRules();
}

main();
