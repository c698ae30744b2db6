/**
 * The `dns_records` table: every statement and row mapping of records. The
 * SOA row mirrors the zone's fields (see soa.ts) and is written only through
 * `updateSoa` and `insert`.
 */
import type { PageWindow } from "../paging.ts";
import { ConflictError } from "../errors.ts";
import type { SqliteAsync } from "../store/sqlite_async.ts";
import { isUniqueViolation } from "../store/store.ts";
import type { Async } from "./async.ts";
import { SqliteRecordStatements } from "./sqlite_record_repo.ts";

/** A record as stored: owner name and value canonical (see rdata.ts), times in milliseconds. */
export interface RecordRow {
  id: string;
  zone: string;
  name: string;
  type: string;
  value: string;
  ttl: number;
  created_at: number;
  updated_at: number;
}

/** What answers and zone files are made of. */
export interface RecordData {
  id: string;
  name: string;
  type: string;
  value: string;
  ttl: number;
}

/**
 * The synchronous statements of `dns_records` on SQLite (sqlite_record_repo.ts), which
 * `SqliteRecordRepo` runs; the methods are those of `RecordRepo`, returning at once.
 */
export interface RecordStatements {
  /** The zone's records, SOA first, then by name, type and value. */
  list(zone: string): RecordRow[];
  /** The zone's records of one type, by name and value. */
  listOfType(zone: string, type: string): RecordRow[];
  /**
   * The zone's records in `window`: the SOA first, then by name, type and id;
   * keyset key [0 for the SOA else 1, name, type, id].
   */
  page(zone: string, window: PageWindow): RecordRow[];
  /** The zone's records of one type in `window`, by name and id; keyset key [name, id]. */
  pageOfType(zone: string, type: string, window: PageWindow): RecordRow[];
  /** How many records of one type the zone has. */
  countOfType(zone: string, type: string): number;
  /** Every record of the zone but the SOA. */
  data(zone: string): RecordData[];
  get(zone: string, id: string): RecordRow | undefined;
  /** The records at `name` (of `type` when given), by type and value. */
  atName(zone: string, name: string, type?: string): RecordRow[];
  /** The types of the records at `name`, each once. */
  typesAt(zone: string, name: string): string[];
  /** True when the zone holds this record, apart from the record `exceptId`. */
  exists(zone: string, name: string, type: string, value: string, exceptId?: string): boolean;
  /**
   * How many records the RRset `name type` holds and the bytes of their values,
   * apart from the record `exceptId`: a cheap bound of its size on the wire.
   */
  rrsetStats(
    zone: string,
    name: string,
    type: string,
    exceptId?: string,
  ): { count: number; bytes: number };
  /** The values of the RRset `name type`, apart from the record `exceptId`. */
  rrsetValues(zone: string, name: string, type: string, exceptId?: string): string[];
  /** True when `name` has NS records, i.e. is a delegation point. */
  hasNs(zone: string, name: string): boolean;
  /** The first of `names` that owns a record of `type`, if any. */
  ownerOfType(zone: string, type: string, names: string[]): string | undefined;
  /** True when a record of the zone lies below `name`. */
  hasBelow(zone: string, name: string): boolean;
  /** How many records the zone has, SOA included. */
  count(zone: string): number;
  /** The largest TTL of the zone's records but the SOA; 0 when it has none. */
  maxDataTtl(zone: string): number;
  insert(row: RecordRow): void;
  update(id: string, value: string, ttl: number, updatedAt: number): void;
  delete(id: string): void;
  /** Deletes every record of the zone but the SOA; returns how many went. */
  deleteData(zone: string): number;
  /** Rewrites the zone's SOA row; false when the zone has none yet. */
  updateSoa(zone: string, value: string, ttl: number, updatedAt: number): boolean;
}

/** The conflict of a second record of one owner, type and value, on both engines. */
export function recordTaken(r: Pick<RecordRow, "name" | "type" | "value">): ConflictError {
  return new ConflictError(
    `Record "${r.name}" of type "${r.type}" with value "${r.value}" already exists`,
    "value",
  );
}

/** The records of either engine (docs/scaling.md); the methods are documented on `RecordStatements`. */
export type RecordRepo = Async<RecordStatements>;

/** `dns_records` on SQLite: the synchronous statements, run through `SqliteAsync`. */
export class SqliteRecordRepo implements RecordRepo {
  readonly #s: SqliteRecordStatements;

  constructor(private readonly db: SqliteAsync) {
    this.#s = new SqliteRecordStatements(db.store);
  }

  list(zone: string) {
    return this.db.run(() => this.#s.list(zone));
  }
  listOfType(zone: string, type: string) {
    return this.db.run(() => this.#s.listOfType(zone, type));
  }
  page(zone: string, window: PageWindow) {
    return this.db.run(() => this.#s.page(zone, window));
  }
  pageOfType(zone: string, type: string, window: PageWindow) {
    return this.db.run(() => this.#s.pageOfType(zone, type, window));
  }
  countOfType(zone: string, type: string) {
    return this.db.run(() => this.#s.countOfType(zone, type));
  }
  data(zone: string) {
    return this.db.run(() => this.#s.data(zone));
  }
  get(zone: string, id: string) {
    return this.db.run(() => this.#s.get(zone, id));
  }
  atName(zone: string, name: string, type?: string) {
    return this.db.run(() => this.#s.atName(zone, name, type));
  }
  typesAt(zone: string, name: string) {
    return this.db.run(() => this.#s.typesAt(zone, name));
  }
  exists(zone: string, name: string, type: string, value: string, exceptId?: string) {
    return this.db.run(() => this.#s.exists(zone, name, type, value, exceptId));
  }
  rrsetStats(zone: string, name: string, type: string, exceptId?: string) {
    return this.db.run(() => this.#s.rrsetStats(zone, name, type, exceptId));
  }
  rrsetValues(zone: string, name: string, type: string, exceptId?: string) {
    return this.db.run(() => this.#s.rrsetValues(zone, name, type, exceptId));
  }
  hasNs(zone: string, name: string) {
    return this.db.run(() => this.#s.hasNs(zone, name));
  }
  ownerOfType(zone: string, type: string, names: string[]) {
    return this.db.run(() => this.#s.ownerOfType(zone, type, names));
  }
  hasBelow(zone: string, name: string) {
    return this.db.run(() => this.#s.hasBelow(zone, name));
  }
  count(zone: string) {
    return this.db.run(() => this.#s.count(zone));
  }
  maxDataTtl(zone: string) {
    return this.db.run(() => this.#s.maxDataTtl(zone));
  }
  insert(row: RecordRow) {
    return this.db.run(() => {
      try {
        this.#s.insert(row);
      } catch (err) {
        throw isUniqueViolation(err) ? recordTaken(row) : err;
      }
    });
  }
  update(id: string, value: string, ttl: number, updatedAt: number) {
    return this.db.run(() => this.#s.update(id, value, ttl, updatedAt));
  }
  delete(id: string) {
    return this.db.run(() => this.#s.delete(id));
  }
  deleteData(zone: string) {
    return this.db.run(() => this.#s.deleteData(zone));
  }
  updateSoa(zone: string, value: string, ttl: number, updatedAt: number) {
    return this.db.run(() => this.#s.updateSoa(zone, value, ttl, updatedAt));
  }
}
