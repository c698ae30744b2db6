/**
 * The `dns_api_keys` table (migration 18): scoped DNS API keys, only the
 * SHA-256 (hex) of each raw key. Both engines (docs/architecture.md,
 * "Repositories"): the PostgreSQL twin is `pg_api_key_repo.ts`.
 */
import type { SqliteAsync } from "../../store/sqlite_async.ts";
import type { KeyScope } from "./scope.ts";

/** A stored key; times are Unix milliseconds. */
export interface ApiKeyRecord {
  id: string;
  name: string;
  /** SHA-256 (hex) of the whole raw key. */
  keyHash: string;
  scope: KeyScope;
  createdAt: number;
  expiresAt: number | null;
  lastUsedAt: number | null;
  /** Username of the administrator who made it. */
  createdBy: string;
}

export type NewApiKey = Omit<ApiKeyRecord, "lastUsedAt">;

export interface ApiKeyRepo {
  insert(key: NewApiKey): Promise<void>;
  /** The key `id`; undefined when absent. */
  byId(id: string): Promise<ApiKeyRecord | undefined>;
  /** The key whose hash is `keyHash`; undefined when none. */
  byHash(keyHash: string): Promise<ApiKeyRecord | undefined>;
  /** Every key, newest first (then by id, descending). */
  list(): Promise<ApiKeyRecord[]>;
  /** Removes the key; false when there was none. */
  delete(id: string): Promise<boolean>;
  /** Records use at `at`. */
  touch(id: string, at: number): Promise<void>;
}

/** A row as both engines return it. */
export interface ApiKeyRow {
  id: string;
  name: string;
  key_hash: string;
  scope: string;
  created_at: number;
  expires_at: number | null;
  last_used_at: number | null;
  created_by: string;
}

export const toApiKey = (r: ApiKeyRow): ApiKeyRecord => ({
  id: r.id,
  name: r.name,
  keyHash: r.key_hash,
  scope: JSON.parse(r.scope) as KeyScope,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
  lastUsedAt: r.last_used_at,
  createdBy: r.created_by,
});

const COLUMNS = "id, name, key_hash, scope, created_at, expires_at, last_used_at, created_by";

export class SqliteApiKeyRepo implements ApiKeyRepo {
  constructor(private readonly db: SqliteAsync) {}

  insert(k: NewApiKey): Promise<void> {
    return this.db.run((store) => {
      store.run(
        "INSERT INTO dns_api_keys (id, name, key_hash, scope, created_at, expires_at, created_by) VALUES (?, ?, ?, ?, ?, ?, ?)",
        k.id,
        k.name,
        k.keyHash,
        JSON.stringify(k.scope),
        k.createdAt,
        k.expiresAt,
        k.createdBy,
      );
    });
  }

  byId(id: string): Promise<ApiKeyRecord | undefined> {
    return this.db.run((store) => {
      const r = store.get<ApiKeyRow>(`SELECT ${COLUMNS} FROM dns_api_keys WHERE id = ?`, id);
      return r && toApiKey(r);
    });
  }

  byHash(keyHash: string): Promise<ApiKeyRecord | undefined> {
    return this.db.run((store) => {
      const r = store.get<ApiKeyRow>(
        `SELECT ${COLUMNS} FROM dns_api_keys WHERE key_hash = ?`,
        keyHash,
      );
      return r && toApiKey(r);
    });
  }

  list(): Promise<ApiKeyRecord[]> {
    return this.db.run((store) =>
      store.all<ApiKeyRow>(
        `SELECT ${COLUMNS} FROM dns_api_keys ORDER BY created_at DESC, id DESC`,
      ).map(toApiKey)
    );
  }

  delete(id: string): Promise<boolean> {
    return this.db.run((store) =>
      store.run("DELETE FROM dns_api_keys WHERE id = ?", id).changes > 0
    );
  }

  touch(id: string, at: number): Promise<void> {
    return this.db.run((store) => {
      store.run("UPDATE dns_api_keys SET last_used_at = ? WHERE id = ?", at, id);
    });
  }
}
