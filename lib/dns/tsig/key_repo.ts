/**
 * The `dns_tsig_keys` table (migration 16). Listings never select the
 * secret; `withSecret()` alone reads it, for signing and verifying messages.
 */
import type { SqliteAsync } from "../../store/sqlite_async.ts";
import { ConflictError } from "../../errors.ts";
import { isUniqueViolation, type Store } from "../../store/store.ts";
import type { Async } from "../async.ts";

export type TsigAlgorithm = "hmac-sha256" | "hmac-sha512" | "hmac-sha1";
export type TsigPermission = "transfer" | "update";

/** A key as listed: everything but the secret. `created_at` in ms since the epoch. */
export interface TsigKeyRow {
  /** Lower-case domain name without the final dot. */
  name: string;
  algorithm: TsigAlgorithm;
  /** Zone names the key may act on; empty for every zone. */
  zones: string[];
  permissions: TsigPermission[];
  created_at: number;
}

/** A key with its base64 secret. */
export interface StoredTsigKey extends TsigKeyRow {
  secret: string;
}

/**
 * The synchronous statements of `dns_tsig_keys` on SQLite, which `SqliteTsigKeyRepo` runs;
 * the methods are those of `TsigKeyRepo`, returning at once.
 */
export interface TsigKeyStatements {
  /** Every key by name, without secrets. */
  list(): TsigKeyRow[];
  get(name: string): TsigKeyRow | undefined;
  /** The key with its secret: only for signing and verifying DNS messages. */
  withSecret(name: string): StoredTsigKey | undefined;
  insert(key: StoredTsigKey): void;
  delete(name: string): void;
}

/** A `dns_tsig_keys` row as both engines return it. */
export interface TsigKeyDbRow {
  name: string;
  algorithm: TsigAlgorithm;
  zones: string;
  permissions: string;
  created_at: number;
  secret?: string;
}

const PUBLIC_COLUMNS = "name, algorithm, zones, permissions, created_at";

export function toKey(r: TsigKeyDbRow): TsigKeyRow {
  return {
    name: r.name,
    algorithm: r.algorithm,
    zones: JSON.parse(r.zones) as string[],
    permissions: JSON.parse(r.permissions) as TsigPermission[],
    created_at: r.created_at,
  };
}

export class SqliteTsigKeyStatements implements TsigKeyStatements {
  constructor(private readonly store: Store) {}

  list(): TsigKeyRow[] {
    return this.store.all<TsigKeyDbRow>(`SELECT ${PUBLIC_COLUMNS} FROM dns_tsig_keys ORDER BY name`)
      .map(toKey);
  }

  get(name: string): TsigKeyRow | undefined {
    const r = this.store.get<TsigKeyDbRow>(
      `SELECT ${PUBLIC_COLUMNS} FROM dns_tsig_keys WHERE name = ?`,
      name,
    );
    return r && toKey(r);
  }

  withSecret(name: string): StoredTsigKey | undefined {
    const r = this.store.get<TsigKeyDbRow>(
      `SELECT ${PUBLIC_COLUMNS}, secret FROM dns_tsig_keys WHERE name = ?`,
      name,
    );
    return r && { ...toKey(r), secret: r.secret! };
  }

  insert(k: StoredTsigKey): void {
    this.store.run(
      `INSERT INTO dns_tsig_keys (name, algorithm, secret, zones, permissions, created_at)
       VALUES (?, ?, ?, ?, ?, ?)`,
      k.name,
      k.algorithm,
      k.secret,
      JSON.stringify(k.zones),
      JSON.stringify(k.permissions),
      k.created_at,
    );
  }

  delete(name: string): void {
    this.store.run("DELETE FROM dns_tsig_keys WHERE name = ?", name);
  }
}

/** The conflict of a second key of one name, on both engines. */
export function tsigTaken(name: string): ConflictError {
  return new ConflictError(`TSIG key "${name}" already exists`, "name");
}

/** The TSIG keys of either engine (docs/scaling.md); methods documented on `TsigKeyStatements`. */
export type TsigKeyRepo = Async<TsigKeyStatements>;

/** `dns_tsig_keys` on SQLite: the synchronous statements, run through `SqliteAsync`. */
export class SqliteTsigKeyRepo implements TsigKeyRepo {
  readonly #s: SqliteTsigKeyStatements;

  constructor(private readonly db: SqliteAsync) {
    this.#s = new SqliteTsigKeyStatements(db.store);
  }

  list() {
    return this.db.run(() => this.#s.list());
  }
  get(name: string) {
    return this.db.run(() => this.#s.get(name));
  }
  withSecret(name: string) {
    return this.db.run(() => this.#s.withSecret(name));
  }
  insert(key: StoredTsigKey) {
    return this.db.run(() => {
      try {
        this.#s.insert(key);
      } catch (err) {
        throw isUniqueViolation(err) ? tsigTaken(key.name) : err;
      }
    });
  }
  delete(name: string) {
    return this.db.run(() => this.#s.delete(name));
  }
}
