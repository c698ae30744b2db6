import type { Migration } from "../store.ts";

/**
 * Indexes attestation sessions by a 10-minute expiry bucket instead of the
 * exact expiry. Every accepted heartbeat slides `expires_at`, so its index
 * entry moved on every heartbeat: one more page rewritten per heartbeat, a
 * large share of a group commit's cost. A session's bucket changes about once in
 * ten minutes, and only then is its index entry rewritten
 * (lib/attest/session_repo.ts keeps `expires_bucket` = floor(expires_at / 600,000)).
 */
export const attestExpiryBucket: Migration = {
  version: 6,
  name: "attest-expiry-bucket",
  sql: `
ALTER TABLE attest_sessions ADD COLUMN expires_bucket INTEGER NOT NULL DEFAULT 0;
UPDATE attest_sessions SET expires_bucket = expires_at / 600000;
DROP INDEX attest_sessions_expires;
CREATE INDEX attest_sessions_expires_bucket ON attest_sessions(expires_bucket);
`,
};
