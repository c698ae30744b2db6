/**
 * The `sessions` table: dashboard and API cookie sessions, read with their
 * user. Ported to both engines (docs/architecture.md, "Repositories"): the
 * PostgreSQL twin is `pg_session_repo.ts`.
 */
import type { SqliteAsync } from "../store/sqlite_async.ts";
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
  insert(session: NewSession): Promise<void>;
  /** The session `id` with its user; undefined when absent. */
  withUser(id: string): Promise<SessionRecord | undefined>;
  /** Records use at `lastSeen` and moves the expiry. */
  slide(id: string, lastSeen: number, expiresAt: number): Promise<void>;
  delete(id: string): Promise<void>;
  /** Deletes every session of a user; returns how many. */
  deleteForUser(userId: string): Promise<number>;
  /** Deletes the sessions expired at `now` (expiry at or before it); returns how many. */
  deleteExpired(now: number): Promise<number>;
}

/** A row as both engines return it. */
export interface SessionRow {
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

export const toRecord = (r: SessionRow): SessionRecord => ({
  id: r.id,
  secretHash: r.secret_hash,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
  lastSeen: r.last_seen,
  user: { id: r.user_id, username: r.username, email: r.email, role: r.role },
});

export class SqliteSessionRepo implements SessionRepo {
  constructor(private readonly db: SqliteAsync) {}

  insert(s: NewSession): Promise<void> {
    return this.db.run((store) => {
      store.run(
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
    });
  }

  withUser(id: string): Promise<SessionRecord | undefined> {
    return this.db.run((store) => {
      const r = store.get<SessionRow>(
        `SELECT s.id, s.secret_hash, s.created_at, s.expires_at, s.last_seen, s.user_id,
           u.username, u.email, u.role
         FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.id = ?`,
        id,
      );
      return r && toRecord(r);
    });
  }

  slide(id: string, lastSeen: number, expiresAt: number): Promise<void> {
    return this.db.run((store) => {
      store.run(
        "UPDATE sessions SET last_seen = ?, expires_at = ? WHERE id = ?",
        lastSeen,
        expiresAt,
        id,
      );
    });
  }

  delete(id: string): Promise<void> {
    return this.db.run((store) => {
      store.run("DELETE FROM sessions WHERE id = ?", id);
    });
  }

  deleteForUser(userId: string): Promise<number> {
    return this.db.run((store) =>
      store.run("DELETE FROM sessions WHERE user_id = ?", userId).changes
    );
  }

  deleteExpired(now: number): Promise<number> {
    return this.db.run((store) =>
      store.run("DELETE FROM sessions WHERE expires_at <= ?", now).changes
    );
  }
}
