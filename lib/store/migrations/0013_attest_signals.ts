import type { Migration } from "../store.ts";

/**
 * Automation signals of attestation sessions (docs/attestation_sites.md,
 * "Signals"), kept only for sessions whose heartbeats come from a site's
 * origin. `attest_signals` holds one row of running sums per session, written
 * in the group commit that accepts the heartbeat, and goes with its session
 * (ON DELETE CASCADE); WITHOUT ROWID, so the UPSERT rewrites one B-tree, not
 * a table and its key's index. `attest_signal_paths` holds the hash of each
 * accepted heartbeat's normalised path with the session that sent it (the
 * first 52 bits of its random id: small entries, fewer pages), keyed by hash
 * first so a replay is found by one index probe; rows are deleted by age
 * (`seen_at`), not with their session, so a trace recorded from a session
 * that has since expired is still recognised for a while.
 */
export const attestSignals: Migration = {
  version: 13,
  name: "attest-signals",
  sql: `
CREATE TABLE attest_signals (
  session_id TEXT PRIMARY KEY REFERENCES attest_sessions(session_id) ON DELETE CASCADE,
  site_id TEXT NOT NULL,
  heartbeats INTEGER NOT NULL,
  triples INTEGER NOT NULL,
  collinear INTEGER NOT NULL,
  even INTEGER NOT NULL,
  regular INTEGER NOT NULL,
  segments INTEGER NOT NULL,
  speed_sum REAL NOT NULL,
  speed_sumsq REAL NOT NULL,
  dt_sum REAL NOT NULL,
  dt_sumsq REAL NOT NULL,
  intervals INTEGER NOT NULL,
  interval_sum REAL NOT NULL,
  interval_sumsq REAL NOT NULL,
  last_at INTEGER NOT NULL,
  aspect_ratio TEXT NOT NULL,
  device_pixel_ratio TEXT NOT NULL,
  hardware_concurrency INTEGER NOT NULL,
  aspect_ratio_changes INTEGER NOT NULL,
  device_pixel_ratio_changes INTEGER NOT NULL,
  hardware_concurrency_changes INTEGER NOT NULL,
  hashes INTEGER NOT NULL,
  replays INTEGER NOT NULL,
  created_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE attest_signal_paths (
  hash INTEGER NOT NULL,
  session_key INTEGER NOT NULL,
  seen_at INTEGER NOT NULL,
  PRIMARY KEY (hash, session_key)
) WITHOUT ROWID;
CREATE INDEX attest_signal_paths_seen ON attest_signal_paths(seen_at);
`,
};
