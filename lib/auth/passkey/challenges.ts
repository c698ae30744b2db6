/**
 * WebAuthn challenges without a row per page view: a challenge is a signed
 * ticket (purpose, user, expiry, random nonce; HMAC-SHA-256 under a key kept
 * in `meta`), so any instance on the same store accepts it, and a sign-in
 * page shown to anyone writes nothing. It is taken once: the first answer
 * records its hash (PasskeyRepo.takeChallenge, until it expires), so a
 * replayed assertion is refused on every instance.
 */
import { fromBase64Url, toBase64Url } from "../../bytes.ts";
import type { Clock } from "../../clock.ts";
import type { MetaRepo } from "../../system/meta_repo.ts";
import { HmacSigner } from "../hmac_signer.ts";
import { sha256Hex } from "../secret.ts";

export const CHALLENGE_TTL_MS = 5 * 60_000;

/** What a challenge is for: adding a passkey, signing in without a password, or the second step. */
export type ChallengePurpose = "register" | "login" | "second";

/** A challenge as the signed ticket's text and the bytes handed to the authenticator. */
export interface Challenge {
  text: string;
  bytes: Uint8Array<ArrayBuffer>;
}

export class PasskeyChallenges {
  private constructor(private readonly signer: HmacSigner, private readonly clock: Clock) {}

  static async open(meta: MetaRepo, clock: Clock): Promise<PasskeyChallenges> {
    return new PasskeyChallenges(await HmacSigner.open(meta, "passkey_challenge_key"), clock);
  }

  /** A new challenge for `purpose`, bound to `userId` ("" when any user may answer). */
  async issue(purpose: ChallengePurpose, userId: string): Promise<Challenge> {
    const nonce = toBase64Url(crypto.getRandomValues(new Uint8Array(16)));
    // The user id is encoded: it may hold any character, the ticket splits on ".".
    const user = toBase64Url(new TextEncoder().encode(userId));
    const text = await this.signer.sign(
      `${purpose}.${user}.${this.clock.now() + CHALLENGE_TTL_MS}.${nonce}`,
    );
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
      text = new TextDecoder("utf-8", { fatal: true }).decode(fromBase64Url(answered));
    } catch {
      return null;
    }
    const parts = (await this.signer.open(text))?.split(".");
    if (parts?.length !== 4) return null;
    const [p, user, expires] = parts;
    const expiresAt = Number(expires);
    if (p !== purpose || !(expiresAt > this.clock.now())) return null;
    const userId = new TextDecoder().decode(fromBase64Url(user));
    return { userId, expiresAt, hash: sha256Hex(text) };
  }
}
