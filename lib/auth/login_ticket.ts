/**
 * The dashboard's sign-in in two steps: after a right password from a user
 * with two-factor sign-in on, the form asks for the code on a second page.
 * What carries the first step's success there is a ticket: the user id and
 * an expiry, signed with HMAC-SHA-256 under a key kept in `meta`
 * (meta_secret.ts), so the password is never echoed into a page and any
 * instance on the same database accepts it. It only lets the holder try
 * codes, under the login throttle, for a few minutes.
 */
import type { Clock } from "../clock.ts";
import type { MetaRepo } from "../system/meta_repo.ts";
import { metaSecret } from "./meta_secret.ts";
import { safeEqual } from "./secret.ts";

export const TICKET_TTL_MS = 5 * 60_000;

const b64url = (b: Uint8Array) =>
  btoa(String.fromCharCode(...b)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

export class LoginTickets {
  private constructor(private readonly key: CryptoKey, private readonly clock: Clock) {}

  static async open(meta: MetaRepo, clock: Clock): Promise<LoginTickets> {
    const raw = new Uint8Array(await metaSecret(meta, "login_ticket_key", 32));
    const key = await crypto.subtle.importKey(
      "raw",
      raw,
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign"],
    );
    return new LoginTickets(key, clock);
  }

  async #mac(body: string): Promise<string> {
    const mac = await crypto.subtle.sign("HMAC", this.key, new TextEncoder().encode(body));
    return b64url(new Uint8Array(mac));
  }

  /**
   * A ticket for `userId`, valid TICKET_TTL_MS; it names the user's auth
   * epoch, so a password change in between voids it.
   */
  async issue(userId: string, authEpoch: number): Promise<string> {
    const body = `${userId}.${authEpoch}.${this.clock.now() + TICKET_TTL_MS}`;
    return `${body}.${await this.#mac(body)}`;
  }

  /** The user id and auth epoch of a genuine, unexpired ticket; null otherwise. */
  async verify(ticket: string): Promise<{ userId: string; authEpoch: number } | null> {
    const parts = ticket.split(".");
    if (parts.length !== 4) return null;
    const [userId, epoch, expires, mac] = parts;
    if (!safeEqual(mac, await this.#mac(`${userId}.${epoch}.${expires}`))) return null;
    return Number(expires) > this.clock.now() ? { userId, authEpoch: Number(epoch) } : null;
  }
}
