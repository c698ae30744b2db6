/**
 * The `dns_journal` and `dns_journal_pending` tables (migration 15): every
 * statement of the IXFR journal. Pending rows are written by triggers only;
 * this module reads and empties them, writes journal steps, trims and reads
 * them back for an answer.
 */
import type { SqliteAsync } from "../../store/sqlite_async.ts";
import type { Store } from "../../store/store.ts";
import type { Async } from "../async.ts";
import type { RecordData } from "../record_repo.ts";

/** How much journal a zone keeps (PALISADE_DNS_IXFR_*). */
export interface JournalLimits {
  /** Most serial steps kept per zone. */
  maxVersions: number;
  /** Steps older than this many days are dropped when the zone next changes. */
  maxAgeDays: number;
  /** Most journal rows kept per zone; the oldest steps go first. */
  maxRows: number;
}

export const JOURNAL_DEFAULTS: JournalLimits = {
  maxVersions: 100,
  maxAgeDays: 30,
  maxRows: 20_000,
};

/** A raw change the triggers noted since the zone's last journal step. */
export interface PendingChange {
  op: "del" | "add" | "soa" | "ns" | "reset";
  /** The record's id (del, add, soa). */
  rid: string | null;
  name: string | null;
  type: string | null;
  ttl: number | null;
  /** The record's value; for "ns" the zone's nameservers JSON before the change. */
  value: string | null;
}

/** One record of a journal step, as the transfer writes it. */
export interface JournalEntry {
  op: "del" | "add";
  /** Owner name, lowercase without trailing dot (as the answer index keys it). */
  name: string;
  type: number;
  ttl: number;
  rdata: Uint8Array;
}

/** One step of a zone's journal: the serial it leaves and the one it reaches. */
export interface JournalVersion {
  serial_from: number;
  serial_to: number;
  /** The step's first and last row handles, for reading its rows in order. */
  first: number;
  last: number;
  rows: number;
  created_at: number;
}

/**
 * The synchronous statements of the journal on SQLite, which `SqliteJournalRepo` runs; the
 * methods are those of `JournalRepo`, returning at once.
 */
export interface JournalStatements {
  /** The bounds the journal writer trims each zone's journal to. */
  readonly limits: JournalLimits;
  /** The zone's pending changes in the order they happened; they are removed. */
  takePending(zone: string): PendingChange[];
  /** The records of the RRset `name type` of the zone as stored now. */
  rrsetRows(zone: string, name: string, type: string): RecordData[];
  /** Appends one step: `entries` in transfer order. */
  append(
    zone: string,
    from: number,
    to: number,
    entries: JournalEntry[],
    createdAt: number,
  ): void;
  /** The zone's steps, oldest first. */
  versions(zone: string): JournalVersion[];
  /** The rows of the zone's steps from the row `first` through `last`, in transfer order. */
  entries(zone: string, first: number, last: number): JournalEntry[];
  /** Drops the zone's rows before the row `first` (older steps). */
  dropBefore(zone: string, first: number): void;
  /** Drops the whole journal of the zone. */
  clear(zone: string): void;
}

/** A journal row as both engines return it (BYTEA as a Buffer). */
export interface EntryRow {
  op: "del" | "add";
  name: string;
  type: number;
  ttl: number;
  rdata: Uint8Array;
}

export class SqliteJournalStatements implements JournalStatements {
  constructor(
    private readonly store: Store,
    readonly limits: JournalLimits = JOURNAL_DEFAULTS,
  ) {}

  takePending(zone: string): PendingChange[] {
    const rows = this.store.all<PendingChange>(
      "SELECT op, rid, name, type, ttl, value FROM dns_journal_pending WHERE zone = ? ORDER BY id",
      zone,
    );
    if (rows.length) this.store.run("DELETE FROM dns_journal_pending WHERE zone = ?", zone);
    return rows;
  }

  rrsetRows(zone: string, name: string, type: string): RecordData[] {
    return this.store.all<RecordData>(
      "SELECT id, name, type, value, ttl FROM dns_records WHERE zone = ? AND name = ? AND type = ?",
      zone,
      name,
      type,
    );
  }

  append(
    zone: string,
    from: number,
    to: number,
    entries: JournalEntry[],
    createdAt: number,
  ): void {
    entries.forEach((e, seq) =>
      this.store.run(
        "INSERT INTO dns_journal (zone, serial_from, serial_to, seq, op, name, type, ttl, rdata, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        zone,
        from,
        to,
        seq,
        e.op,
        e.name,
        e.type,
        e.ttl,
        e.rdata,
        createdAt,
      )
    );
  }

  versions(zone: string): JournalVersion[] {
    return this.store.all<JournalVersion>(
      `SELECT serial_from, serial_to, MIN(id) AS first, MAX(id) AS last, COUNT(*) AS rows,
              MIN(created_at) AS created_at
         FROM dns_journal WHERE zone = ? GROUP BY serial_from, serial_to ORDER BY first`,
      zone,
    );
  }

  entries(zone: string, first: number, last: number): JournalEntry[] {
    return this.store.all<EntryRow>(
      "SELECT op, name, type, ttl, rdata FROM dns_journal WHERE zone = ? AND id BETWEEN ? AND ? ORDER BY id",
      zone,
      first,
      last,
    ).map((r) => ({ ...r, rdata: new Uint8Array(r.rdata) }));
  }

  dropBefore(zone: string, first: number): void {
    this.store.run("DELETE FROM dns_journal WHERE zone = ? AND id < ?", zone, first);
  }

  clear(zone: string): void {
    this.store.run("DELETE FROM dns_journal WHERE zone = ?", zone);
  }
}

/** The journal of either engine (docs/scaling.md); the methods are documented on `JournalStatements`. */
export type JournalRepo = Async<Omit<JournalStatements, "limits">> & {
  readonly limits: JournalLimits;
};

/** The journal on SQLite: the synchronous statements, run through `SqliteAsync`. */
export class SqliteJournalRepo implements JournalRepo {
  readonly #s: SqliteJournalStatements;

  constructor(private readonly db: SqliteAsync, readonly limits: JournalLimits = JOURNAL_DEFAULTS) {
    this.#s = new SqliteJournalStatements(db.store, limits);
  }

  takePending(zone: string) {
    return this.db.run(() => this.#s.takePending(zone));
  }
  rrsetRows(zone: string, name: string, type: string) {
    return this.db.run(() => this.#s.rrsetRows(zone, name, type));
  }
  append(zone: string, from: number, to: number, entries: JournalEntry[], createdAt: number) {
    return this.db.run(() => this.#s.append(zone, from, to, entries, createdAt));
  }
  versions(zone: string) {
    return this.db.run(() => this.#s.versions(zone));
  }
  entries(zone: string, first: number, last: number) {
    return this.db.run(() => this.#s.entries(zone, first, last));
  }
  dropBefore(zone: string, first: number) {
    return this.db.run(() => this.#s.dropBefore(zone, first));
  }
  clear(zone: string) {
    return this.db.run(() => this.#s.clear(zone));
  }
}
