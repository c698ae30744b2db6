/** SQLite migration 25 (`lib/store/migrations/0025_peer_limits.ts`) on PostgreSQL. */
import type { PgMigration } from "./mod.ts";

export const peerLimits: PgMigration = {
  version: 9,
  name: "peer-limits",
  sql: `
CREATE TABLE peer_limits (
  peer_id         TEXT COLLATE "C" PRIMARY KEY REFERENCES peers(id) ON DELETE CASCADE,
  expires_at      BIGINT,
  quota_bytes     BIGINT CHECK (quota_bytes IS NULL OR quota_bytes > 0),
  period_days     INTEGER CHECK (period_days IS NULL OR period_days BETWEEN 1 AND 3660),
  period_anchor   BIGINT NOT NULL,
  period_start    BIGINT NOT NULL,
  used_bytes      BIGINT NOT NULL DEFAULT 0,
  last_rx         BIGINT,
  last_tx         BIGINT,
  disabled_reason TEXT COLLATE "C" CHECK (disabled_reason IN ('quota_reached', 'expired')),
  disabled_at     BIGINT,
  updated_at      BIGINT NOT NULL
);
`,
};
