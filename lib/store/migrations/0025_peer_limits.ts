import type { Migration } from "../store.ts";

/**
 * Peer expiry and traffic quotas (issue 29; docs/peer_lifecycle.md). One row
 * per peer that has a limit: the policy (`expires_at`, `quota_bytes`, the
 * period: calendar month UTC when `period_days` is NULL, else every
 * `period_days` days from `period_anchor`) and the accounting of the current
 * period (`period_start`, `used_bytes`, and the host's transfer counters last
 * seen, persisted so a restart of Palisade counts on from them; NULL until
 * the first read). `disabled_reason` is set when Palisade disabled the peer
 * for a limit, with the peer's `updated_at` of that change in `disabled_at`:
 * a peer changed by hand since is not re-enabled at the period boundary.
 * Times are Unix milliseconds.
 */
export const peerLimits: Migration = {
  version: 25,
  name: "peer-limits",
  sql: `
CREATE TABLE peer_limits (
  peer_id         TEXT PRIMARY KEY REFERENCES peers(id) ON DELETE CASCADE,
  expires_at      INTEGER,
  quota_bytes     INTEGER CHECK (quota_bytes IS NULL OR quota_bytes > 0),
  period_days     INTEGER CHECK (period_days IS NULL OR period_days BETWEEN 1 AND 3660),
  period_anchor   INTEGER NOT NULL,
  period_start    INTEGER NOT NULL,
  used_bytes      INTEGER NOT NULL DEFAULT 0,
  last_rx         INTEGER,
  last_tx         INTEGER,
  disabled_reason TEXT CHECK (disabled_reason IN ('quota_reached', 'expired')),
  disabled_at     INTEGER,
  updated_at      INTEGER NOT NULL
);
`,
};
