// @ts-check
// The one DOM helper module: the small functions every page's drawing code builds with.

/**
 * A new element with a class and a text.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {string} [className]
 * @param {string} [text]
 * @returns {HTMLElementTagNameMap[K]}
 */
export function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/**
 * A name or a phrase as nodes that break only between its words: each word a
 * `<span class="word">` kept whole (`white-space: nowrap` in app.css), spaces between.
 * @param {string} text
 * @returns {Node[]}
 */
export function wholeWords(text) {
  /** @type {Node[]} */
  const nodes = [];
  for (const [index, word] of String(text).split(/\s+/).filter(Boolean).entries()) {
    if (index) nodes.push(document.createTextNode(" "));
    nodes.push(el("span", "word", word));
  }
  return nodes;
}

/**
 * The page's element of this id; it must be there (the page's template has it).
 * @param {string} id
 * @returns {HTMLElement}
 */
export function byId(id) {
  const node = document.getElementById(id);
  if (node === null) throw new Error(`the page has no #${id}`);
  return node;
}

/**
 * A form control of the page by its id.
 * @param {string} id
 * @returns {HTMLInputElement}
 */
export function inputById(id) {
  return /** @type {HTMLInputElement} */ (byId(id));
}

/**
 * A <dialog> of the page by its id.
 * @param {string} id
 * @returns {HTMLDialogElement}
 */
export function dialogById(id) {
  return /** @type {HTMLDialogElement} */ (byId(id));
}

/**
 * A <select> of the page by its id.
 * @param {string} id
 * @returns {HTMLSelectElement}
 */
export function selectById(id) {
  return /** @type {HTMLSelectElement} */ (byId(id));
}

/**
 * A <button> of the page by its id.
 * @param {string} id
 * @returns {HTMLButtonElement}
 */
export function buttonById(id) {
  return /** @type {HTMLButtonElement} */ (byId(id));
}

/**
 * An <a> of the page by its id.
 * @param {string} id
 * @returns {HTMLAnchorElement}
 */
export function linkById(id) {
  return /** @type {HTMLAnchorElement} */ (byId(id));
}
