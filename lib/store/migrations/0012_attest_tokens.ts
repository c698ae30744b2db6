import type { Migration } from "../store.ts";

/**
 * Attestation tokens (docs/attestation_sites.md, "Tokens and siteverify"):
 * one row per token `POST /token` issued, keyed by the SHA-256 hex of the
 * whole token string (the token itself is not stored). `used_at` is set by
 * the one siteverify that wins (a conditional UPDATE … WHERE used_at IS
 * NULL), with the idempotency key it carried and the answer it got, so that
 * a retry with the same key gets that answer again. `chain_length` and
 * `session_age_ms` are the session's at issuance, for the answer. Rows are
 * purged a grace period after `expires_at`.
 */
export const attestTokens: Migration = {
  version: 12,
  name: "attest-tokens",
  sql: `
CREATE TABLE attest_tokens (
  token_id TEXT PRIMARY KEY,
  site_id TEXT NOT NULL,
  session_id TEXT NOT NULL,
  issued_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  chain_length INTEGER NOT NULL,
  session_age_ms INTEGER NOT NULL,
  used_at INTEGER,
  idempotency_key TEXT,
  result TEXT
);
CREATE INDEX attest_tokens_expires ON attest_tokens (expires_at);
`,
};
