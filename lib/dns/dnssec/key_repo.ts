/**
 * The `dnssec_keys` table: every statement and row mapping of DNSSEC keys.
 * Listings never select the private key; `signing()` alone reads it, for the
 * answer index's signing keys, so no other path can carry it to a response.
 */
import type { Store } from "../../store/store.ts";
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

export interface DnssecKeyRepo {
  /** The zone's keys that are not removed, KSK first, oldest first; never the private key. */
  list(zone: string): DnssecKeyRow[];
  /** The zone's active keys with their private keys: only for the answer index's signing keys. */
  signing(zone: string): StoredKey[];
  insert(key: StoredKey): void;
  /** Deletes the zone's keys (they go with the zone too). */
  deleteAll(zone: string): void;
}

/** Every column but `private_key`, for the listings. */
const PUBLIC_COLUMNS = `id, zone_name, algorithm, key_type, bits, flags, public_key, key_tag, state,
  created_at, publish_at, activate_at, retire_at, remove_at, expires_at`;

interface Row extends Omit<DnssecKeyRow, "zone"> {
  zone_name: string;
  private_key?: string;
}

function toKey(r: Row): DnssecKeyRow {
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

export class SqliteDnssecKeyRepo implements DnssecKeyRepo {
  constructor(private readonly store: Store) {}

  list(zone: string): DnssecKeyRow[] {
    return this.store.all<Row>(
      `SELECT ${PUBLIC_COLUMNS} FROM dnssec_keys WHERE zone_name = ? AND state != 'removed'
       ORDER BY key_type, created_at, id`,
      zone,
    ).map(toKey);
  }

  signing(zone: string): StoredKey[] {
    return this.store.all<Row>(
      `SELECT ${PUBLIC_COLUMNS}, private_key FROM dnssec_keys WHERE zone_name = ? AND state = 'active'
       ORDER BY key_type, created_at, id`,
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

  deleteAll(zone: string): void {
    this.store.run("DELETE FROM dnssec_keys WHERE zone_name = ?", zone);
  }
}
