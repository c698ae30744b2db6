/** SQLite migration 18 (`lib/store/migrations/0018_dns_api_keys.ts`) on PostgreSQL. */
import type { PgMigration } from "./mod.ts";

export const dnsApiKeys: PgMigration = {
  version: 2,
  name: "dns-api-keys",
  sql: `
CREATE TABLE dns_api_keys (
  id           TEXT COLLATE "C" PRIMARY KEY,
  name         TEXT COLLATE "C" NOT NULL,
  key_hash     TEXT COLLATE "C" NOT NULL UNIQUE,
  scope        TEXT COLLATE "C" NOT NULL,
  created_at   BIGINT NOT NULL,
  expires_at   BIGINT,
  last_used_at BIGINT,
  created_by   TEXT COLLATE "C" NOT NULL
);
`,
};
