// @ts-check
// The installable app: registers the service worker (sw.js, docs/offline.md) and, when a
// new version has installed and waits, shows a bar "A new version is ready · Reload to
// update". Reloading hands over to the new version and reloads the page, so a page never
// runs on two versions' files.

import { t } from "./i18n.js";
import { root } from "./config.js";

let reloading = false;

function showUpdate(worker) {
  if (document.getElementById("pwa-update")) return;
  const bar = document.createElement("div");
  bar.id = "pwa-update";
  bar.className = "pwa-update";
  bar.setAttribute("role", "status");
  const text = document.createElement("span");
  text.textContent = t("offline.update_ready");
  const button = document.createElement("button");
  button.type = "button";
  button.id = "pwa-reload";
  button.className = "primary";
  button.textContent = t("offline.reload");
  button.addEventListener("click", () => {
    button.disabled = true;
    worker.postMessage({ type: "skip-waiting" });
  });
  bar.append(text, " ", button);
  document.body.append(bar);
}

async function register() {
  if (!("serviceWorker" in navigator)) return;
  let registration;
  try {
    // at the app's root, wherever that is (a static copy may live under a path)
    registration = await navigator.serviceWorker.register(`${root}sw.js`, { scope: root });
  } catch {
    return;  // e.g. a page opened over plain http from another machine: online only
  }
  const hadController = Boolean(navigator.serviceWorker.controller);
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    // Only a page that had a worker reloads: the first install just takes control.
    if (reloading || !hadController) return;
    reloading = true;
    location.reload();
  });
  const watch = (worker) => {
    if (!worker) return;
    const check = () => {
      if (worker.state === "installed" && navigator.serviceWorker.controller) {
        showUpdate(worker);
      }
    };
    worker.addEventListener("statechange", check);
    check();
  };
  watch(registration.waiting);
  registration.addEventListener("updatefound", () => watch(registration.installing));
}

if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", register);
} else {
  register();
}
