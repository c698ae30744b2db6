/**
 * Dashboard and API sessions behind the `svc_session` cookie. The cookie value
 * is `<id>.<secret>`: the id finds the row, the secret is compared in constant
 * time against its stored SHA-256, so neither a database read nor a timing
 * side channel yields a usable cookie.
 */
import type { Clock } from "../clock.ts";
import { randomToken, safeEqual, sha256Hex } from "./secret.ts";
import type { SessionRepo } from "./session_repo.ts";
import type { AuthUser } from "./user.ts";

/** A session ends after 12 hours without use, and after 7 days in any case. */
export const SESSION_IDLE_MS = 12 * 3600_000;
export const SESSION_MAX_MS = 7 * 24 * 3600_000;
/** Sliding the expiry is a write; do it at most once a minute per session. */
const TOUCH_EVERY_MS = 60_000;

export interface ResolvedSession {
  id: string;
  user: AuthUser;
  expiresAt: number;
}

export class SessionService {
  constructor(private readonly repo: SessionRepo, private readonly clock: Clock) {}

  /** Starts a session; returns the cookie value (shown only here). */
  async create(
    userId: string,
    meta: { address: string; userAgent: string },
  ): Promise<{ cookie: string; id: string; expiresAt: number }> {
    const id = crypto.randomUUID();
    const secret = randomToken(32);
    const now = this.clock.now();
    const expiresAt = now + SESSION_IDLE_MS;
    await this.repo.insert({
      id,
      secretHash: sha256Hex(secret),
      userId,
      createdAt: now,
      expiresAt,
      address: meta.address,
      userAgent: meta.userAgent.slice(0, 200),
    });
    return { cookie: `${id}.${secret}`, id, expiresAt };
  }

  /**
   * The live session behind a cookie value, sliding its expiry (unless
   * `touch` is false: a background re-check must not keep a session alive);
   * null when invalid or expired.
   */
  async resolve(cookie: string | undefined, touch = true): Promise<ResolvedSession | null> {
    if (!cookie) return null;
    const m = /^([0-9a-f-]{36})\.([A-Za-z0-9_-]{20,64})$/.exec(cookie);
    if (!m) return null;
    const s = await this.repo.withUser(m[1]);
    if (!s || !safeEqual(sha256Hex(m[2]), s.secretHash)) return null;
    const now = this.clock.now();
    if (now >= s.expiresAt) {
      await this.repo.delete(s.id);
      return null;
    }
    let expiresAt = s.expiresAt;
    if (touch && now - s.lastSeen >= TOUCH_EVERY_MS) {
      expiresAt = Math.min(now + SESSION_IDLE_MS, s.createdAt + SESSION_MAX_MS);
      await this.repo.slide(s.id, now, expiresAt);
    }
    return { id: s.id, user: s.user, expiresAt };
  }

  /** Ends one session. */
  end(id: string): Promise<void> {
    return this.repo.delete(id);
  }

  /** Ends every session of a user; returns how many. */
  endAllForUser(userId: string): Promise<number> {
    return this.repo.deleteForUser(userId);
  }

  /** Drops expired rows; run by the housekeeping timer. */
  purgeExpired(): Promise<number> {
    return this.repo.deleteExpired(this.clock.now());
  }
}
