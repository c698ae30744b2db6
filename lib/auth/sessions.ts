/**
 * Dashboard and API sessions behind the `svc_session` cookie. The cookie value
 * is `<id>.<secret>`: the id finds the row, the secret is compared in constant
 * time against its stored SHA-256, so neither a database read nor a timing
 * side channel yields a usable cookie.
 */
import type { Clock } from "../clock.ts";
import type { Store } from "../store/store.ts";
import { randomToken, safeEqual, sha256Hex } from "./secret.ts";
import type { AuthUser } from "./user.ts";
import type { Role } from "./roles.ts";

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

interface SessionRow {
  id: string;
  secret_hash: string;
  created_at: number;
  expires_at: number;
  last_seen: number;
  user_id: string;
  username: string;
  email: string;
  role: Role;
}

export class SessionService {
  constructor(private readonly store: Store, private readonly clock: Clock) {}

  /** Starts a session; returns the cookie value (shown only here). */
  create(
    userId: string,
    meta: { address: string; userAgent: string },
  ): { cookie: string; id: string; expiresAt: number } {
    const id = crypto.randomUUID();
    const secret = randomToken(32);
    const now = this.clock.now();
    const expiresAt = now + SESSION_IDLE_MS;
    this.store.run(
      "INSERT INTO sessions (id, secret_hash, user_id, created_at, expires_at, last_seen, address, user_agent) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
      id,
      sha256Hex(secret),
      userId,
      now,
      expiresAt,
      now,
      meta.address,
      meta.userAgent.slice(0, 200),
    );
    return { cookie: `${id}.${secret}`, id, expiresAt };
  }

  /**
   * The live session behind a cookie value, sliding its expiry (unless
   * `touch` is false: a background re-check must not keep a session alive);
   * null when invalid or expired.
   */
  resolve(cookie: string | undefined, touch = true): ResolvedSession | null {
    if (!cookie) return null;
    const m = /^([0-9a-f-]{36})\.([A-Za-z0-9_-]{20,64})$/.exec(cookie);
    if (!m) return null;
    const row = this.store.get<SessionRow>(
      `SELECT s.*, u.username, u.email, u.role FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.id = ?`,
      m[1],
    );
    if (!row || !safeEqual(sha256Hex(m[2]), row.secret_hash)) return null;
    const now = this.clock.now();
    if (now >= row.expires_at) {
      this.store.run("DELETE FROM sessions WHERE id = ?", row.id);
      return null;
    }
    let expiresAt = row.expires_at;
    if (touch && now - row.last_seen >= TOUCH_EVERY_MS) {
      expiresAt = Math.min(now + SESSION_IDLE_MS, row.created_at + SESSION_MAX_MS);
      this.store.run(
        "UPDATE sessions SET last_seen = ?, expires_at = ? WHERE id = ?",
        now,
        expiresAt,
        row.id,
      );
    }
    return {
      id: row.id,
      user: { id: row.user_id, username: row.username, email: row.email, role: row.role },
      expiresAt,
    };
  }

  /** Ends one session. */
  end(id: string): void {
    this.store.run("DELETE FROM sessions WHERE id = ?", id);
  }

  /** Ends every session of a user; returns how many. */
  endAllForUser(userId: string): number {
    return this.store.run("DELETE FROM sessions WHERE user_id = ?", userId).changes;
  }

  /** Drops expired rows; run by the housekeeping timer. */
  purgeExpired(): number {
    return this.store.run("DELETE FROM sessions WHERE expires_at <= ?", this.clock.now()).changes;
  }
}
