/** The `peer_limits` table on PostgreSQL: the twin of `SqliteLimitsRepo`. */
import type { PgAsync } from "../../store/pg/pg_async.ts";
import {
  type LimitedPeer,
  type LimitedRow,
  type LimitsRepo,
  type LimitsRow,
  type PeerLimits,
  toLimited,
  toLimits,
} from "./limits_repo.ts";

export class PgLimitsRepo implements LimitsRepo {
  constructor(private readonly db: PgAsync) {}

  async get(peerId: string): Promise<PeerLimits | undefined> {
    const [r] = await this.db.sql<LimitsRow[]>`
      SELECT peer_id, expires_at, quota_bytes, period_days, period_anchor, period_start,
        used_bytes, last_rx, last_tx, disabled_reason, disabled_at, updated_at
      FROM peer_limits WHERE peer_id = ${peerId}`;
    return r && toLimits(r);
  }

  async all(): Promise<LimitedPeer[]> {
    const rows = await this.db.sql<LimitedRow[]>`
      SELECT l.peer_id, l.expires_at, l.quota_bytes, l.period_days, l.period_anchor,
        l.period_start, l.used_bytes, l.last_rx, l.last_tx, l.disabled_reason, l.disabled_at,
        l.updated_at, p.name, p.public_key, p.status, p.interface_id,
        p.updated_at AS peer_updated_at
      FROM peer_limits l JOIN peers p ON p.id = l.peer_id ORDER BY l.peer_id`;
    return rows.map(toLimited);
  }

  async forPeers(peerIds: readonly string[]): Promise<PeerLimits[]> {
    if (!peerIds.length) return [];
    const rows = await this.db.sql<LimitsRow[]>`
      SELECT peer_id, expires_at, quota_bytes, period_days, period_anchor, period_start,
        used_bytes, last_rx, last_tx, disabled_reason, disabled_at, updated_at
      FROM peer_limits WHERE peer_id = ANY(${peerIds as string[]}::text[])`;
    return rows.map(toLimits);
  }

  async put(l: PeerLimits): Promise<void> {
    await this.db.sql`
      INSERT INTO peer_limits (peer_id, expires_at, quota_bytes, period_days, period_anchor,
        period_start, used_bytes, last_rx, last_tx, disabled_reason, disabled_at, updated_at)
      VALUES (${l.peerId}, ${l.expiresAt}, ${l.quotaBytes}, ${l.periodDays}, ${l.periodAnchor},
        ${l.periodStart}, ${l.usedBytes}, ${l.lastRx}, ${l.lastTx}, ${l.disabledReason},
        ${l.disabledAt}, ${l.updatedAt})
      ON CONFLICT (peer_id) DO UPDATE SET expires_at = excluded.expires_at,
        quota_bytes = excluded.quota_bytes, period_days = excluded.period_days,
        period_anchor = excluded.period_anchor, period_start = excluded.period_start,
        used_bytes = excluded.used_bytes, last_rx = excluded.last_rx, last_tx = excluded.last_tx,
        disabled_reason = excluded.disabled_reason, disabled_at = excluded.disabled_at,
        updated_at = excluded.updated_at`;
  }

  async remove(peerId: string): Promise<void> {
    await this.db.sql`DELETE FROM peer_limits WHERE peer_id = ${peerId}`;
  }
}
