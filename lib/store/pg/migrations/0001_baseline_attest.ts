/** The attestation tables of the PostgreSQL baseline (SQLite migrations 2, 5, 6, 11-13, 17). */
export const baselineAttest = `
CREATE TABLE attest_sessions (
  session_id        TEXT COLLATE "C" PRIMARY KEY,
  public_key        TEXT COLLATE "C" NOT NULL,
  salt              TEXT COLLATE "C" NOT NULL,
  last_hash         TEXT COLLATE "C" NOT NULL,
  pending_step      BIGINT NOT NULL,
  pending_order     TEXT COLLATE "C" NOT NULL,
  gene_state        BYTEA NOT NULL,
  chain_length      BIGINT NOT NULL DEFAULT 0,
  program           TEXT COLLATE "C" NOT NULL,
  created_at        BIGINT NOT NULL,
  expires_at        BIGINT NOT NULL,
  last_heartbeat_at BIGINT,
  expires_bucket    BIGINT NOT NULL DEFAULT 0,
  site_id           TEXT COLLATE "C"
);
CREATE INDEX attest_sessions_expires_bucket ON attest_sessions(expires_bucket);
CREATE TABLE attest_sites (
  id           TEXT COLLATE "C" PRIMARY KEY,
  name         TEXT COLLATE "C" NOT NULL UNIQUE,
  site_key     TEXT COLLATE "C" NOT NULL UNIQUE,
  secret_hash  TEXT COLLATE "C" NOT NULL,
  origins      TEXT COLLATE "C" NOT NULL,
  min_chain    BIGINT NOT NULL DEFAULT 3,
  token_ttl_s  BIGINT NOT NULL DEFAULT 300,
  counter_slot BIGINT UNIQUE,
  created_at   BIGINT NOT NULL,
  updated_at   BIGINT NOT NULL
);
CREATE TABLE attest_tokens (
  token_id        TEXT COLLATE "C" PRIMARY KEY,
  site_id         TEXT COLLATE "C" NOT NULL,
  session_id      TEXT COLLATE "C" NOT NULL,
  issued_at       BIGINT NOT NULL,
  expires_at      BIGINT NOT NULL,
  chain_length    BIGINT NOT NULL,
  session_age_ms  BIGINT NOT NULL,
  used_at         BIGINT,
  idempotency_key TEXT COLLATE "C",
  result          TEXT COLLATE "C"
);
CREATE INDEX attest_tokens_expires ON attest_tokens (expires_at);
CREATE TABLE attest_signals (
  session_id TEXT COLLATE "C" PRIMARY KEY REFERENCES attest_sessions(session_id) ON DELETE CASCADE,
  site_id TEXT COLLATE "C" NOT NULL,
  heartbeats BIGINT NOT NULL,
  triples BIGINT NOT NULL,
  collinear BIGINT NOT NULL,
  even BIGINT NOT NULL,
  regular BIGINT NOT NULL,
  segments BIGINT NOT NULL,
  speed_sum DOUBLE PRECISION NOT NULL,
  speed_sumsq DOUBLE PRECISION NOT NULL,
  dt_sum DOUBLE PRECISION NOT NULL,
  dt_sumsq DOUBLE PRECISION NOT NULL,
  intervals BIGINT NOT NULL,
  interval_sum DOUBLE PRECISION NOT NULL,
  interval_sumsq DOUBLE PRECISION NOT NULL,
  last_at BIGINT NOT NULL,
  aspect_ratio TEXT COLLATE "C" NOT NULL,
  device_pixel_ratio TEXT COLLATE "C" NOT NULL,
  hardware_concurrency BIGINT NOT NULL,
  aspect_ratio_changes BIGINT NOT NULL,
  device_pixel_ratio_changes BIGINT NOT NULL,
  hardware_concurrency_changes BIGINT NOT NULL,
  hashes BIGINT NOT NULL,
  replays BIGINT NOT NULL,
  created_at BIGINT NOT NULL
);
CREATE INDEX attest_signals_site ON attest_signals(site_id, created_at);
CREATE TABLE attest_signal_paths (
  hash BIGINT NOT NULL,
  session_key BIGINT NOT NULL,
  seen_at BIGINT NOT NULL,
  PRIMARY KEY (hash, session_key)
);
CREATE INDEX attest_signal_paths_seen ON attest_signal_paths(seen_at);
`;
