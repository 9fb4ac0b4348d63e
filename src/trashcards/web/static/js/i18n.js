// @ts-check
// Message catalogs: one JSON file per language, keys with {placeholders}, plural forms
// chosen with Intl.PluralRules. No string is ever built by concatenating translations.

import { paths } from "./config.js";

export const LANGUAGES = [
  { code: "en", name: "English" },
  { code: "es", name: "Español" },
  { code: "nl", name: "Nederlands" },
  { code: "it", name: "Italiano" },
  { code: "vi", name: "Tiếng Việt" },
];
const CODES = LANGUAGES.map((l) => l.code);
const STORAGE_KEY = "trash.lang";

let catalog = {};
let fallback = {};
let lang = "en";
let plural = new Intl.PluralRules("en");
const listeners = [];

/** The language to use: the saved choice, else the browser's, else English. */
export function detectLanguage() {
  const saved = safeGet(STORAGE_KEY);
  if (saved && CODES.includes(saved)) return saved;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (CODES.includes(base)) return base;
  }
  return "en";
}

function safeGet(key) {
  try { return localStorage.getItem(key); } catch { return null; }
}

async function fetchCatalog(code) {
  const response = await fetch(paths.catalog(code));
  if (!response.ok) throw new Error(`catalog ${code}: HTTP ${response.status}`);
  return response.json();
}

/** Load a language (and English as the fallback for any missing key). */
export async function loadLanguage(code, { persist = false } = {}) {
  if (!CODES.includes(code)) code = "en";
  const [main, base] = await Promise.all([
    fetchCatalog(code),
    code === "en" ? Promise.resolve(null) : fetchCatalog("en"),
  ]);
  catalog = main;
  fallback = base || main;
  lang = code;
  plural = new Intl.PluralRules(code);
  document.documentElement.lang = code;
  if (persist) {
    try { localStorage.setItem(STORAGE_KEY, code); } catch { /* private mode */ }
  }
  for (const fn of listeners) fn(code);
}

export function currentLanguage() { return lang; }
export function onLanguageChange(fn) { listeners.push(fn); }

/** The message for key with {placeholders} filled; a plural message picks its form by
 *  params.count. */
export function t(key, params = {}) {
  let message = catalog[key] ?? fallback[key];
  if (message === undefined) return key;
  if (typeof message === "object") {
    const form = plural.select(Number(params.count ?? 0));
    message = message[form] ?? message.other;
  }
  return message.replace(/\{(\w+)\}/g, (whole, name) =>
    params[name] === undefined ? whole : String(params[name]));
}

/** Translate every element under root carrying data-i18n (text) or data-i18n-attr
 *  ("attr:key;attr:key"). @param {ParentNode} [root] */
export function translatePage(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) {
    if (el instanceof HTMLElement) el.textContent = t(el.dataset.i18n);
  }
  for (const el of root.querySelectorAll("[data-i18n-attr]")) {
    if (!(el instanceof HTMLElement)) continue;
    for (const pair of el.dataset.i18nAttr.split(";")) {
      const [attr, key] = pair.split(":");
      if (attr && key) el.setAttribute(attr.trim(), t(key.trim()));
    }
  }
}

/** Fill a <select> with the languages and switch (and remember) on change. */
export function mountLanguageSwitcher(select) {
  select.replaceChildren(...LANGUAGES.map(({ code, name }) => {
    const option = document.createElement("option");
    option.value = code;
    option.textContent = name;
    option.lang = code;
    return option;
  }));
  select.value = lang;
  onLanguageChange((code) => { select.value = code; });
  select.addEventListener("change", () => loadLanguage(select.value, { persist: true }));
}
