// The win-chance bar: every player's chance of winning the match, like a chess
// evaluation bar, one coloured segment per player. The server computes the chances from
// what everyone can see and sends them after each move ("chances" messages); players see
// them where the table allows hints, spectators always.

import { t } from "./i18n.js";

/** How a chance is shown: a whole percentage, never 0 % or 100 % while undecided. */
export function percent(chance, final = false) {
  const value = Math.round(chance * 100);
  if (final) return value;
  return Math.min(99, Math.max(1, value));
}

export class WinBar {
  /** `root`: an empty element; the bar fills it. */
  constructor(root) {
    this.root = root;
    this.root.classList.add("winbar");
    this.root.setAttribute("role", "group");
    this.version = -1;
    this.root.hidden = true;
  }

  /** Show `message` (a "chances" message) for players `names` (by seat); `mine` is the
   *  viewer's seat or null. Older versions than the one shown are ignored. */
  update(message, names, mine = null) {
    if (!message || message.version < this.version) return;
    this.version = message.version;
    const final = message.source === "final";
    this.root.setAttribute("aria-label", t("winbar.label"));
    this.root.dataset.version = String(message.version);
    this.root.dataset.source = message.source;
    const track = document.createElement("div");
    track.className = "winbar-track";
    const legend = document.createElement("ul");
    legend.className = "winbar-legend";
    message.match_win.forEach((chance, seat) => {
      const name = names[seat] || t("seat.unknown", { seat });
      const shown = percent(chance, final);
      const label = t("winbar.player", { name, percent: shown });
      const part = document.createElement("div");
      part.className = `winbar-part seat-${seat}`;
      part.style.flexGrow = String(Math.max(chance, 0.005));
      part.title = label;
      part.dataset.seat = String(seat);
      part.dataset.chance = String(chance);
      track.append(part);
      const item = document.createElement("li");
      item.className = `seat-${seat}` + (seat === mine ? " mine" : "");
      item.dataset.seat = String(seat);
      const swatch = document.createElement("span");
      swatch.className = `winbar-swatch seat-${seat}`;
      swatch.setAttribute("aria-hidden", "true");
      item.append(swatch, document.createTextNode(label));
      legend.append(item);
    });
    track.setAttribute("aria-hidden", "true");
    this.root.replaceChildren(track, legend);
    this.root.hidden = false;
  }

  /** Forget what is shown (a new table, or the table forbids it). */
  clear() {
    this.version = -1;
    this.root.replaceChildren();
    this.root.hidden = true;
  }
}
