// @ts-check
// Player names as people read them. The server names a computer's seat after its kind,
// as every record does ("bot:greedy", "bot:greedy:2" for a second one); the page shows it
// in the viewer's own language ("Computer (good)", "Ordenador (bueno) 2"). People's
// names are shown as they were typed (the server refuses names starting with "bot:").

import { t } from "./i18n.js";

const BOT_NAME = /^bot:([a-z]+)(?::(\d+))?$/;

/** The bot kind and copy number of a seat name, or null for a person's name. */
export function botOf(name) {
  const match = BOT_NAME.exec(String(name ?? ""));
  return match ? { kind: match[1], copy: match[2] ? Number(match[2]) : 1 } : null;
}

/** The lobby's ladder of levels, by the bot kind that plays each: one name per level on
 *  every page (seats, log, standings, hints, the party page and the Review). Records keep
 *  the kind ("bot:greedy"). */
export const LEVEL_OF = { sometimes: "beginner", kid: "casual", greedy: "good", expert: "expert" };

/** The level word of a bot kind ("good" for greedy), or the kind's own word for a bot
 *  off the ladder ("hard", "random"), or the kind itself for an experiment. */
export function levelName(kind) {
  const key = `level.${LEVEL_OF[kind] || kind}`;
  const text = t(key);
  return text === key ? kind : text;
}

/** A seat name for people, in the current language. */
export function displayName(name) {
  const bot = botOf(name);
  if (!bot) return name ?? "";
  const level = levelName(bot.kind);
  return bot.copy > 1 ? t("bot.display_n", { level, n: bot.copy }) : t("bot.display", { level });
}

/** Characters a name may not hold (as trashcards.names refuses them): control, surrogate,
 *  line and paragraph separators, and the bidirectional formatting characters. */
const REFUSED = /[\p{Cc}\p{Cs}\p{Zl}\p{Zp}\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;
export const MAX_NAME = 24;

/**
 * Why a name breaks trashcards.names.check_name, as a message key, or null: empty (once
 * trimmed), a refused character, or more than MAX_NAME characters (code points, as
 * Python counts them: "😀" is one).
 * @param {unknown} text @returns {string|null}
 */
export function nameFault(text) {
  const name = String(text ?? "").trim();
  if (!name) return "name.empty";
  if (REFUSED.test(name)) return "name.bad_char";
  if ([...name].length > MAX_NAME) return "name.too_long";
  return null;
}

/**
 * Why a name people typed would be refused, as a message key, or null when it is fine:
 * the server's own check (trashcards.names.check_name, and no "bot:" prefix), said in
 * the reader's language before asking. The server still decides.
 */
export function nameProblem(text) {
  const name = String(text ?? "").trim();
  const fault = nameFault(name);
  if (fault) return fault;
  if (name.toLowerCase().startsWith("bot:")) return "name.reserved";
  return null;
}
