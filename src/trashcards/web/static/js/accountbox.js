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

let box = null;
let changed = () => {};

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value);
  }
  node.append(...children);
  return node;
}

function status(text, kind = "") {
  const line = box.querySelector("#account-status");
  line.textContent = text;
  line.className = kind === "error" ? "lockout" : "help";
}

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

function signedOut() {
  const name = el("input", { id: "account-name", maxlength: "24", autocomplete: "username" });
  const password = el("input", { id: "account-password", type: "password", minlength: "8",
    autocomplete: "current-password" });
  name.value = loadProfile().name === "You" ? "" : loadProfile().name;
  const passkeyNote = passkeysWork() ? [] : [el("p", { class: "help", text: t("account.no_passkeys") })];
  return el("div", { class: "account-forms" },
    el("form", { id: "signup-form", onsubmit: async (event) => {
      event.preventDefault();
      try {
        await signUpWithPasskey(name.value.trim());
        await refresh();
      } catch (err) { failed(err); }
    } },
    el("h3", { text: t("account.create") }),
    el("p", { class: "help", text: t("account.create_help") }),
    el("label", { for: "account-name", text: t("account.name") }), name,
    el("button", { type: "submit", id: "signup-passkey", text: t("account.create_passkey") }),
    ...passkeyNote,
    el("label", { for: "account-password", text: t("account.password") }), password,
    el("div", { class: "inline-form" },
      el("button", { type: "button", id: "signup-password", text: t("account.create_password"),
        onclick: async () => {
          try {
            await send("/api/account/signup", { name: name.value.trim(), password: password.value });
            await refresh();
          } catch (err) { failed(err); }
        } }),
      el("button", { type: "button", id: "login-password", text: t("account.sign_in_password"),
        onclick: async () => {
          try {
            await send("/api/account/login", { name: name.value.trim(), password: password.value });
            await refresh();
          } catch (err) { failed(err); }
        } }))),
    el("div", {},
      el("h3", { text: t("account.sign_in") }),
      el("button", { type: "button", id: "login-passkey", text: t("account.sign_in_passkey"),
        onclick: async () => {
          try {
            await signInWithPasskey();
            await refresh();
          } catch (err) { failed(err); }
        } })));
}

function signedIn(account) {
  const rename = el("input", { id: "account-rename", maxlength: "24", value: account.name });
  const hidden = el("input", { type: "checkbox", id: "account-hidden" });
  hidden.checked = account.hidden;
  const confirm = el("input", { id: "delete-confirm", maxlength: "24" });
  return el("div", { class: "account-forms" },
    el("div", {},
      el("p", { id: "signed-in-as", text: t("account.signed_in_as", { name: account.name }) }),
      el("p", {}, el("a", { id: "public-page", href: `${root}player/${encodeURIComponent(account.name)}`,
        text: t("account.public_page") })),
      el("div", { class: "inline-form" },
        el("button", { type: "button", id: "add-passkey", text: t("account.add_passkey"),
          onclick: async () => {
            try { await addPasskey(); status(t("account.passkey_added")); } catch (err) { failed(err); }
          } }),
        el("a", { id: "download-data", href: dataUrl, download: "trash-account.json", text: t("account.download") }),
        el("button", { type: "button", id: "logout", text: t("account.sign_out"),
          onclick: async () => { await send("/api/account/logout"); await refresh(); } }))),
    el("form", { id: "rename-form", onsubmit: async (event) => {
      event.preventDefault();
      try {
        await send("/api/account/name", { name: rename.value.trim() });
        await refresh();
      } catch (err) { failed(err); }
    } },
    el("label", { for: "account-rename", text: t("account.rename") }), rename,
    el("button", { type: "submit", text: t("profile.save_name") }),
    el("label", { class: "check-line" }, hidden, el("span", { text: t("account.hidden") }))),
    el("form", { id: "delete-form", onsubmit: async (event) => {
      event.preventDefault();
      try {
        await send("/api/account/delete", { confirm: confirm.value.trim() });
        await refresh();
        status(t("account.deleted"));
      } catch (err) { failed(err); }
    } },
    el("label", { for: "delete-confirm", text: t("account.delete_help", { name: account.name }) }),
    confirm,
    el("button", { type: "submit", id: "delete-account", text: t("account.delete") })));
}

/** Draw the account part (hidden where there is no server). */
export async function refresh() {
  const state = await currentAccount();
  if (!state) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  const line = el("p", { id: "account-status", class: "help", "aria-live": "polite" });
  const title = el("h2", { id: "account-title", text: t("account.title") });
  box.replaceChildren(title, state.signed_in ? signedIn(state.account) : signedOut(), line);
  if (state.signed_in) {
    box.querySelector("#account-hidden").addEventListener("change", async (event) => {
      await send("/api/account/hidden", { hidden: event.target.checked });
    });
    try { await sync(); } catch (err) { failed(err); }
    box.dataset.account = state.account.name;
  } else {
    delete box.dataset.account;
  }
  box.dataset.ready = "1";
}

export async function mountAccount(element, onChange) {
  box = element;
  changed = onChange;
  await refresh();
}
