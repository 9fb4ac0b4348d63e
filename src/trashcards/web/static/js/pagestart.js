// What every players' page does first: its language, its title, the language switcher
// and the rules link.

import {
  currentLanguage, detectLanguage, loadLanguage, mountLanguageSwitcher, onLanguageChange, t,
  translatePage,
} from "./i18n.js";
import { paths } from "./config.js";

/** Load the language, translate the page, title it with `titleKey`; `render` runs now
 *  and again whenever the language changes. */
export async function startPage(titleKey, render) {
  await loadLanguage(detectLanguage());
  const retitle = () => {
    translatePage();
    document.title = t(titleKey);
    const rules = document.getElementById("rules-link");
    if (rules) rules.href = paths.rulesPage(currentLanguage());
  };
  retitle();
  mountLanguageSwitcher(document.getElementById("lang"));
  onLanguageChange(() => { retitle(); render(); });
}
