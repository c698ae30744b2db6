import type { Migration } from "../store.ts";

/**
 * Peer names in DNS (issue 29; docs/tunnels.md, "Peer names in DNS").
 * `interfaces.dns_zone` is the Palisade zone an interface publishes its
 * enabled peers in (NULL: none); deleting the zone turns publishing off.
 * `dns_record_owners` marks the records such publishing wrote, so a
 * hand-made record is never changed and turning publishing off removes only
 * these; `owner` is `peer:<peer id>`. A record deleted by any path takes its
 * mark with it.
 */
export const peerDns: Migration = {
  version: 21,
  name: "peer-dns",
  sql: `
ALTER TABLE interfaces ADD COLUMN dns_zone TEXT REFERENCES dns_zones(name) ON DELETE SET NULL;
CREATE TABLE dns_record_owners (
  record_id TEXT PRIMARY KEY REFERENCES dns_records(id) ON DELETE CASCADE,
  owner TEXT NOT NULL
);
CREATE INDEX dns_record_owners_owner ON dns_record_owners(owner);
`,
};
