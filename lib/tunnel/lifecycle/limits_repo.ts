/**
 * The `peer_limits` table (docs/peer_lifecycle.md): each limited peer's
 * expiry and quota, and the accounting of its current period. Both engines:
 * the PostgreSQL twin is `pg_limits_repo.ts`.
 */
import type { SqliteAsync } from "../../store/sqlite_async.ts";
import type { PeerStatus } from "../peer_rows.ts";

/** Why Palisade disabled a peer. */
export type LimitReason = "quota_reached" | "expired";

/** One row; times are Unix milliseconds. */
export interface PeerLimits {
  peerId: string;
  expiresAt: number | null;
  quotaBytes: number | null;
  /** Null: the calendar month in UTC. */
  periodDays: number | null;
  periodAnchor: number;
  periodStart: number;
  usedBytes: number;
  lastRx: number | null;
  lastTx: number | null;
  disabledReason: LimitReason | null;
  /** The peer's `updated_at` as Palisade's disable left it. */
  disabledAt: number | null;
  updatedAt: number;
}

/** A row with what accounting needs of its peer. */
export interface LimitedPeer extends PeerLimits {
  name: string;
  publicKey: string;
  status: PeerStatus;
  interfaceId: string;
  peerUpdatedAt: number;
}

export interface LimitsRepo {
  get(peerId: string): Promise<PeerLimits | undefined>;
  /** Every row with its peer, by peer id. */
  all(): Promise<LimitedPeer[]>;
  /** The rows of the given peers (one query, whatever their number); peers without one are left out. */
  forPeers(peerIds: readonly string[]): Promise<PeerLimits[]>;
  /** Inserts or replaces the peer's row. */
  put(row: PeerLimits): Promise<void>;
  remove(peerId: string): Promise<void>;
}

/** A row as both engines return it (PostgreSQL's BIGINT as a string). */
export interface LimitsRow {
  peer_id: string;
  expires_at: number | string | null;
  quota_bytes: number | string | null;
  period_days: number | null;
  period_anchor: number | string;
  period_start: number | string;
  used_bytes: number | string;
  last_rx: number | string | null;
  last_tx: number | string | null;
  disabled_reason: LimitReason | null;
  disabled_at: number | string | null;
  updated_at: number | string;
}

export interface LimitedRow extends LimitsRow {
  name: string;
  public_key: string;
  status: PeerStatus;
  interface_id: string;
  peer_updated_at: number | string;
}

export const LIMITS_COLUMNS = `l.peer_id, l.expires_at, l.quota_bytes, l.period_days,
  l.period_anchor, l.period_start, l.used_bytes, l.last_rx, l.last_tx, l.disabled_reason,
  l.disabled_at, l.updated_at`;

/** Above this many ids `forPeers` reads the whole table instead of passing the list. */
const WHOLE_TABLE_ABOVE = 1000;

const num = (v: number | string | null) => v === null ? null : Number(v);

export const toLimits = (r: LimitsRow): PeerLimits => ({
  peerId: r.peer_id,
  expiresAt: num(r.expires_at),
  quotaBytes: num(r.quota_bytes),
  periodDays: num(r.period_days),
  periodAnchor: Number(r.period_anchor),
  periodStart: Number(r.period_start),
  usedBytes: Number(r.used_bytes),
  lastRx: num(r.last_rx),
  lastTx: num(r.last_tx),
  disabledReason: r.disabled_reason,
  disabledAt: num(r.disabled_at),
  updatedAt: Number(r.updated_at),
});

export const toLimited = (r: LimitedRow): LimitedPeer => ({
  ...toLimits(r),
  name: r.name,
  publicKey: r.public_key,
  status: r.status,
  interfaceId: r.interface_id,
  peerUpdatedAt: Number(r.peer_updated_at),
});

/** The values of `row` in the order of the INSERT's columns. */
export const limitsValues = (l: PeerLimits) =>
  [
    l.peerId,
    l.expiresAt,
    l.quotaBytes,
    l.periodDays,
    l.periodAnchor,
    l.periodStart,
    l.usedBytes,
    l.lastRx,
    l.lastTx,
    l.disabledReason,
    l.disabledAt,
    l.updatedAt,
  ] as const;

export class SqliteLimitsRepo implements LimitsRepo {
  constructor(private readonly db: SqliteAsync) {}

  get(peerId: string): Promise<PeerLimits | undefined> {
    return this.db.run((s) => {
      const r = s.get<LimitsRow>(
        `SELECT ${LIMITS_COLUMNS} FROM peer_limits l WHERE l.peer_id = ?`,
        peerId,
      );
      return r && toLimits(r);
    });
  }

  all(): Promise<LimitedPeer[]> {
    return this.db.run((s) =>
      s.all<LimitedRow>(
        `SELECT ${LIMITS_COLUMNS}, p.name, p.public_key, p.status, p.interface_id,
          p.updated_at AS peer_updated_at
        FROM peer_limits l JOIN peers p ON p.id = l.peer_id ORDER BY l.peer_id`,
      ).map(toLimited)
    );
  }

  forPeers(peerIds: readonly string[]): Promise<PeerLimits[]> {
    if (!peerIds.length) return Promise.resolve([]);
    return this.db.run((s) => {
      if (peerIds.length <= WHOLE_TABLE_ABOVE) {
        return s.all<LimitsRow>(
          `SELECT ${LIMITS_COLUMNS} FROM peer_limits l
          WHERE l.peer_id IN (SELECT value FROM json_each(?))`,
          JSON.stringify(peerIds),
        ).map(toLimits);
      }
      // A long list costs more to encode and parse than reading the table, which holds at
      // most a row per peer: a listing of every peer reads it whole and keeps the listed.
      const wanted = new Set(peerIds);
      return s.all<LimitsRow>(`SELECT ${LIMITS_COLUMNS} FROM peer_limits l`)
        .filter((r) => wanted.has(r.peer_id)).map(toLimits);
    });
  }

  put(row: PeerLimits): Promise<void> {
    return this.db.run((s) => {
      s.run(
        `INSERT OR REPLACE INTO peer_limits (peer_id, expires_at, quota_bytes, period_days,
          period_anchor, period_start, used_bytes, last_rx, last_tx, disabled_reason,
          disabled_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        ...limitsValues(row),
      );
    });
  }

  remove(peerId: string): Promise<void> {
    return this.db.run((s) => {
      s.run("DELETE FROM peer_limits WHERE peer_id = ?", peerId);
    });
  }
}
