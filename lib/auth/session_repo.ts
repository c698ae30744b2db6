/** The `sessions` table: dashboard and API cookie sessions, read with their user. */
import type { Store } from "../store/store.ts";
import type { Role } from "./roles.ts";
import type { AuthUser } from "./user.ts";

/** A stored session and its user; times are Unix milliseconds. */
export interface SessionRecord {
  id: string;
  /** SHA-256 (hex) of the cookie's secret part. */
  secretHash: string;
  createdAt: number;
  expiresAt: number;
  lastSeen: number;
  user: AuthUser;
}

/** What a new session's row is made of. */
export interface NewSession {
  id: string;
  secretHash: string;
  userId: string;
  createdAt: number;
  expiresAt: number;
  address: string;
  userAgent: string;
}

export interface SessionRepo {
  insert(session: NewSession): void;
  /** The session `id` with its user; undefined when absent. */
  withUser(id: string): SessionRecord | undefined;
  /** Records use at `lastSeen` and moves the expiry. */
  slide(id: string, lastSeen: number, expiresAt: number): void;
  delete(id: string): void;
  /** Deletes every session of a user; returns how many. */
  deleteForUser(userId: string): number;
  /** Deletes the sessions expired at `now`; returns how many. */
  deleteExpired(now: number): number;
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

export class SqliteSessionRepo implements SessionRepo {
  constructor(private readonly store: Store) {}

  insert(s: NewSession): void {
    this.store.run(
      "INSERT INTO sessions (id, secret_hash, user_id, created_at, expires_at, last_seen, address, user_agent) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
      s.id,
      s.secretHash,
      s.userId,
      s.createdAt,
      s.expiresAt,
      s.createdAt,
      s.address,
      s.userAgent,
    );
  }

  withUser(id: string): SessionRecord | undefined {
    const r = this.store.get<SessionRow>(
      `SELECT s.id, s.secret_hash, s.created_at, s.expires_at, s.last_seen, s.user_id,
         u.username, u.email, u.role
       FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.id = ?`,
      id,
    );
    return r && {
      id: r.id,
      secretHash: r.secret_hash,
      createdAt: r.created_at,
      expiresAt: r.expires_at,
      lastSeen: r.last_seen,
      user: { id: r.user_id, username: r.username, email: r.email, role: r.role },
    };
  }

  slide(id: string, lastSeen: number, expiresAt: number): void {
    this.store.run(
      "UPDATE sessions SET last_seen = ?, expires_at = ? WHERE id = ?",
      lastSeen,
      expiresAt,
      id,
    );
  }

  delete(id: string): void {
    this.store.run("DELETE FROM sessions WHERE id = ?", id);
  }

  deleteForUser(userId: string): number {
    return this.store.run("DELETE FROM sessions WHERE user_id = ?", userId).changes;
  }

  deleteExpired(now: number): number {
    return this.store.run("DELETE FROM sessions WHERE expires_at <= ?", now).changes;
  }
}
