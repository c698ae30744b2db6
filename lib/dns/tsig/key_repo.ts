/**
 * The `dns_tsig_keys` table (migration 16). Listings never select the
 * secret; `withSecret()` alone reads it, for signing and verifying messages.
 */
import type { Store } from "../../store/store.ts";

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

export interface TsigKeyRepo {
  /** Every key by name, without secrets. */
  list(): TsigKeyRow[];
  get(name: string): TsigKeyRow | undefined;
  /** The key with its secret: only for signing and verifying DNS messages. */
  withSecret(name: string): StoredTsigKey | undefined;
  insert(key: StoredTsigKey): void;
  delete(name: string): void;
}

interface Row {
  name: string;
  algorithm: TsigAlgorithm;
  zones: string;
  permissions: string;
  created_at: number;
  secret?: string;
}

const PUBLIC_COLUMNS = "name, algorithm, zones, permissions, created_at";

function toKey(r: Row): TsigKeyRow {
  return {
    name: r.name,
    algorithm: r.algorithm,
    zones: JSON.parse(r.zones) as string[],
    permissions: JSON.parse(r.permissions) as TsigPermission[],
    created_at: r.created_at,
  };
}

export class SqliteTsigKeyRepo implements TsigKeyRepo {
  constructor(private readonly store: Store) {}

  list(): TsigKeyRow[] {
    return this.store.all<Row>(`SELECT ${PUBLIC_COLUMNS} FROM dns_tsig_keys ORDER BY name`)
      .map(toKey);
  }

  get(name: string): TsigKeyRow | undefined {
    const r = this.store.get<Row>(
      `SELECT ${PUBLIC_COLUMNS} FROM dns_tsig_keys WHERE name = ?`,
      name,
    );
    return r && toKey(r);
  }

  withSecret(name: string): StoredTsigKey | undefined {
    const r = this.store.get<Row>(
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
