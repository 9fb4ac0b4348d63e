// @ts-check
// The account of this browser on the server (docs/players.md, "Accounts"): who is
// signed in, and every request that changes something, sent with the page's CSRF token
// (the server answers it from GET /api/account; no other site can read it). Passkeys
// go through the browser's WebAuthn (navigator.credentials), the server's options and
// answers as JSON with base64url fields.

import { paths } from "./config.js";

/**
 * The account signed in, as GET /api/account describes it.
 * @typedef {object} Account
 * @property {string} id
 * @property {string} name
 * @property {boolean} hidden kept off the leaderboards
 * @property {boolean} password it has a password
 * @property {number} passkeys how many passkeys it has
 * @property {object|null} profile the server's copy of its profile
 */
/** GET /api/account: whether one is signed in (and which), and the page's CSRF token.
 *  @typedef {{signed_in: boolean, csrf: string, account?: Account}} AccountState */
/** A refusal's body: {error, message, retry_after?}.
 *  @typedef {{error?: string, message?: string, retry_after?: number|null}} Refusal */

const API = paths.tables.replace(/\/api\/tables$/, "");
/** @type {string|null} */
let csrf = null;

/** The server refused a request: its HTTP status and its error code and message. */
export class AccountError extends Error {
  /** @param {number} status @param {Refusal|null} body */
  constructor(status, body) {
    super((body && body.message) || `HTTP ${status}`);
    this.status = status;
    this.code = body && body.error;
    this.retryAfter = body && body.retry_after;
  }
}

/** The JSON of an answer (null if it has none), keeping a fresh CSRF token; throws
 *  AccountError for a refusal. @param {Response} response @returns {Promise<any>} */
async function answer(response) {
  let body = null;
  try { body = await response.json(); } catch { body = null; }
  const fresh = response.headers.get("X-Trash-CSRF");
  if (fresh) csrf = fresh;
  if (!response.ok) throw new AccountError(response.status, body);
  return body;
}

/** The account signed in here ({signed_in, account?}); null when there is no server
 *  (a static copy of the app offline, or a server without accounts).
 *  @returns {Promise<AccountState|null>} */
export async function currentAccount() {
  if (/^https?:/.test(API) && !API.startsWith(location.origin)) return null;  // cookies stay home
  try {
    const response = await fetch(`${API}/api/account`, { credentials: "same-origin",
      headers: { Accept: "application/json" } });
    if (!response.ok) return null;
    const body = await response.json();
    csrf = body.csrf;
    return body;
  } catch {
    return null;
  }
}

/** A POST that changes something: JSON, with the CSRF token; the answer's JSON.
 *  @param {string} path @param {object} [body] @returns {Promise<any>} */
export async function send(path, body = {}) {
  if (!csrf) await currentAccount();
  return answer(await fetch(`${API}${path}`, {
    method: "POST", credentials: "same-origin",
    headers: { "Content-Type": "application/json", Accept: "application/json",
      "X-Trash-CSRF": csrf || "" },
    body: JSON.stringify(body),
  }));
}

export const dataUrl = `${API}/api/account/data`;

// -- passkeys ---------------------------------------------------------------------------

/** The bytes of base64url text. @param {string} text @returns {ArrayBuffer} */
const fromB64 = (text) => {
  const base = text.replace(/-/g, "+").replace(/_/g, "/");
  const padded = base + "=".repeat((4 - (base.length % 4)) % 4);
  return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0)).buffer;
};
/** Bytes as base64url text (no padding). @param {ArrayBuffer} buffer @returns {string} */
const toB64 = (buffer) => btoa(String.fromCharCode(...new Uint8Array(buffer)))
  .replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

/** Whether this browser has WebAuthn. @returns {boolean} */
export const passkeysWork = () => Boolean(globalThis.PublicKeyCredential && navigator.credentials);

/** A new passkey made by this device for the server's options (the JSON form of
 *  PublicKeyCredentialCreationOptions), as JSON for the server.
 *  @param {any} options @returns {Promise<object>} */
async function create(options) {
  const publicKey = {
    ...options, challenge: fromB64(options.challenge),
    user: { ...options.user, id: fromB64(options.user.id) },
    excludeCredentials: (options.excludeCredentials || []).map((c) => ({ ...c, id: fromB64(c.id) })),
  };
  const made = /** @type {PublicKeyCredential} */ (
    await navigator.credentials.create({ publicKey }));
  const response = /** @type {AuthenticatorAttestationResponse} */ (made.response);
  return {
    id: made.id, rawId: toB64(made.rawId), type: made.type,
    response: {
      clientDataJSON: toB64(response.clientDataJSON),
      attestationObject: toB64(response.attestationObject),
      transports: response.getTransports ? response.getTransports() : [],
    },
    clientExtensionResults: made.getClientExtensionResults(),
    authenticatorAttachment: made.authenticatorAttachment || undefined,
  };
}

/** This device's answer with one of its passkeys to the server's options (the JSON form
 *  of PublicKeyCredentialRequestOptions), as JSON for the server.
 *  @param {any} options @returns {Promise<object>} */
async function get(options) {
  const publicKey = {
    ...options, challenge: fromB64(options.challenge),
    allowCredentials: (options.allowCredentials || []).map((c) => ({ ...c, id: fromB64(c.id) })),
  };
  const got = /** @type {PublicKeyCredential} */ (
    await navigator.credentials.get({ publicKey }));
  const response = /** @type {AuthenticatorAssertionResponse} */ (got.response);
  return {
    id: got.id, rawId: toB64(got.rawId), type: got.type,
    response: {
      clientDataJSON: toB64(response.clientDataJSON),
      authenticatorData: toB64(response.authenticatorData),
      signature: toB64(response.signature),
      userHandle: response.userHandle ? toB64(response.userHandle) : null,
    },
    clientExtensionResults: got.getClientExtensionResults(),
    authenticatorAttachment: got.authenticatorAttachment || undefined,
  };
}

/** Make an account called `name` with a new passkey of this device.
 *  @param {string} name @returns {Promise<any>} */
export async function signUpWithPasskey(name) {
  const { ceremony, options } = await send("/api/account/passkey/signup/options", { name });
  return send("/api/account/passkey/signup", { ceremony, credential: await create(options) });
}

/** Sign in with a passkey this device (or its synced keychain) holds.
 *  @returns {Promise<any>} */
export async function signInWithPasskey() {
  const { ceremony, options } = await send("/api/account/passkey/login/options");
  return send("/api/account/passkey/login", { ceremony, credential: await get(options) });
}

/** Add a passkey of this device to the signed-in account. @returns {Promise<any>} */
export async function addPasskey() {
  const { ceremony, options } = await send("/api/account/passkey/add/options");
  return send("/api/account/passkey/add", { ceremony, credential: await create(options) });
}
