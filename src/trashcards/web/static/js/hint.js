// @ts-check
// The Hint button and its answer. Asking sends {"type": "hint"} for the seat to act at
// the current version; the server answers that connection only, with every legal action
// best first, its chance of winning the match and the round (95 % intervals), whether it
// is as good as the best (a tie within the noise, or exact) and a reason code with its
// parameters, translated by the catalog's reason.<code>. The button is there only where
// the table's creator allowed hints.
// The answer is docked (js/table.js and css/ai.css place it; it never covers the table):
// its title row, the best move in one line, and the details, which fold away.

import { currentLanguage, t } from "./i18n.js";
import { percent } from "./winbar.js";

/** An action's record text ("stock", "discard", "wild 3", "swap", "trash", "call") in
 *  words for people. */
export function describeAction(action) {
  const [verb, slot] = String(action).split(" ");
  const known = ["stock", "discard", "wild", "swap", "trash", "call"];
  if (!known.includes(verb)) return String(action);
  return t(`move.${verb}`, { slot });
}

/** A number of points in the language's writing ("1", "1.5", "1,5"). Given as the
 *  `count` of a plural message, it still picks the right form: "1" reads as one, and
 *  every other value we write (1.5, 0.5, 1,5 …) takes the "other" form in all five
 *  languages (CLDR: only an integer 1 is "one"; a comma number reads as not a number). */
export function localNumber(value) {
  return new Intl.NumberFormat(currentLanguage(), { maximumFractionDigits: 1,
    useGrouping: false }).format(value);
}

/** A reason {code, params} in words (an older server's reason is a string already). */
export function reasonText(reason) {
  if (reason == null) return "";
  if (typeof reason === "string") return reason;
  const params = { ...(reason.params ?? {}) };
  if (typeof params.count === "number") params.count = localNumber(params.count);
  return t(`reason.${reason.code}`, params);
}

/** The hint's conclusion: the best move, the moves equally good (the standard play
 *  first), "always call", each marked exact where the solver found it. */
export function leadText(message, actionText = describeAction) {
  const best = message.actions[0];
  const tied = message.tied ?? [best.action];
  const exact = message.exact ? t("hint.exact") : "";
  if (message.always_call) {
    return t("hint.always_call", { reason: reasonText(best.reason) });
  }
  if (tied.length > 1) {
    return t("hint.tied", { actions: tied.map((a) => actionText(a)).join(" = "), exact }).trim();
  }
  return t("hint.best", { action: actionText(best.action), reason: reasonText(best.reason) })
    + (exact ? ` ${exact}` : "");
}

/** The texts of a move's row in the details: the move, its chance of winning the match
 *  and the round, and its reason. The best and every move as good (which show the best's
 *  chances: equal within the noise) show their 95 % intervals; a worse move shows how
 *  much less it gives than the best, with the paired interval of that difference, never
 *  an interval of its own that would overlap the best's and read as a tie. */
export function rowTexts(message, line, index, actionText = describeAction) {
  const good = index === 0 || line.equal_to_best || message.exact;
  const chance = (value, ci) => t("hint.chance", { percent: percent(value), low: percent(ci[0]),
    high: percent(ci[1]) });
  if (good) {
    return [actionText(line.action), chance(line.match_win, line.match_win_ci),
      chance(line.round_win, line.round_win_ci), reasonText(line.reason)];
  }
  return [actionText(line.action),
    t("hint.chance_behind", { percent: percent(line.match_win), count: costOf(line),
      low: points(-line.vs_best[1]), high: points(-line.vs_best[0]) }),
    t("hint.percent", { percent: percent(line.round_win) }), reasonText(line.reason)];
}

/** Match-win points (a chance difference × 100) to one decimal, in the language's
 *  writing. */
function points(difference) {
  return localNumber(Math.round(Math.abs(difference) * 1000) / 10);
}

/** What a worse move costs, in points: its reason's figure (the paired mean), else the
 *  middle of its paired interval (the same mean, from the rounded bounds). */
function costOf(line) {
  const count = line.reason?.params?.count;
  if (typeof count === "number") return localNumber(count);
  return points((line.vs_best[0] + line.vs_best[1]) / 2);
}

export class HintPanel {
  /** `button`: the Hint button; `panel`: where the answer goes; `send(message)`: sends
   *  a websocket message; `actionText(action)`: an action's words for people. */
  constructor(button, panel, { send, actionText = describeAction, onChange = () => {} }) {
    this.button = button;
    this.onChange = onChange; // the hint shown (or taken away) changed
    this.best = null; // {version, action}: the move the hint on show suggests
    this.folded = null; // the reader folded the details away (true) or opened them
    this.tooTall = false; // the details of the hint on show do not fit the docked panel
    this.relabel = () => {}; // says again on the fold button whether it folds or opens
    this.panel = panel;
    this.send = send;
    this.actionText = actionText;
    this.request = null;
    this.waiting = false;
    this.button.addEventListener("click", () => this.ask());
    this.button.hidden = true;
    this.panel.hidden = true;
  }

  /** The table moved: `allowed` (the table allows hints), `token` and `version` of the
   *  seat to act when it is one of ours (else null). An answer for an older version, or
   *  once the decision is no longer ours (a move was sent), is taken away. */
  update({ allowed, token, version }) {
    this.button.hidden = !allowed;
    const mine = allowed && token != null;
    this.button.disabled = !mine;
    if (!mine || (this.request && this.request.version !== version)) this.hide();
    const same = mine && this.request && this.request.token === token
      && this.request.version === version;
    if (same) return; // drawn again for the same decision: a request may be on its way
    this.request = mine ? { token, version } : null;
    this.waiting = false;
    this.button.removeAttribute("aria-busy");
  }

