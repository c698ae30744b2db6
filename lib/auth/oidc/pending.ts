/**
 * What the browser carries from the redirect to the provider back to the
 * callback: the provider, `state`, `nonce`, the PKCE verifier and where to
 * go next, sealed (sealed_box.ts) into a short-lived cookie. Sealed rather
 * than stored, so the callback can land on any instance of a PostgreSQL
 * cluster; sealed rather than only signed, so the verifier stays unread.
 */
import type { Clock } from "../../clock.ts";
import { randomToken } from "../secret.ts";
import type { SealedBox } from "../sealed_box.ts";

/** The cookie's name and life: time enough to type a password at the provider. */
export const PENDING_COOKIE = "palisade_sso";
export const PENDING_TTL_MS = 10 * 60_000;

export interface PendingLogin {
  provider: string;
  state: string;
  nonce: string;
  verifier: string;
  next: string;
  expires: number;
}

const CONTEXT = "oidc-pending";

/** A fresh pending login for `provider`: random state, nonce and verifier. */
export function newPending(provider: string, next: string, clock: Clock): PendingLogin {
  return {
    provider,
    state: randomToken(24),
    nonce: randomToken(24),
    verifier: randomToken(48),
    next,
    expires: clock.now() + PENDING_TTL_MS,
  };
}

export function sealPending(box: SealedBox, p: PendingLogin): Promise<string> {
  return box.seal(CONTEXT, JSON.stringify(p));
}

/** The pending login of a genuine, unexpired cookie value; null otherwise. */
export async function openPending(
  box: SealedBox,
  value: string | undefined,
  clock: Clock,
): Promise<PendingLogin | null> {
  if (!value) return null;
  const plain = await box.unseal(CONTEXT, value);
  if (plain === null) return null;
  const p = JSON.parse(plain) as PendingLogin;
  return p.expires > clock.now() ? p : null;
}

/** The PKCE S256 challenge of `verifier` (RFC 7636, 4.2). */
export async function challengeOf(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier));
  return btoa(String.fromCharCode(...new Uint8Array(digest)))
    .replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
