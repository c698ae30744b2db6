/**
 * The `dnssec_keys` table: every statement and row mapping of DNSSEC keys.
 * Listings never select the private key; `signing()` alone reads it, for the
 * answer index's signing keys, so no other path can carry it to a response.
 * A removed key keeps its row, without its private key, until the next key of
 * its type is removed: the status shows how the last rollover ended.
 */
import type { SqliteAsync } from "../../store/sqlite_async.ts";
import type { Store } from "../../store/store.ts";
import type { Async } from "../async.ts";
import type { DnssecAlgorithm, KeyType } from "./types.ts";

/** A key's lifecycle (RFC 7583), as far as the store tracks it. */
export type KeyState = "published" | "active" | "retired" | "removed";

/** A key as listed: everything but the private key. Times are milliseconds since the epoch. */
export interface DnssecKeyRow {
  id: string;
  zone: string;
  algorithm: DnssecAlgorithm;
  key_type: KeyType;
  bits: number;
  flags: 256 | 257;
  /** Base64 of the DNSKEY public key field. */
  public_key: string;
  key_tag: number;
  state: KeyState;
  created_at: number;
  publish_at: number;
  activate_at: number;
  retire_at: number | null;
  remove_at: number | null;
  expires_at: number | null;
}

/** A key with its private half: base64 of PKCS#8 DER. */
export interface StoredKey extends DnssecKeyRow {
  private_key: string;
}

/**
 * The synchronous statements of `dnssec_keys` on SQLite, which `SqliteDnssecKeyRepo` runs;
 * the methods are those of `DnssecKeyRepo`, returning at once.
 */
export interface DnssecKeyStatements {
  /** The zone's keys that are not removed, KSK first, then by when they (start to) sign; never the private key. */
  list(zone: string): DnssecKeyRow[];
  /** The zone's keys, the last removed one of each type among them (after the others). */
  listWithRemoved(zone: string): DnssecKeyRow[];
  /** The zone's active keys with their private keys: only for the answer index's signing keys. */
  signing(zone: string): StoredKey[];
  /** The zones with a key whose next step (activate, retire, remove) is due at `now`. */
  dueZones(now: number): string[];
  insert(key: StoredKey): void;
  /** Schedules an active key's retirement; `removeAt` is also its `expires_at`. */
  schedule(id: string, retireAt: number, removeAt: number): void;
  /** A published key starts signing. */
  activate(id: string): void;
  /** An active key stops signing; stays published until `removeAt` (also its `expires_at`). */
  retire(id: string, removeAt: number): void;
  /**
   * A retired key leaves the DNSKEY RRset: state removed, private key erased;
   * an earlier removed key of the zone and type is deleted.
   */
  remove(id: string): void;
  /** Deletes the zone's keys (they go with the zone too). */
  deleteAll(zone: string): void;
}

/** Every column but `private_key`, for the listings. */
const PUBLIC_COLUMNS = `id, zone_name, algorithm, key_type, bits, flags, public_key, key_tag, state,
  created_at, publish_at, activate_at, retire_at, remove_at, expires_at`;

/** A `dnssec_keys` row as both engines return it. */
export interface DnssecKeyDbRow extends Omit<DnssecKeyRow, "zone"> {
  zone_name: string;
  private_key?: string;
}

export function toKey(r: DnssecKeyDbRow): DnssecKeyRow {
  return {
    id: r.id,
    zone: r.zone_name,
    algorithm: r.algorithm,
    key_type: r.key_type,
    bits: r.bits,
    flags: r.flags,
    public_key: r.public_key,
    key_tag: r.key_tag,
    state: r.state,
    created_at: r.created_at,
    publish_at: r.publish_at,
    activate_at: r.activate_at,
    retire_at: r.retire_at,
    remove_at: r.remove_at,
    expires_at: r.expires_at,
  };
}

export class SqliteDnssecKeyStatements implements DnssecKeyStatements {
  constructor(private readonly store: Store) {}

  list(zone: string): DnssecKeyRow[] {
    return this.store.all<DnssecKeyDbRow>(
      `SELECT ${PUBLIC_COLUMNS} FROM dnssec_keys WHERE zone_name = ? AND state != 'removed'
       ORDER BY key_type, activate_at, created_at, id`,
      zone,
    ).map(toKey);
  }

  listWithRemoved(zone: string): DnssecKeyRow[] {
    return this.store.all<DnssecKeyDbRow>(
      `SELECT ${PUBLIC_COLUMNS} FROM dnssec_keys WHERE zone_name = ?
       ORDER BY state = 'removed', key_type, activate_at, created_at, id`,
      zone,
    ).map(toKey);
  }

