/**
 * The `dns_history` table (migration 22): one row per change set of a zone's
 * records, the RRsets it touched before and after as JSON. Both engines
 * (docs/architecture.md, "Repositories"): the PostgreSQL twin is
 * `pg_history_repo.ts`.
 */
import type { SqliteAsync } from "../../store/sqlite_async.ts";

/** One record of an RRset as history keeps it. */
export interface HistoryRecord {
  value: string;
  ttl: number;
}

/** One RRset a change set touched: its records before and after (empty when absent). */
export interface RRsetChange {
  /** Owner name as stored (absolute, no trailing dot). */
  name: string;
  type: string;
  before: HistoryRecord[];
  after: HistoryRecord[];
}

export interface NewHistoryEntry {
  zone: string;
  serialFrom: number;
  serialTo: number;
  actor: string;
  summary: string;
  changes: RRsetChange[];
  /** The change set this one reverted; null for an ordinary change. */
  reverts: number | null;
  /** Unix milliseconds. */
  createdAt: number;
}

export interface HistoryEntry extends NewHistoryEntry {
  id: number;
}

export interface HistoryRepo {
  /** Stores a change set; returns its id (ids grow with time). */
  add(entry: NewHistoryEntry): Promise<number>;
  /** The zone's change sets newest first, at most `limit`, those older than `before` when given. */
  list(zone: string, limit: number, before?: number): Promise<HistoryEntry[]>;
  /** The change set `id` of the zone; undefined when absent. */
  get(zone: string, id: number): Promise<HistoryEntry | undefined>;
  /** The zone's change sets newer than `id`, oldest first. */
  after(zone: string, id: number): Promise<HistoryEntry[]>;
  /** Drops the zone's change sets beyond the newest `keep`. */
  trim(zone: string, keep: number): Promise<void>;
}

/** A row as both engines return it. */
export interface HistoryRow {
  id: number;
  zone: string;
  serial_from: number;
  serial_to: number;
  actor: string;
  summary: string;
  changes: string;
  reverts: number | null;
  created_at: number;
}

export const toEntry = (r: HistoryRow): HistoryEntry => ({
  id: Number(r.id),
  zone: r.zone,
  serialFrom: Number(r.serial_from),
  serialTo: Number(r.serial_to),
  actor: r.actor,
  summary: r.summary,
  changes: JSON.parse(r.changes) as RRsetChange[],
  reverts: r.reverts === null ? null : Number(r.reverts),
  createdAt: Number(r.created_at),
});

export const HISTORY_COLUMNS =
  "id, zone, serial_from, serial_to, actor, summary, changes, reverts, created_at";

export class SqliteHistoryRepo implements HistoryRepo {
  constructor(private readonly db: SqliteAsync) {}

  add(e: NewHistoryEntry): Promise<number> {
    return this.db.run((store) =>
      Number(
        store.run(
          "INSERT INTO dns_history (zone, serial_from, serial_to, actor, summary, changes, reverts, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
          e.zone,
          e.serialFrom,
          e.serialTo,
          e.actor,
          e.summary,
          JSON.stringify(e.changes),
          e.reverts,
          e.createdAt,
        ).lastInsertRowid,
      )
    );
  }

  list(zone: string, limit: number, before?: number): Promise<HistoryEntry[]> {
    return this.db.run((store) =>
      store.all<HistoryRow>(
        `SELECT ${HISTORY_COLUMNS} FROM dns_history WHERE zone = ? AND id < ? ORDER BY id DESC LIMIT ?`,
        zone,
        before ?? Number.MAX_SAFE_INTEGER,
        limit,
      ).map(toEntry)
    );
  }

  get(zone: string, id: number): Promise<HistoryEntry | undefined> {
    return this.db.run((store) => {
      const r = store.get<HistoryRow>(
        `SELECT ${HISTORY_COLUMNS} FROM dns_history WHERE zone = ? AND id = ?`,
        zone,
        id,
      );
      return r && toEntry(r);
    });
  }

  after(zone: string, id: number): Promise<HistoryEntry[]> {
    return this.db.run((store) =>
      store.all<HistoryRow>(
        `SELECT ${HISTORY_COLUMNS} FROM dns_history WHERE zone = ? AND id > ? ORDER BY id`,
        zone,
        id,
      ).map(toEntry)
    );
  }

  trim(zone: string, keep: number): Promise<void> {
    return this.db.run((store) => {
      store.run(
        "DELETE FROM dns_history WHERE zone = ? AND id < (SELECT MIN(id) FROM (SELECT id FROM dns_history WHERE zone = ? ORDER BY id DESC LIMIT ?))",
        zone,
        zone,
        keep,
      );
    });
  }
}
