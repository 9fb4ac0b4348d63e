// The account of this browser on the server (docs/players.md, "Accounts"): who is
// signed in, and every request that changes something, sent with the page's CSRF token
// (the server answers it from GET /api/account; no other site can read it). Passkeys
// go through the browser's WebAuthn (navigator.credentials), the server's options and
// answers as JSON with base64url fields.

import { paths } from "./config.js";

const API = paths.tables.replace(/\/api\/tables$/, "");
let csrf = null;

export class AccountError extends Error {
  constructor(status, body) {
    super((body && body.message) || `HTTP ${status}`);
    this.status = status;
    this.code = body && body.error;
    this.retryAfter = body && body.retry_after;
  }
}

async function answer(response) {
  let body = null;
  try { body = await response.json(); } catch { body = null; }
  const fresh = response.headers.get("X-Trash-CSRF");
  if (fresh) csrf = fresh;
  if (!response.ok) throw new AccountError(response.status, body);
  return body;
}

/** The account signed in here ({signed_in, account?}); null when there is no server
 *  (a static copy of the app offline, or a server without accounts). */
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

/** A POST that changes something: JSON, with the CSRF token. */
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

const fromB64 = (text) => {
  const base = text.replace(/-/g, "+").replace(/_/g, "/");
  const padded = base + "=".repeat((4 - (base.length % 4)) % 4);
  return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0)).buffer;
};
const toB64 = (buffer) => btoa(String.fromCharCode(...new Uint8Array(buffer)))
  .replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

export const passkeysWork = () => Boolean(globalThis.PublicKeyCredential && navigator.credentials);

async function create(options) {
  const publicKey = {
    ...options, challenge: fromB64(options.challenge),
    user: { ...options.user, id: fromB64(options.user.id) },
    excludeCredentials: (options.excludeCredentials || []).map((c) => ({ ...c, id: fromB64(c.id) })),
  };
  const made = await navigator.credentials.create({ publicKey });
  return {
    id: made.id, rawId: toB64(made.rawId), type: made.type,
    response: {
      clientDataJSON: toB64(made.response.clientDataJSON),
      attestationObject: toB64(made.response.attestationObject),
      transports: made.response.getTransports ? made.response.getTransports() : [],
    },
    clientExtensionResults: made.getClientExtensionResults(),
    authenticatorAttachment: made.authenticatorAttachment || undefined,
  };
}

async function get(options) {
  const publicKey = {
    ...options, challenge: fromB64(options.challenge),
    allowCredentials: (options.allowCredentials || []).map((c) => ({ ...c, id: fromB64(c.id) })),
  };
  const got = await navigator.credentials.get({ publicKey });
  return {
    id: got.id, rawId: toB64(got.rawId), type: got.type,
    response: {
      clientDataJSON: toB64(got.response.clientDataJSON),
      authenticatorData: toB64(got.response.authenticatorData),
      signature: toB64(got.response.signature),
      userHandle: got.response.userHandle ? toB64(got.response.userHandle) : null,
    },
    clientExtensionResults: got.getClientExtensionResults(),
    authenticatorAttachment: got.authenticatorAttachment || undefined,
  };
}

/** Make an account called `name` with a new passkey of this device. */
export async function signUpWithPasskey(name) {
  const { ceremony, options } = await send("/api/account/passkey/signup/options", { name });
  return send("/api/account/passkey/signup", { ceremony, credential: await create(options) });
}

/** Sign in with a passkey this device (or its synced keychain) holds. */
export async function signInWithPasskey() {
  const { ceremony, options } = await send("/api/account/passkey/login/options");
  return send("/api/account/passkey/login", { ceremony, credential: await get(options) });
}

/** Add a passkey of this device to the signed-in account. */
export async function addPasskey() {
  const { ceremony, options } = await send("/api/account/passkey/add/options");
  return send("/api/account/passkey/add", { ceremony, credential: await create(options) });
}
