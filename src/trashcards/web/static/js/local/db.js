// @ts-check
// The tables "On this device" in IndexedDB (docs/offline.md): one object per table with
// its rules, seats (and their tokens), every move of its record, the bots' random
// streams and its public table info. Used by the worker that runs a table (it writes
// after every move, before anything is shown) and by the lobby (it reads the info).

const NAME = "trash-local";
const STORE = "tables";

let opened = null;

function open() {
  if (!opened) {
    opened = new Promise((resolve, reject) => {
      const request = indexedDB.open(NAME, 1);
      request.onupgradeneeded = () => {
        request.result.createObjectStore(STORE, { keyPath: "id" });
      };
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => { opened = null; reject(request.error); };
    });
  }
  return opened;
}

async function run(mode, work) {
  const db = await open();
  return new Promise((resolve, reject) => {
    const tx = db.transaction(STORE, mode);
    const request = work(tx.objectStore(STORE));
    tx.oncomplete = () => resolve(request ? request.result : undefined);
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error);
  });
}

export const getTable = (id) => run("readonly", (store) => store.get(id));
export const putTable = (table) => run("readwrite", (store) => store.put(table));
export const allTables = () => run("readonly", (store) => store.getAll());
