import type { Migration } from "../store.ts";

/**
 * TSIG keys (RFC 8945; docs/dns.md, "TSIG"): one row per key, named by its
 * lower-case domain name without the final dot. `secret` is the base64 key
 * material: HMAC needs it, so it is kept as given, like the DNSSEC private
 * keys (docs/security.md), and only the signing path reads it. `zones` and
 * `permissions` are JSON arrays; an empty `zones` means every zone.
 */
export const tsigKeys: Migration = {
  version: 16,
  name: "dns-tsig-keys",
  sql: `
CREATE TABLE dns_tsig_keys (
  name TEXT PRIMARY KEY,
  algorithm TEXT NOT NULL,
  secret TEXT NOT NULL,
  zones TEXT NOT NULL DEFAULT '[]',
  permissions TEXT NOT NULL DEFAULT '[]',
  created_at INTEGER NOT NULL
);
`,
};