  dueZones(now: number): string[] {
    return this.store.all<{ zone_name: string }>(
      `SELECT DISTINCT zone_name FROM dnssec_keys
       WHERE (state = 'published' AND activate_at <= ?)
          OR (state = 'active' AND retire_at IS NOT NULL AND retire_at <= ?)
          OR (state = 'retired' AND remove_at IS NOT NULL AND remove_at <= ?)
       ORDER BY zone_name`,
      now,
      now,
      now,
    ).map((r) => r.zone_name);
  }

  signing(zone: string): StoredKey[] {
    return this.store.all<DnssecKeyDbRow>(
      `SELECT ${PUBLIC_COLUMNS}, private_key FROM dnssec_keys WHERE zone_name = ? AND state = 'active'
       ORDER BY key_type, activate_at, created_at, id`,
      zone,
    ).map((r) => ({ ...toKey(r), private_key: r.private_key! }));
  }

  insert(k: StoredKey): void {
    this.store.run(
      `INSERT INTO dnssec_keys (id, zone_name, algorithm, key_type, bits, flags, public_key, private_key,
       key_tag, state, created_at, publish_at, activate_at, retire_at, remove_at, expires_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      k.id,
      k.zone,
      k.algorithm,
      k.key_type,
      k.bits,
      k.flags,
      k.public_key,
      k.private_key,
      k.key_tag,
      k.state,
      k.created_at,
      k.publish_at,
      k.activate_at,
      k.retire_at,
      k.remove_at,
      k.expires_at,
    );
  }

  schedule(id: string, retireAt: number, removeAt: number): void {
    this.store.run(
      "UPDATE dnssec_keys SET retire_at = ?, remove_at = ?, expires_at = ? WHERE id = ?",
      retireAt,
      removeAt,
      removeAt,
      id,
    );
  }

  activate(id: string): void {
    this.store.run("UPDATE dnssec_keys SET state = 'active' WHERE id = ?", id);
  }

  retire(id: string, removeAt: number): void {
    this.store.run(
      "UPDATE dnssec_keys SET state = 'retired', remove_at = ?, expires_at = ? WHERE id = ?",
      removeAt,
      removeAt,
      id,
    );
  }

  remove(id: string): void {
    this.store.run(
      `DELETE FROM dnssec_keys WHERE state = 'removed' AND (zone_name, key_type) =
       (SELECT zone_name, key_type FROM dnssec_keys WHERE id = ?)`,
      id,
    );
    // An empty string, not NULL: the column is NOT NULL, and nothing reads a removed key's.
    this.store.run(
      "UPDATE dnssec_keys SET state = 'removed', private_key = '' WHERE id = ?",
      id,
    );
  }

  deleteAll(zone: string): void {
    this.store.run("DELETE FROM dnssec_keys WHERE zone_name = ?", zone);
  }
}

/** The DNSSEC keys of either engine (docs/scaling.md); methods documented on `DnssecKeyStatements`. */
export type DnssecKeyRepo = Async<DnssecKeyStatements>;

/** `dnssec_keys` on SQLite: the synchronous statements, run through `SqliteAsync`. */
export class SqliteDnssecKeyRepo implements DnssecKeyRepo {
  readonly #s: SqliteDnssecKeyStatements;

  constructor(private readonly db: SqliteAsync) {
    this.#s = new SqliteDnssecKeyStatements(db.store);
  }

  list(zone: string) {
    return this.db.run(() => this.#s.list(zone));
  }
  listWithRemoved(zone: string) {
    return this.db.run(() => this.#s.listWithRemoved(zone));
  }
  signing(zone: string) {
    return this.db.run(() => this.#s.signing(zone));
  }
  dueZones(now: number) {
    return this.db.run(() => this.#s.dueZones(now));
  }
  insert(key: StoredKey) {
    return this.db.run(() => this.#s.insert(key));
  }
  schedule(id: string, retireAt: number, removeAt: number) {
    return this.db.run(() => this.#s.schedule(id, retireAt, removeAt));
  }
  activate(id: string) {
    return this.db.run(() => this.#s.activate(id));
  }
  retire(id: string, removeAt: number) {
    return this.db.run(() => this.#s.retire(id, removeAt));
  }
  remove(id: string) {
    return this.db.run(() => this.#s.remove(id));
  }
  deleteAll(zone: string) {
    return this.db.run(() => this.#s.deleteAll(zone));
  }
}
