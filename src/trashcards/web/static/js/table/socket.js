// @ts-check
// The table page's socket: the Connection (js/connection.js: a websocket, or a table "On
// this device" in its worker) joined with this page's seat tokens, its frames handed to
// the controller and its status to the state.

import { Connection } from "../connection.js";
import { tokens } from "./state.js";

/** @typedef {import("./state.js").TableState} TableState */
/** @typedef {import("./controller.js").TableController} TableController */

/**
 * The table's connection, not yet open.
 * @param {TableState} app
 * @param {{controller: () => TableController, render: () => void,
 *          showError: (key: string) => void, gone: () => void}} page
 * @returns {Connection}
 */
export function tableSocket(app, page) {
  let firstJoin = true;
  return new Connection(app.tableId, {
    tokens: () => tokens(app),
    // A fresh page asks for a whole state and the round's history; a reconnect asks
    // for what it missed.
    version: () => (firstJoin ? null : app.version),
    history: () => firstJoin,
    onMessage: (msg) => page.controller().onMessage(/** @type {any} */ (msg)),
    onStatus: (status) => {
      app.status = status;
      if (status === "gone") {
        page.gone();
        return;
      }
      if (status === "slow" || status === "no_join") {
        page.showError(`conn.${status}`);
        return;
      }
      if (status === "connecting") app.joinedHere = false;
      if (status === "online") firstJoin = false;
      app.online = status === "online";
      page.render();
    },
  });
}
