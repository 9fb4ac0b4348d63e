// @ts-check
// Reactions at online tables (docs/protocol.md, `react`): the fixed set of emotes the
// server accepts (js/spec.js EMOTES), each drawn as its emoji and said in the page's
// language (`reaction.<emote>`).

import { t } from "./i18n.js";

/** The emoji of each emote (decoration: the words say it). */
export const EMOJI = Object.freeze({
  wave: "👋", thumbs_up: "👍", clap: "👏", laugh: "😄", wow: "😮", oops: "😬",
});

/** An emote in words, in the page's language. @param {string} emote */
export function reactionLabel(emote) { return t(`reaction.${emote}`); }

/** How long a reaction stays beside its seat's board. */
export const REACTION_SHOWN_MS = 4000;
/** The wait between two reactions of this page: the server takes one per seat every 2 s
 *  (Settings.reaction_interval) and refuses the rest. */
export const REACTION_INTERVAL_MS = 2000;
