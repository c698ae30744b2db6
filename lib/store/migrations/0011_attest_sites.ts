import type { Migration } from "../store.ts";

/**
 * Attestation sites (docs/attestation_sites.md): a website registered by an
 * administrator, with its public site key, the SHA-256 of its secret (never
 * the secret), the origins its pages are served from (a JSON array of
 * canonical origins) and its token rules. `counter_slot` is the site's row
 * in the shared per-site counters (0…SITE_SLOTS-1, NULL past that many
 * sites), fixed for the site's life so every thread counts into the same
 * cells. A session remembers the site it was created for (`site_id`, NULL
 * without a site key); nothing on the heartbeat path reads it.
 */
export const attestSites: Migration = {
  version: 11,
  name: "attest-sites",
  sql: `
CREATE TABLE attest_sites (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  site_key TEXT NOT NULL UNIQUE,
  secret_hash TEXT NOT NULL,
  origins TEXT NOT NULL,
  min_chain INTEGER NOT NULL DEFAULT 3,
  token_ttl_s INTEGER NOT NULL DEFAULT 300,
  counter_slot INTEGER UNIQUE,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
ALTER TABLE attest_sessions ADD COLUMN site_id TEXT;
`,
};
