/**
 * WebAuthn challenges without a row per page view: a challenge is a signed
 * ticket (purpose, user, expiry, random nonce; HMAC-SHA-256 under a key kept
 * in `meta`), so any instance on the same store accepts it, and a sign-in
 * page shown to anyone writes nothing. It is taken once: the first answer
 * records its hash (PasskeyRepo.takeChallenge, until it expires), so a
 * replayed assertion is refused on every instance.
 */
import type { Clock } from "../../clock.ts";
import type { MetaRepo } from "../../system/meta_repo.ts";
import { metaSecret } from "../meta_secret.ts";
import { safeEqual, sha256Hex } from "../secret.ts";

export const CHALLENGE_TTL_MS = 5 * 60_000;

/** What a challenge is for: adding a passkey, signing in without a password, or the second step. */
export type ChallengePurpose = "register" | "login" | "second";

export const b64url = (b: Uint8Array) =>
  btoa(String.fromCharCode(...b)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

export function fromB64url(s: string): Uint8Array<ArrayBuffer> {
  const std = s.replace(/-/g, "+").replace(/_/g, "/");
  return Uint8Array.from(atob(std + "=".repeat((4 - std.length % 4) % 4)), (c) => c.charCodeAt(0));
}

/** A challenge as the signed ticket's text and the bytes handed to the authenticator. */
export interface Challenge {
  text: string;
  bytes: Uint8Array<ArrayBuffer>;
}

export class PasskeyChallenges {
  private constructor(private readonly key: CryptoKey, private readonly clock: Clock) {}

  static async open(meta: MetaRepo, clock: Clock): Promise<PasskeyChallenges> {
    const raw = new Uint8Array(await metaSecret(meta, "passkey_challenge_key", 32));
    const key = await crypto.subtle.importKey(
      "raw",
      raw,
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign"],
    );
    return new PasskeyChallenges(key, clock);
  }

  async #mac(body: string): Promise<string> {
    const mac = await crypto.subtle.sign("HMAC", this.key, new TextEncoder().encode(body));
    return b64url(new Uint8Array(mac));
  }

  /** A new challenge for `purpose`, bound to `userId` ("" when any user may answer). */
  async issue(purpose: ChallengePurpose, userId: string): Promise<Challenge> {
    const nonce = b64url(crypto.getRandomValues(new Uint8Array(16)));
    // The user id is encoded: it may hold any character, the ticket splits on ".".
    const user = b64url(new TextEncoder().encode(userId));
    const body = `${purpose}.${user}.${this.clock.now() + CHALLENGE_TTL_MS}.${nonce}`;
    const text = `${body}.${await this.#mac(body)}`;
    return { text, bytes: new TextEncoder().encode(text) };
  }

  /**
   * Reads the challenge a browser answered (base64url, as in clientDataJSON):
   * its user and expiry when it is genuine, unexpired and for `purpose`;
   * null otherwise. Does not take it (see `hash`).
   */
  async verify(
    answered: string,
    purpose: ChallengePurpose,
  ): Promise<{ userId: string; expiresAt: number; hash: string } | null> {
    let text: string;
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(fromB64url(answered));
    } catch {
      return null;
    }
    const parts = text.split(".");
    if (parts.length !== 5) return null;
    const [p, user, expires, nonce, mac] = parts;
    if (!safeEqual(mac, await this.#mac(`${p}.${user}.${expires}.${nonce}`))) return null;
    const expiresAt = Number(expires);
    if (p !== purpose || !(expiresAt > this.clock.now())) return null;
    const userId = new TextDecoder().decode(fromB64url(user));
    return { userId, expiresAt, hash: sha256Hex(text) };
  }
}
