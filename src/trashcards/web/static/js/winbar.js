// @ts-check
// The win-chance bar: every player's chance of winning the match, like a chess
// evaluation bar, one coloured segment per player. The server computes the chances from
// what everyone can see and sends them after each move ("chances" messages); players see
// them where the table allows hints, spectators always. A table On this device computes
// them in its worker (local/chances.js), coarser, and the bar says so.

import { t } from "./i18n.js";

/** How a chance is shown: a whole percentage, never 0 % or 100 % while undecided. */
export function percent(chance, final = false) {
  const value = Math.round(chance * 100);
  if (final) return value;
  return Math.min(99, Math.max(1, value));
}

/** Every player's whole percentage, summing to exactly 100 (largest remainders), and
 *  while undecided never 0 or 100 (a point moves from the largest share). */
export function shares(chances, final = false) {
  const raw = chances.map((c) => Math.max(0, c) * 100);
  const total = raw.reduce((a, b) => a + b, 0) || 1;
  const scaled = raw.map((r) => (r * 100) / total);
  const out = scaled.map(Math.floor);
  let left = 100 - out.reduce((a, b) => a + b, 0);
  const order = scaled.map((v, i) => [v - Math.floor(v), i]).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  for (let k = 0; left > 0; k += 1, left -= 1) out[order[k % order.length][1]] += 1;
  if (!final && out.length > 1) {
    for (let i = 0; i < out.length; i += 1) {
      while (out[i] < 1) {
        const most = out.indexOf(Math.max(...out));
        out[most] -= 1;
        out[i] += 1;
      }
    }
  }
  return out;
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
    const whole = shares(message.match_win, final);
    message.match_win.forEach((chance, seat) => {
      const name = names[seat] || t("seat.unknown", { seat });
      const shown = whole[seat];
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
    // Chances computed on this device (docs/offline.md) have far fewer deals: say so.
    this.root.dataset.engine = message.engine || "";
    if (message.engine === "local") {
      const note = document.createElement("p");
      note.className = "winbar-note";
      note.textContent = t("winbar.local");
      this.root.append(note);
    }
    this.root.hidden = false;
  }

  /** Forget what is shown (a new table, or the table forbids it). */
  clear() {
    this.version = -1;
    this.root.replaceChildren();
    this.root.hidden = true;
  }
}
