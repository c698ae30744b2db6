/**
 * The `dns_zones` table: every statement and row mapping of zones. A zone's
 * row holds its SOA fields; the apex nameservers are a JSON array there and a
 * list here.
 */
import type { PageWindow } from "../paging.ts";
import type { Async } from "./async.ts";
import type { SqliteAsync } from "../store/sqlite_async.ts";
import { ConflictError } from "../errors.ts";
import { isUniqueViolation, type Store } from "../store/store.ts";
import type { SoaTimers } from "./soa.ts";

/** A zone as stored. Times are milliseconds since the epoch. */
export interface ZoneRow extends SoaTimers {
  name: string;
  admin_email: string;
  serial: number;
  /** Apex NS host names without trailing dot; the first is the default SOA MNAME. */
  nameservers: string[];
  /** TTL of the apex NS RRset; null means default_ttl. */
  ns_ttl: number | null;
  /** SOA MNAME when it is not simply the first nameserver (kept from imported zones). */
  mname: string | null;
  dnssec_enabled: boolean;
  created_at: number;
  updated_at: number;
}

/** One line of the zone listing; `records_count` includes the SOA. */
export interface ZoneListing {
  name: string;
  records_count: number;
  created_at: number;
  updated_at: number;
}

/** Fields that change after creation; the serial and updated_at change through `setSerial`. */
export type ZoneChange = Partial<
  Pick<ZoneRow, "admin_email" | keyof SoaTimers | "nameservers" | "ns_ttl" | "mname">
>;

/**
 * The synchronous statements of `dns_zones` on SQLite, which `SqliteZoneRepo` runs; the
 * methods are those of `ZoneRepo`, returning at once.
 */
export interface ZoneStatements {
  /** The zone `name` (normalized), if it exists. */
  get(name: string): ZoneRow | undefined;
  /** The zones of `window` (default: all) with their record counts, by name; keyset key [name]. */
  list(window?: PageWindow): ZoneListing[];
  /** The names of every zone. */
  names(): string[];
  insert(zone: ZoneRow): void;
  /** Writes the fields given in `change`, leaving the others as they are. */
  update(name: string, change: ZoneChange): void;
  setSerial(name: string, serial: number, updatedAt: number): void;
  /** Whether the zone is served signed (its keys are in dnssec/key_repo.ts). */
  setDnssecEnabled(name: string, enabled: boolean): void;
  /** Days the active ZSK signs before a rollover starts by itself; null when off. */
  zskRotationDays(name: string): number | null;
  setZskRotationDays(name: string, days: number | null): void;
  /** The zones whose DNSSEC is on with automatic ZSK rotation, by name. */
  zskRotations(): { zone: string; days: number }[];
  /** Deletes the zone; its records go with it. */
  delete(name: string): void;
  /** How many zones and records there are, for the DNS status probe. */
  counts(): { zones: number; records: number };
  /** Every zone's name and serial, by name: what the index sync polls (index_sync.ts). */
  serials(): { name: string; serial: number }[];
  /**
   * Tells the other instances, at commit, that `name` changed (PostgreSQL: NOTIFY on
   * "palisade_dns"). Nothing on SQLite, where one process serves the store.
   */
  announce(name: string): void;
}

/** A `dns_zones` row as both engines return it. */
export interface ZoneDbRow {
  name: string;
  admin_email: string;
  serial: number;
  refresh: number;
  retry: number;
  expire: number;
  minimum: number;
  default_ttl: number;
  nameservers: string;
  ns_ttl: number | null;
  mname: string | null;
  dnssec_enabled: number;
  created_at: number;
  updated_at: number;
}

