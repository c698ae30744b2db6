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
import { HmacSigner } from "./hmac_signer.ts";

export const TICKET_TTL_MS = 5 * 60_000;

export class LoginTickets {
  private constructor(private readonly signer: HmacSigner, private readonly clock: Clock) {}

  static async open(meta: MetaRepo, clock: Clock): Promise<LoginTickets> {
    return new LoginTickets(await HmacSigner.open(meta, "login_ticket_key"), clock);
  }

  /**
   * A ticket for `userId`, valid TICKET_TTL_MS; it names the user's auth
   * epoch, so a password change in between voids it.
   */
  async issue(userId: string, authEpoch: number): Promise<string> {
    return await this.signer.sign(`${userId}.${authEpoch}.${this.clock.now() + TICKET_TTL_MS}`);
  }

  /** The user id and auth epoch of a genuine, unexpired ticket; null otherwise. */
  async verify(ticket: string): Promise<{ userId: string; authEpoch: number } | null> {
    const parts = (await this.signer.open(ticket))?.split(".");
    if (parts?.length !== 3) return null;
    const [userId, epoch, expires] = parts;
    return Number(expires) > this.clock.now() ? { userId, authEpoch: Number(epoch) } : null;
  }
}
