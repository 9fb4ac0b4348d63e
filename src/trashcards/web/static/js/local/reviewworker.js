// @ts-check
// The Web Worker that reviews a record on this device (docs/offline.md, local/review.js):
// the page sends {text, budgetMs}; the worker answers {type: "progress", done, total}
// after each decision, then {type: "review", review} (what POST /api/review answers) or
// {type: "error", message}.

import { localReview } from "./review.js";

self.addEventListener("message", (event) => {
  const { text, budgetMs } = event.data || {};
  try {
    const review = localReview(String(text), {
      ...(Number.isFinite(budgetMs) ? { budgetMs } : {}),
      progress: (done, total) => self.postMessage({ type: "progress", done, total }),
    });
    self.postMessage({ type: "review", review });
  } catch (error) {
    self.postMessage({ type: "error", message: String(error?.message || error) });
  }
});
