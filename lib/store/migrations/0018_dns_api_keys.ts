import type { Migration } from "../store.ts";

/**
 * Scoped DNS API keys (issue 28; docs/dns.md, "API keys"): one row per key.
 * Only the SHA-256 (hex) of the raw key is kept, like the admin API tokens;
 * `scope` is the key's scope as JSON ({zones, types, names, access}).
 * `expires_at` is null for a key that does not expire; times are Unix
 * milliseconds. `created_by` is the administrator's username.
 */
export const dnsApiKeys: Migration = {
  version: 18,
  name: "dns-api-keys",
  sql: `
CREATE TABLE dns_api_keys (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  key_hash TEXT NOT NULL UNIQUE,
  scope TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER,
  last_used_at INTEGER,
  created_by TEXT NOT NULL
);
`,
};
