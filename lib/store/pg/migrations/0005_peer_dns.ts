/** SQLite migration 21 (`lib/store/migrations/0021_peer_dns.ts`) on PostgreSQL. */
import type { PgMigration } from "./mod.ts";

export const peerDns: PgMigration = {
  version: 5,
  name: "peer-dns",
  sql: `
ALTER TABLE interfaces ADD COLUMN dns_zone TEXT COLLATE "C" REFERENCES dns_zones(name) ON DELETE SET NULL;
CREATE TABLE dns_record_owners (
  record_id TEXT COLLATE "C" PRIMARY KEY REFERENCES dns_records(id) ON DELETE CASCADE,
  owner     TEXT COLLATE "C" NOT NULL
);
CREATE INDEX dns_record_owners_owner ON dns_record_owners(owner);
`,
};
