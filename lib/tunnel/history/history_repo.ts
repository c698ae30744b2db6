/**
 * The `tunnel_history` table (migration 26): one row per change of a peer, a
 * firewall rule or a route, the object as it was before and after as JSON
 * without its secrets (history_write.ts). Both engines
 * (docs/architecture.md, "Repositories"): the PostgreSQL twin is
 * `pg_history_repo.ts`.
 */
import type { SqliteAsync } from "../../store/sqlite_async.ts";

export const HISTORY_KINDS = ["peer", "firewall_rule", "route"] as const;
export type HistoryKind = typeof HISTORY_KINDS[number];

/** An object as history keeps it: its non-secret fields. */
export type Snapshot = Record<string, unknown>;

export interface NewTunnelChange {
  kind: HistoryKind;
  objectId: string;
  actor: string;
  summary: string;
  /** The object before the change; null when the change created it. */
  before: Snapshot | null;
  /** The object after the change; null when the change deleted it. */
  after: Snapshot | null;
  /** The change this one reverted; null for an ordinary change. */
  reverts: number | null;
  /** Unix milliseconds. */
  createdAt: number;
}

export interface TunnelChange extends NewTunnelChange {
  id: number;
}

export interface TunnelHistoryRepo {
  /** Stores a change; returns its id (ids grow with time). */
  add(change: NewTunnelChange): Promise<number>;
  /** The object's changes newest first, at most `limit`, those older than `before` when given. */
  list(
    kind: HistoryKind,
    objectId: string,
    limit: number,
    before?: number,
  ): Promise<TunnelChange[]>;
  /** The change `id` of the object; undefined when absent. */
  get(kind: HistoryKind, objectId: string, id: number): Promise<TunnelChange | undefined>;
  /** The object's oldest change newer than `id`; undefined when there is none. */
  newer(kind: HistoryKind, objectId: string, id: number): Promise<TunnelChange | undefined>;
  /** The kind's objects deleted by their newest change: those changes, newest first, at most `limit`. */
  deleted(kind: HistoryKind, limit: number): Promise<TunnelChange[]>;
  /** Drops the object's changes beyond the newest `keep`. */
  trim(kind: HistoryKind, objectId: string, keep: number): Promise<void>;
}

/** A row as both engines return it. */
export interface TunnelChangeRow {
  id: number;
  kind: HistoryKind;
  object_id: string;
  actor: string;
  summary: string;
  before_state: string | null;
  after_state: string | null;
  reverts: number | null;
  created_at: number;
}

const parse = (s: string | null): Snapshot | null => s === null ? null : JSON.parse(s);

export const toChange = (r: TunnelChangeRow): TunnelChange => ({
  id: Number(r.id),
  kind: r.kind,
  objectId: r.object_id,
  actor: r.actor,
  summary: r.summary,
  before: parse(r.before_state),
  after: parse(r.after_state),
  reverts: r.reverts === null ? null : Number(r.reverts),
  createdAt: Number(r.created_at),
});

export const stateJson = (s: Snapshot | null): string | null =>
  s === null ? null : JSON.stringify(s);

const COLUMNS =
  "id, kind, object_id, actor, summary, before_state, after_state, reverts, created_at";

export class SqliteTunnelHistoryRepo implements TunnelHistoryRepo {
  constructor(private readonly db: SqliteAsync) {}

  add(c: NewTunnelChange): Promise<number> {
    return this.db.run((store) =>
      Number(
        store.run(
          "INSERT INTO tunnel_history (kind, object_id, actor, summary, before_state, after_state, reverts, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
          c.kind,
          c.objectId,
          c.actor,
          c.summary,
          stateJson(c.before),
          stateJson(c.after),
          c.reverts,
          c.createdAt,
        ).lastInsertRowid,
      )
    );
  }

  list(kind: HistoryKind, objectId: string, limit: number, before?: number) {
    return this.db.run((store) =>
      store.all<TunnelChangeRow>(
        `SELECT ${COLUMNS} FROM tunnel_history WHERE kind = ? AND object_id = ? AND id < ? ORDER BY id DESC LIMIT ?`,
        kind,
        objectId,
        before ?? Number.MAX_SAFE_INTEGER,
        limit,
      ).map(toChange)
    );
  }

  get(kind: HistoryKind, objectId: string, id: number) {
    return this.db.run((store) => {
      const r = store.get<TunnelChangeRow>(
        `SELECT ${COLUMNS} FROM tunnel_history WHERE kind = ? AND object_id = ? AND id = ?`,
        kind,
        objectId,
        id,
      );
      return r && toChange(r);
    });
  }

  newer(kind: HistoryKind, objectId: string, id: number) {
    return this.db.run((store) => {
      const r = store.get<TunnelChangeRow>(
        `SELECT ${COLUMNS} FROM tunnel_history WHERE kind = ? AND object_id = ? AND id > ? ORDER BY id LIMIT 1`,
        kind,
        objectId,
        id,
      );
      return r && toChange(r);
    });
  }

  deleted(kind: HistoryKind, limit: number): Promise<TunnelChange[]> {
    return this.db.run((store) =>
      store.all<TunnelChangeRow>(
        `SELECT ${COLUMNS} FROM tunnel_history h WHERE kind = ? AND after_state IS NULL
         AND id = (SELECT MAX(id) FROM tunnel_history n WHERE n.kind = h.kind AND n.object_id = h.object_id)
         ORDER BY id DESC LIMIT ?`,
        kind,
        limit,
      ).map(toChange)
    );
  }

  trim(kind: HistoryKind, objectId: string, keep: number): Promise<void> {
    return this.db.run((store) => {
      store.run(
        "DELETE FROM tunnel_history WHERE kind = ? AND object_id = ? AND id < (SELECT MIN(id) FROM (SELECT id FROM tunnel_history WHERE kind = ? AND object_id = ? ORDER BY id DESC LIMIT ?))",
        kind,
        objectId,
        kind,
        objectId,
        keep,
      );
    });
  }
}
