// @ts-check
// The account part of the profile page: create an account from this profile (a passkey
// first, a password as the fallback), sign in, and once signed in keep the profile in
// step with the server's copy, change the name, hide from the leaderboards, add a
// passkey or a password, download all the data, sign out, delete the account.

import { t } from "./i18n.js";
import { root } from "./config.js";
import {
  AccountError, addPasskey, currentAccount, dataUrl, passkeysWork, send, signInWithPasskey,
  signUpWithPasskey,
} from "./account.js";
import { loadProfile, mergeProfile, parseProfile, saveProfile } from "./profile.js";
import { el } from "./dom.js";

/** @typedef {import("./account.js").Account} Account */

/** The account part of the page (mountAccount gives it). @type {HTMLElement} */
let box = null;
/** Run when the profile changed (the page draws it again). @type {() => void} */
let changed = () => {};

/** A button: of type "button", running `onClick`, or "submit", its form's.
 *  @param {"button" | "submit"} type @param {string} id (none if "") @param {string} text
 *  @param {() => Promise<void>} [onClick] @returns {HTMLButtonElement} */
function button(type, id, text, onClick) {
  const node = Object.assign(el("button", "", text), { type });
  if (id) node.id = id;
  if (onClick) node.addEventListener("click", onClick);
  return node;
}

/** A form that runs `onSubmit` instead of loading a page.
 *  @param {string} id @param {() => Promise<void>} onSubmit @param {...Node} children
 *  @returns {HTMLFormElement} */
function form(id, onSubmit, ...children) {
  const node = Object.assign(el("form"), { id });
  node.addEventListener("submit", (event) => {
    event.preventDefault();
    return onSubmit();
  });
  node.append(...children);
  return node;
}

/** A label for the control of id `control`. @param {string} control @param {string} text
 *  @returns {HTMLLabelElement} */
function label(control, text) {
  return Object.assign(el("label", "", text), { htmlFor: control });
}

/** A box of `className` holding `children`. @param {string} className
 *  @param {...Node} children @returns {HTMLDivElement} */
function group(className, ...children) {
  const node = el("div", className);
  node.append(...children);
  return node;
}

/** Say how the last request went. @param {string} text @param {string} [kind] "error" */
function status(text, kind = "") {
  const line = box.querySelector("#account-status");
  line.textContent = text;
  line.className = kind === "error" ? "lockout" : "help";
}

/** Say why a request failed (a passkey ceremony the person stopped has no message).
 *  @param {unknown} err */
function failed(err) {
  if (err instanceof AccountError) status(err.message, "error");
  else status(t("account.passkey_cancelled"), "error");
}

/** Keep this device's profile and the account's in step: the server merges ours into
 *  its copy and answers the whole; this device keeps the whole. */
async function sync() {
  const local = loadProfile();
  const { profile } = await send("/api/account/profile", { profile: local });
  const merged = loadProfile();
  mergeProfile(merged, parseProfile(JSON.stringify(profile)));
  merged.name = profile.name;
  saveProfile(merged);
  changed();
}

/** Signed out: create an account (a passkey, or a name and password), or sign in.
 *  @returns {HTMLElement} */
function signedOut() {
  const name = Object.assign(el("input"), { id: "account-name", maxLength: 24,
    autocomplete: "username" });
  const password = Object.assign(el("input"), { id: "account-password", type: "password",
    minLength: 8, autocomplete: "current-password" });
  name.value = loadProfile().name === "You" ? "" : loadProfile().name;
  const passkeyNote = passkeysWork() ? [] : [el("p", "help", t("account.no_passkeys"))];
  return group("account-forms",
    form("signup-form", async () => {
      try {
        await signUpWithPasskey(name.value.trim());
        await refresh();
      } catch (err) { failed(err); }
    },
    el("h3", "", t("account.create")),
    el("p", "help", t("account.create_help")),
    label("account-name", t("account.name")), name,
    button("submit", "signup-passkey", t("account.create_passkey")),
    ...passkeyNote,
    label("account-password", t("account.password")), password,
    group("inline-form",
      button("button", "signup-password", t("account.create_password"), async () => {
        try {
          await send("/api/account/signup", { name: name.value.trim(), password: password.value });
          await refresh();
        } catch (err) { failed(err); }
      }),
      button("button", "login-password", t("account.sign_in_password"), async () => {
        try {
          await send("/api/account/login", { name: name.value.trim(), password: password.value });
          await refresh();
        } catch (err) { failed(err); }
      }))),
    group("",
      el("h3", "", t("account.sign_in")),
      button("button", "login-passkey", t("account.sign_in_passkey"), async () => {
        try {
          await signInWithPasskey();
          await refresh();
        } catch (err) { failed(err); }
      })));
}

