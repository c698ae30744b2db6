import type { Migration } from "../store.ts";

/**
 * DNS zones and records. Names are stored lowercase without the trailing dot.
 * The SOA lives in the zone's columns and is mirrored as one `SOA` row in
 * `dns_records` (rewritten on every serial bump) so that listings and
 * records_count include it; apex NS come from `nameservers` (JSON array).
 */
export const dns: Migration = {
  version: 4,
  name: "dns",
  sql: `
CREATE TABLE dns_zones (
  name           TEXT PRIMARY KEY,
  admin_email    TEXT NOT NULL,
  serial         INTEGER NOT NULL,
  refresh        INTEGER NOT NULL,
  retry          INTEGER NOT NULL,
  expire         INTEGER NOT NULL,
  minimum        INTEGER NOT NULL,
  default_ttl    INTEGER NOT NULL,
  -- JSON array of nameserver host names (no trailing dot), served as the apex NS RRset.
  nameservers    TEXT NOT NULL,
  -- TTL of the apex NS RRset; NULL means default_ttl.
  ns_ttl         INTEGER,
  -- SOA MNAME when it is not the first nameserver (kept from imported zones).
  mname          TEXT,
  dnssec_enabled INTEGER NOT NULL DEFAULT 0,
  created_at     INTEGER NOT NULL,
  updated_at     INTEGER NOT NULL
);

CREATE TABLE dns_records (
  id         TEXT PRIMARY KEY,
  zone       TEXT NOT NULL REFERENCES dns_zones(name) ON DELETE CASCADE,
  name       TEXT NOT NULL,
  type       TEXT NOT NULL,
  value      TEXT NOT NULL,
  ttl        INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  UNIQUE (zone, name, type, value)
);
CREATE INDEX dns_records_zone_type ON dns_records(zone, type);
CREATE INDEX dns_records_zone_name ON dns_records(zone, name);
`,
};
