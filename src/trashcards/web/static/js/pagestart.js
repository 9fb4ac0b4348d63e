// @ts-check
// What every players' page does first: its language, its title, the language switcher
// and the rules link.

import {
  currentLanguage, detectLanguage, loadLanguage, mountLanguageSwitcher, onLanguageChange, t,
  translatePage,
} from "./i18n.js";
import { paths } from "./config.js";
import { selectById } from "./dom.js";

/** Load the language, translate the page, title it with `titleKey`; whenever the
 *  language changes, do it again and run `render` (the page draws itself the first time).
 *  @param {string} titleKey @param {() => void} render @returns {Promise<void>} */
export async function startPage(titleKey, render) {
  await loadLanguage(detectLanguage());
  const retitle = () => {
    translatePage();
    document.title = t(titleKey);
    const rules = document.getElementById("rules-link");
    if (rules instanceof HTMLAnchorElement) rules.href = paths.rulesPage(currentLanguage());
  };
  retitle();
  mountLanguageSwitcher(selectById("lang"));
  onLanguageChange(() => { retitle(); render(); });
}
