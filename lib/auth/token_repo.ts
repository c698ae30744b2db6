/**
 * The `api_tokens` table: API tokens, read with their owner. Ported to both
 * engines (docs/architecture.md, "Repositories"): the PostgreSQL twin is
 * `pg_token_repo.ts`.
 */
import type { SqliteAsync } from "../store/sqlite_async.ts";
import type { Role } from "./roles.ts";
import type { AuthUser } from "./user.ts";

/** A stored token and its owner; times are Unix milliseconds. */
export interface TokenRecord {
  id: string;
  name: string;
  /** SHA-256 (hex) of the whole raw token. */
  tokenHash: string;
  createdAt: number;
  expiresAt: number;
  lastUsedAt: number | null;
  owner: AuthUser;
}

/** What a new token's row is made of. */
export interface NewToken {
  id: string;
  userId: string;
  name: string;
  tokenHash: string;
  createdAt: number;
  expiresAt: number;
}

export interface TokenRepo {
  insert(token: NewToken): Promise<void>;
  /** The token `id` with its owner; undefined when absent. */
  byId(id: string): Promise<TokenRecord | undefined>;
  /** Every token, newest first (then by id, descending). */
  listAll(): Promise<TokenRecord[]>;
  /** The tokens of one user, newest first (then by id, descending). */
  listOf(userId: string): Promise<TokenRecord[]>;
  delete(id: string): Promise<void>;
  /** Records use at `at`. */
  touch(id: string, at: number): Promise<void>;
}

/** A row as both engines return it. */
export interface TokenRow {
  id: string;
  user_id: string;
  name: string;
  token_hash: string;
  created_at: number;
  expires_at: number;
  last_used_at: number | null;
  username: string;
  email: string;
  role: Role;
}

const SELECT_WITH_OWNER = `SELECT t.id, t.user_id, t.name, t.token_hash, t.created_at,
    t.expires_at, t.last_used_at, u.username, u.email, u.role
  FROM api_tokens t JOIN users u ON u.id = t.user_id`;

export const toRecord = (r: TokenRow): TokenRecord => ({
  id: r.id,
  name: r.name,
  tokenHash: r.token_hash,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
  lastUsedAt: r.last_used_at,
  owner: { id: r.user_id, username: r.username, email: r.email, role: r.role },
});

export class SqliteTokenRepo implements TokenRepo {
  constructor(private readonly db: SqliteAsync) {}

  insert(t: NewToken): Promise<void> {
    return this.db.run((store) => {
      store.run(
        "INSERT INTO api_tokens (id, user_id, name, token_hash, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)",
        t.id,
        t.userId,
        t.name,
        t.tokenHash,
        t.createdAt,
        t.expiresAt,
      );
    });
  }

  byId(id: string): Promise<TokenRecord | undefined> {
    return this.db.run((store) => {
      const r = store.get<TokenRow>(`${SELECT_WITH_OWNER} WHERE t.id = ?`, id);
      return r && toRecord(r);
    });
  }

  listAll(): Promise<TokenRecord[]> {
    return this.db.run((store) =>
      store.all<TokenRow>(`${SELECT_WITH_OWNER} ORDER BY t.created_at DESC, t.id DESC`)
        .map(toRecord)
    );
  }

  listOf(userId: string): Promise<TokenRecord[]> {
    return this.db.run((store) =>
      store.all<TokenRow>(
        `${SELECT_WITH_OWNER} WHERE t.user_id = ? ORDER BY t.created_at DESC, t.id DESC`,
        userId,
      ).map(toRecord)
    );
  }

  delete(id: string): Promise<void> {
    return this.db.run((store) => {
      store.run("DELETE FROM api_tokens WHERE id = ?", id);
    });
  }

  touch(id: string, at: number): Promise<void> {
    return this.db.run((store) => {
      store.run("UPDATE api_tokens SET last_used_at = ? WHERE id = ?", at, id);
    });
  }
}
