// @ts-check
// Keyboard play: S stock, D discard, 1–9 and 0 slots, W swap, T trash, C call, H hint,
// ? help, Enter on the "pass to …" screen; and for a reader who does not see the table:
// B reads your board, P the piles and the card in hand, N the next opponent's board, R
// says again what to do, V switches the announcements (every step, or one sentence a
// turn). Keys typed into a form field are left alone.

const ACTION_KEYS = { s: "stock", d: "discard", w: "swap", t: "trash", c: "call" };
/** The keys that read the table aloud, by the handler they call. */
const READ_KEYS = { b: "board", p: "piles", n: "next", r: "repeat", v: "verbosity" };

/** handlers: {act(action), slot(k), hint(), help(), pass(), board(), piles(), next(),
 *  repeat(), verbosity()} */
export function installKeys(handlers) {
  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    if (target instanceof Element && target.closest("input, select, textarea, [contenteditable]")) {
      return;
    }
    if (document.querySelector("dialog[open]")) return; // Escape closes it natively
    const key = event.key;
    if (key === "?") {
      event.preventDefault();
      handlers.help();
      return;
    }
    if (key === "Enter" && document.body.dataset.pass === "1") {
      event.preventDefault();
      handlers.pass();
      return;
    }
    const lower = key.length === 1 ? key.toLowerCase() : "";
    if (lower === "h") {
      event.preventDefault();
      handlers.hint();
    } else if (READ_KEYS[lower]) {
      event.preventDefault();
      handlers[READ_KEYS[lower]]();
    } else if (ACTION_KEYS[lower]) {
      event.preventDefault();
      handlers.act(ACTION_KEYS[lower]);
    } else if (/^[0-9]$/.test(key)) {
      event.preventDefault();
      handlers.slot(key === "0" ? 10 : Number(key));
    }
  });
}