/** Signed in: the public page, a passkey to add, the data, signing out, the name, hiding
 *  from the leaderboards, deleting the account. @param {Account} account
 *  @returns {HTMLElement} */
function signedIn(account) {
  const rename = Object.assign(el("input"), { id: "account-rename", maxLength: 24,
    defaultValue: account.name });
  const hidden = Object.assign(el("input"), { type: "checkbox", id: "account-hidden" });
  hidden.checked = account.hidden;
  hidden.addEventListener("change", async () => {
    await send("/api/account/hidden", { hidden: hidden.checked });
  });
  const confirm = Object.assign(el("input"), { id: "delete-confirm", maxLength: 24 });
  const publicPage = Object.assign(el("a", "", t("account.public_page")),
    { id: "public-page", href: `${root}player/${encodeURIComponent(account.name)}` });
  const download = Object.assign(el("a", "", t("account.download")),
    { id: "download-data", href: dataUrl, download: "trash-account.json" });
  const hideLine = el("label", "check-line");
  hideLine.append(hidden, el("span", "", t("account.hidden")));
  const publicLine = el("p");
  publicLine.append(publicPage);
  return group("account-forms",
    group("",
      Object.assign(el("p", "", t("account.signed_in_as", { name: account.name })),
        { id: "signed-in-as" }),
      publicLine,
      group("inline-form",
        button("button", "add-passkey", t("account.add_passkey"), async () => {
          try {
            await addPasskey();
            status(t("account.passkey_added"));
          } catch (err) { failed(err); }
        }),
        download,
        button("button", "logout", t("account.sign_out"), async () => {
          await send("/api/account/logout");
          await refresh();
        }))),
    form("rename-form", async () => {
      try {
        await send("/api/account/name", { name: rename.value.trim() });
        await refresh();
      } catch (err) { failed(err); }
    },
    label("account-rename", t("account.rename")), rename,
    button("submit", "", t("profile.save_name")),
    hideLine),
    form("delete-form", async () => {
      try {
        await send("/api/account/delete", { confirm: confirm.value.trim() });
        await refresh();
        status(t("account.deleted"));
      } catch (err) { failed(err); }
    },
    label("delete-confirm", t("account.delete_help", { name: account.name })),
    confirm,
    button("submit", "delete-account", t("account.delete"))));
}

/** Draw the account part (hidden where there is no server). @returns {Promise<void>} */
export async function refresh() {
  const state = await currentAccount();
  if (!state) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  const line = el("p", "help");
  line.id = "account-status";
  line.setAttribute("aria-live", "polite");
  const title = Object.assign(el("h2", "", t("account.title")), { id: "account-title" });
  box.replaceChildren(title, state.signed_in ? signedIn(state.account) : signedOut(), line);
  if (state.signed_in) {
    try { await sync(); } catch (err) { failed(err); }
    box.dataset.account = state.account.name;
  } else {
    delete box.dataset.account;
  }
  box.dataset.ready = "1";
}

/** Draw the account part in `element`; `onChange` runs when the profile changed.
 *  @param {HTMLElement} element @param {() => void} onChange @returns {Promise<void>} */
export async function mountAccount(element, onChange) {
  box = element;
  changed = onChange;
  await refresh();
}
