// @ts-check
// The "What happened" log: one line per step, newest last, scrolling inside its own
// panel. A page that arrives late rebuilds it from the server's `history` messages (the
// current round from its first move: the cut and the deal included); older rounds come
// a page at a time on request.

const MAX_LINES = 600;

export class Log {
  /** list: the <ol>; box: the element that scrolls. */
  constructor(list, box) {
    this.list = list;
    this.box = box;
  }

  clear() { this.list.replaceChildren(); }

  item({ text, kind }) {
    const li = document.createElement("li");
    li.textContent = text;
    if (kind) li.className = `log-${kind}`;
    return li;
  }

  /** Add lines at the end; keep the newest in view unless the reader scrolled up. */
  append(lines) {
    if (!lines.length) return;
    const box = this.box;
    const atEnd = box.scrollHeight - box.scrollTop - box.clientHeight < 40;
    this.list.append(...lines.map((line) => this.item(line)));
    while (this.list.children.length > MAX_LINES) this.list.firstElementChild.remove();
    if (atEnd) box.scrollTop = box.scrollHeight;
  }

  /** Add older lines at the top, keeping what the reader sees in place. */
  prepend(lines) {
    if (!lines.length) return;
    const box = this.box;
    const before = box.scrollHeight;
    this.list.prepend(...lines.map((line) => this.item(line)));
    while (this.list.children.length > MAX_LINES) this.list.lastElementChild.remove();
    box.scrollTop += box.scrollHeight - before;
  }

  /** Replace everything (a fresh page's history), newest in view. */
  replace(lines) {
    this.list.replaceChildren(...lines.slice(-MAX_LINES).map((line) => this.item(line)));
    this.box.scrollTop = this.box.scrollHeight;
  }

  get length() { return this.list.children.length; }
}