  ask() {
    if (!this.request || this.waiting) return;
    this.waiting = true;
    this.button.setAttribute("aria-busy", "true");
    this.send({ type: "hint", token: this.request.token, version: this.request.version });
  }

  /** A "hint" message from the server. */
  receive(message) {
    this.waiting = false;
    this.button.removeAttribute("aria-busy");
    if (!this.request || message.version !== this.request.version) return;
    const best = message.actions[0];
    const lead = document.createElement("p");
    lead.className = "hint-best";
    const forced = message.actions.length === 1;
    lead.textContent = forced ? t("hint.only", { action: this.actionText(best.action) })
      : leadText(message, this.actionText);
    const parts = [this.head(!forced), lead];
    if (!forced) parts.push(this.details(message));
    this.panel.replaceChildren(...parts);
    this.tooTall = false;
    this.panel.dataset.collapsed = this.collapsed() ? "1" : "0";
    this.best = { version: message.version, action: best.action };
    this.panel.hidden = false;
    // Docked beside the board, details that would need a scroll of their own start
    // folded (the best move, and "show all moves"), unless the reader chose otherwise.
    if (!forced && this.folded === null && this.panel.dataset.collapsed === "0"
        && this.panel.scrollHeight > this.panel.clientHeight + 1) {
      this.tooTall = true;
      this.panel.dataset.collapsed = "1";
      this.relabel();
    }
    this.onChange();
  }

  /** The panel's title row: the title, the button folding the details away (a sheet at
   *  the bottom of a phone starts folded) and the close button. */
  head(foldable) {
    const head = document.createElement("div");
    head.className = "hint-head";
    const title = document.createElement("h2");
    title.id = "hint-title";
    title.textContent = t("hint.title");
    head.append(title);
    if (foldable) {
      const fold = document.createElement("button");
      fold.type = "button";
      fold.className = "link-button hint-fold";
      fold.setAttribute("aria-controls", "hint-more");
      const label = () => {
        const folded = this.collapsed();
        fold.setAttribute("aria-expanded", folded ? "false" : "true");
        fold.textContent = folded ? t("hint.more") : t("hint.less");
      };
      fold.addEventListener("click", () => {
        this.folded = !this.collapsed();
        this.panel.dataset.collapsed = this.folded ? "1" : "0";
        label();
      });
      label();
      this.relabel = label;
      head.append(fold);
    }
    const close = document.createElement("button");
    close.type = "button";
    close.className = "link-button hint-close";
    close.textContent = t("hint.close");
    close.addEventListener("click", () => this.hide());
    head.append(close);
    return head;
  }

  /** Whether the details are folded away: the reader's last choice, else folded on a
   *  phone (the sheet takes the log's place) and open on a laptop. */
  collapsed() {
    if (this.folded !== null) return this.folded;
    return this.tooTall || window.matchMedia("(max-width: 47.99rem)").matches;
  }

  /** Every legal move with its chances, best first. */
  details(message) {
    const more = document.createElement("div");
    more.className = "hint-more";
    more.id = "hint-more";
    const table = document.createElement("table");
    table.className = "hint-table";
    const caption = document.createElement("caption");
    caption.textContent = message.exact ? t("hint.caption_exact")
      : t("hint.caption", { samples: message.samples });
    // A hint computed on this device (docs/offline.md) has far fewer deals: say so.
    if (message.engine === "local") caption.textContent += ` ${t("hint.local")}`;
    const head = document.createElement("tr");
    for (const key of ["hint.col_action", "hint.col_match", "hint.col_round", "hint.col_reason"]) {
      const th = document.createElement("th");
      th.scope = "col";
      th.textContent = t(key);
      head.append(th);
    }
    const thead = document.createElement("thead");
    thead.append(head);
    const body = document.createElement("tbody");
    message.actions.forEach((line, index) => {
      const row = document.createElement("tr");
      row.dataset.action = line.action;
      if (index === 0 || line.equal_to_best) row.className = "best";
      rowTexts(message, line, index, this.actionText).forEach((text, column) => {
        const cell = document.createElement(column === 0 ? "th" : "td");
        if (column === 0) cell.scope = "row";
        cell.textContent = text;
        row.append(cell);
      });
      body.append(row);
    });
    table.append(caption, thead, body);
    more.append(table);
    return more;
  }

  /** The move the hint on show suggests for the decision at `version`, or null: the
   *  table marks it (its card, pile, slot or button). */
  suggestion(version) {
    if (this.panel.hidden || !this.best || this.best.version !== version) return null;
    return this.best.action;
  }

  /** An error answered to a hint request (busy, rate_limited, hints_off …). */
  refused(code) {
    this.waiting = false;
    this.button.removeAttribute("aria-busy");
    const note = document.createElement("p");
    note.className = "hint-refused";
    const known = ["busy", "rate_limited", "hints_off", "not_your_turn", "stale_version"];
    note.textContent = t(`hint.refused.${known.includes(code) ? code : "other"}`);
    this.best = null;
    this.panel.replaceChildren(this.head(false), note);
    this.panel.dataset.collapsed = "0";
    this.panel.hidden = false;
    this.onChange();
  }

  hide() {
    const shown = !this.panel.hidden;
    this.panel.replaceChildren();
    this.panel.hidden = true;
    this.best = null;
    if (shown) this.onChange();
  }
}
