// @ts-check
// The table page: joins the table's websocket with this browser's seat tokens, draws the
// view it is sent, plays each step of an `events` message in order (cards fly unless the
// reader asked for reduced motion), tells it in the "What happened" log, and sends the
// player's decisions (clicks or keys). The server decides everything; the client only
// offers what the view's `legal` list allows.
//
// The page in four parts: js/table/state.js (its state and what follows from it),
// controller.js (messages in, decisions out; both run under Node in the tests), view.js
// (the DOM) and socket.js (the connection). This module wires them together.

import {
  currentLanguage, detectLanguage, loadLanguage, mountLanguageSwitcher, onLanguageChange, t,
  translatePage,
} from "./i18n.js";
import { paths, routeParts } from "./config.js";
import { byId } from "./dom.js";
import * as store from "./store.js";
import { TableController } from "./table/controller.js";
import { tableSocket } from "./table/socket.js";
import { createTableState } from "./table/state.js";
import { TableView } from "./table/view.js";
import { Guide } from "./learn.js";

const tableId = decodeURIComponent(routeParts()[1] || "");
const app = createTableState(tableId, new URLSearchParams(location.search).has("watch"),
  store.loadTable(tableId));

/** @type {import("./connection.js").Connection|null} */
let connection = null;
const send = (/** @type {import("protocol").ClientMessage} */ message) =>
  (connection ? connection.send(message) : false);
const view = new TableView(app, send);
const controller = new TableController(app, view, {
  send,
  rejoin: () => connection?.rejoin(),
});
view.controller = controller;

/** The guided first game (js/learn.js) on the table the lobby made for it. */
const guide = tableId && app.entry.guided && app.entry.learnAt !== null
  ? new Guide(tableId, app, view.announcer) : null;
if (guide) {
  controller.guard = (action) => guide.allow(action);
  view.afterRender = () => guide.render();
}

/** While the server's AI warms up after a start (`/healthz` says `"ai": "warming_up"`),
 *  a note says that hints and win chances are coarser and the expert computer thinks
 *  less meanwhile (the server answers on its slower engine rather than wait). */
async function watchWarmUp() {
  for (;;) {
    let ai = null;
    try {
      const response = await fetch(paths.health, { cache: "no-store" });
      ai = (await response.json()).ai;
    } catch {
      ai = null; // no answer: say nothing
    }
    app.warming = ai === "warming_up";
    view.renderNotes();
    if (!app.warming) return;
    await new Promise((resolve) => { setTimeout(resolve, 2000); });
  }
}

function retitle() {
  document.title = t("table.page_title", { id: tableId });
  /** @type {HTMLAnchorElement} */ (byId("rules-link")).href = paths.rulesPage(currentLanguage());
}

async function main() {
  await loadLanguage(detectLanguage());
  translatePage();
  mountLanguageSwitcher(/** @type {HTMLSelectElement} */ (byId("lang")));
  view.wireControls(() => connection?.rejoin());
  view.renderSound();
  onLanguageChange(() => {
    translatePage();
    retitle();
    guide?.retranslate();
    view.renderSound();
    if (app.gone) view.tableGone(connection);
    view.render();
  });
  if (!tableId) {
    view.tableGone(connection);
    return;
  }
  retitle();
  connection = tableSocket(app, {
    controller: () => controller,
    render: () => view.render(),
    showError: (key) => view.showError(key),
    gone: () => view.tableGone(connection),
  });
  connection.open();
  view.render();
  watchWarmUp();
}

main();
