// Player names as people read them. The server names a computer's seat after its kind,
// as every record does ("bot:greedy", "bot:greedy:2" for a second one); the page shows it
// in the viewer's own language ("Computer (medium)", "Ordenador (medio) 2"). People's
// names are shown as they were typed (the server refuses names starting with "bot:").

import { t } from "./i18n.js";

const BOT_NAME = /^bot:([a-z]+)(?::(\d+))?$/;

/** The bot kind and copy number of a seat name, or null for a person's name. */
export function botOf(name) {
  const match = BOT_NAME.exec(String(name ?? ""));
  return match ? { kind: match[1], copy: match[2] ? Number(match[2]) : 1 } : null;
}

/** The level word of a bot kind ("medium"), or the kind itself for an experiment. */
export function levelName(kind) {
  const key = `level.${kind}`;
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
