/** The `api_tokens` table: API tokens, read with their owner. */
import type { Store } from "../store/store.ts";
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
  insert(token: NewToken): void;
  /** The token `id` with its owner; undefined when absent. */
  byId(id: string): TokenRecord | undefined;
  /** Every token, newest first. */
  listAll(): TokenRecord[];
  /** The tokens of one user, newest first. */
  listOf(userId: string): TokenRecord[];
  delete(id: string): void;
  /** Records use at `at`. */
  touch(id: string, at: number): void;
}

interface TokenRow {
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

const toRecord = (r: TokenRow): TokenRecord => ({
  id: r.id,
  name: r.name,
  tokenHash: r.token_hash,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
  lastUsedAt: r.last_used_at,
  owner: { id: r.user_id, username: r.username, email: r.email, role: r.role },
});

export class SqliteTokenRepo implements TokenRepo {
  constructor(private readonly store: Store) {}

  insert(t: NewToken): void {
    this.store.run(
      "INSERT INTO api_tokens (id, user_id, name, token_hash, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)",
      t.id,
      t.userId,
      t.name,
      t.tokenHash,
      t.createdAt,
      t.expiresAt,
    );
  }

  byId(id: string): TokenRecord | undefined {
    const r = this.store.get<TokenRow>(`${SELECT_WITH_OWNER} WHERE t.id = ?`, id);
    return r && toRecord(r);
  }

  listAll(): TokenRecord[] {
    return this.store.all<TokenRow>(`${SELECT_WITH_OWNER} ORDER BY t.created_at DESC`)
      .map(toRecord);
  }

  listOf(userId: string): TokenRecord[] {
    return this.store.all<TokenRow>(
      `${SELECT_WITH_OWNER} WHERE t.user_id = ? ORDER BY t.created_at DESC`,
      userId,
    ).map(toRecord);
  }

  delete(id: string): void {
    this.store.run("DELETE FROM api_tokens WHERE id = ?", id);
  }

  touch(id: string, at: number): void {
    this.store.run("UPDATE api_tokens SET last_used_at = ? WHERE id = ?", at, id);
  }
}