export function toZone(r: ZoneDbRow): ZoneRow {
  return {
    name: r.name,
    admin_email: r.admin_email,
    serial: r.serial,
    refresh: r.refresh,
    retry: r.retry,
    expire: r.expire,
    minimum: r.minimum,
    default_ttl: r.default_ttl,
    nameservers: JSON.parse(r.nameservers),
    ns_ttl: r.ns_ttl,
    mname: r.mname,
    dnssec_enabled: r.dnssec_enabled === 1,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

/** The columns `update` may write, in the order they appear in the statement. */
export const CHANGE_COLUMNS = [
  "admin_email",
  "refresh",
  "retry",
  "expire",
  "minimum",
  "default_ttl",
  "nameservers",
  "ns_ttl",
  "mname",
] as const satisfies readonly (keyof ZoneChange)[];

export class SqliteZoneStatements implements ZoneStatements {
  constructor(private readonly store: Store) {}

  get(name: string): ZoneRow | undefined {
    const r = this.store.get<ZoneDbRow>("SELECT * FROM dns_zones WHERE name = ?", name);
    return r && toZone(r);
  }

  list(window: PageWindow = { offset: 0 }): ZoneListing[] {
    // The primary key's index serves the range; an empty name sorts before every zone.
    return this.store.all<{ name: string; created_at: number; updated_at: number; n: number }>(
      `SELECT z.name, z.created_at, z.updated_at, (SELECT count(*) FROM dns_records r WHERE r.zone = z.name) AS n
       FROM dns_zones z WHERE z.name > ? ORDER BY z.name LIMIT ? OFFSET ?`,
      window.after?.[0] ?? "",
      window.limit ?? -1,
      window.offset,
    ).map((z) => ({
      name: z.name,
      records_count: z.n,
      created_at: z.created_at,
      updated_at: z.updated_at,
    }));
  }

  names(): string[] {
    return this.store.all<{ name: string }>("SELECT name FROM dns_zones").map((r) => r.name);
  }

  insert(z: ZoneRow): void {
    this.store.run(
      `INSERT INTO dns_zones (name, admin_email, serial, refresh, retry, expire, minimum, default_ttl, nameservers,
       ns_ttl, mname, dnssec_enabled, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      z.name,
      z.admin_email,
      z.serial,
      z.refresh,
      z.retry,
      z.expire,
      z.minimum,
      z.default_ttl,
      JSON.stringify(z.nameservers),
      z.ns_ttl,
      z.mname,
      z.dnssec_enabled ? 1 : 0,
      z.created_at,
      z.updated_at,
    );
  }

  update(name: string, change: ZoneChange): void {
    const columns = CHANGE_COLUMNS.filter((c) => change[c] !== undefined);
    if (columns.length === 0) return;
    const values = columns.map((c) =>
      c === "nameservers" ? JSON.stringify(change.nameservers) : change[c] as string | number | null
    );
    // The column names come from CHANGE_COLUMNS only; the statement is cached per set of columns.
    this.store.run(
      `UPDATE dns_zones SET ${columns.map((c) => `${c} = ?`).join(", ")} WHERE name = ?`,
      ...values,
      name,
    );
  }

  setSerial(name: string, serial: number, updatedAt: number): void {
    this.store.run(
      "UPDATE dns_zones SET serial = ?, updated_at = ? WHERE name = ?",
      serial,
      updatedAt,
      name,
    );
  }

  setDnssecEnabled(name: string, enabled: boolean): void {
    this.store.run(
      "UPDATE dns_zones SET dnssec_enabled = ? WHERE name = ?",
      enabled ? 1 : 0,
      name,
    );
  }

  zskRotationDays(name: string): number | null {
    return this.store.get<{ d: number | null }>(
      "SELECT zsk_rotation_days AS d FROM dns_zones WHERE name = ?",
      name,
    )?.d ?? null;
  }

  setZskRotationDays(name: string, days: number | null): void {
    this.store.run("UPDATE dns_zones SET zsk_rotation_days = ? WHERE name = ?", days, name);
  }

  zskRotations(): { zone: string; days: number }[] {
    return this.store.all<{ zone: string; days: number }>(
      `SELECT name AS zone, zsk_rotation_days AS days FROM dns_zones
       WHERE dnssec_enabled = 1 AND zsk_rotation_days IS NOT NULL ORDER BY name`,
    );
  }

  delete(name: string): void {
    this.store.run("DELETE FROM dns_zones WHERE name = ?", name);
  }

  counts(): { zones: number; records: number } {
    const r = this.store.get<{ zones: number; records: number }>(
      "SELECT (SELECT count(*) FROM dns_zones) AS zones, (SELECT count(*) FROM dns_records) AS records",
    )!;
    return { zones: r.zones, records: r.records };
  }

  serials(): { name: string; serial: number }[] {
    return this.store.all<{ name: string; serial: number }>(
      "SELECT name, serial FROM dns_zones ORDER BY name",
    ).map((r) => ({ name: r.name, serial: r.serial }));
  }

  announce(_name: string): void {}
}

/** The conflict of a second zone of one name, on both engines. */
export function zoneTaken(name: string): ConflictError {
  return new ConflictError(`Zone "${name}" already exists`, "name");
}

/** The zones of either engine (docs/scaling.md); the methods are documented on `ZoneStatements`. */
export type ZoneRepo = Async<ZoneStatements>;

/** `dns_zones` on SQLite: the synchronous statements, run through `SqliteAsync`. */
export class SqliteZoneRepo implements ZoneRepo {
  readonly #s: SqliteZoneStatements;

  constructor(private readonly db: SqliteAsync) {
    this.#s = new SqliteZoneStatements(db.store);
  }

  get(name: string) {
    return this.db.run(() => this.#s.get(name));
  }
  list(window?: PageWindow) {
    return this.db.run(() => this.#s.list(window));
  }
  names() {
    return this.db.run(() => this.#s.names());
  }
  insert(zone: ZoneRow) {
    return this.db.run(() => {
      try {
        this.#s.insert(zone);
      } catch (err) {
        throw isUniqueViolation(err) ? zoneTaken(zone.name) : err;
      }
    });
  }
  update(name: string, change: ZoneChange) {
    return this.db.run(() => this.#s.update(name, change));
  }
  setSerial(name: string, serial: number, updatedAt: number) {
    return this.db.run(() => this.#s.setSerial(name, serial, updatedAt));
  }
  setDnssecEnabled(name: string, enabled: boolean) {
    return this.db.run(() => this.#s.setDnssecEnabled(name, enabled));
  }
  zskRotationDays(name: string) {
    return this.db.run(() => this.#s.zskRotationDays(name));
  }
  setZskRotationDays(name: string, days: number | null) {
    return this.db.run(() => this.#s.setZskRotationDays(name, days));
  }
  zskRotations() {
    return this.db.run(() => this.#s.zskRotations());
  }
  delete(name: string) {
    return this.db.run(() => this.#s.delete(name));
  }
  counts() {
    return this.db.run(() => this.#s.counts());
  }
  serials() {
    return this.db.run(() => this.#s.serials());
  }
  announce(name: string) {
    return this.db.run(() => this.#s.announce(name));
  }
}
