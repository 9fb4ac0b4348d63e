// @ts-check
// The table page's voice for screen readers (docs/accessibility.md): one polite live
// region that says, in the page's language, what happens (every step, or one sentence a
// turn: the reader's choice, kept in this browser), what to do when it is this page's
// decision, and what the reader asks for (a board, the piles, the hint).

/** How much is said: every step of a turn, as the log tells it, or one sentence a turn. */
export const VERBOSITIES = /** @type {const} */ (["full", "brief"]);
const STORAGE_KEY = "trash.verbosity";
/** Lines kept in the region (older ones were said already). */
const KEEP = 40;

/** The reader's choice. @returns {"full"|"brief"} */
export function verbosity() {
  let saved = null;
  try { saved = localStorage.getItem(STORAGE_KEY); } catch { /* private mode */ }
  return saved === "brief" ? "brief" : "full";
}

/** @param {"full"|"brief"} value */
export function setVerbosity(value) {
  try { localStorage.setItem(STORAGE_KEY, value); } catch { /* private mode */ }
}

export class Announcer {
  /** @param {HTMLElement} region a polite live region (role="log"), visually hidden */
  constructor(region) {
    this.region = region;
  }

  /** Say ``text`` (a new line of the region: said even when it repeats the last one).
   *  @param {string} text */
  say(text) {
    if (!text) return;
    const line = document.createElement("p");
    line.textContent = text;
    this.region.append(line);
    while (this.region.children.length > KEEP) this.region.firstElementChild?.remove();
  }
}
