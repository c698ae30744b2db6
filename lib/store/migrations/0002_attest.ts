import type { Migration } from "../store.ts";

/** Browser attestation sessions (specs/attestation.md). */
export const attest: Migration = {
  version: 2,
  name: "attest",
  sql: `
CREATE TABLE attest_sessions (
  session_id        TEXT PRIMARY KEY,
  public_key        TEXT NOT NULL,
  salt              TEXT NOT NULL,
  last_hash         TEXT NOT NULL,
  pending_step      INTEGER NOT NULL,
  pending_order     TEXT NOT NULL,
  gene_state        BLOB NOT NULL,
  chain_length      INTEGER NOT NULL DEFAULT 0,
  program           TEXT NOT NULL,
  created_at        INTEGER NOT NULL,
  expires_at        INTEGER NOT NULL,
  last_heartbeat_at INTEGER
);
CREATE INDEX attest_sessions_expires ON attest_sessions(expires_at);
CREATE INDEX attest_sessions_chain ON attest_sessions(chain_length);
`,
};
