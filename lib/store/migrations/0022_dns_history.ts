import type { Migration } from "../store.ts";

/**
 * The history of a zone's records (docs/dns.md, "History and revert"): one row
 * per change set, written by the serial step of the change's transaction
 * (lib/dns/history/history_write.ts). `changes` is the JSON of every RRset the
 * change set touched, as it was before and after. Kept beside the IXFR journal
 * rather than in it: the journal holds wire data, is cleared for a signed zone
 * and trimmed for transfers, while history keeps presentation values, actor and
 * summary for people.
 */
export const dnsHistory: Migration = {
  version: 22,
  name: "dns-history",
  sql: `
CREATE TABLE dns_history (
  id          INTEGER PRIMARY KEY AUTOINCREMENT,
  zone        TEXT NOT NULL REFERENCES dns_zones(name) ON DELETE CASCADE,
  serial_from INTEGER NOT NULL,
  serial_to   INTEGER NOT NULL,
  actor       TEXT NOT NULL,
  summary     TEXT NOT NULL,
  changes     TEXT NOT NULL,
  reverts     INTEGER,
  created_at  INTEGER NOT NULL
);
CREATE INDEX dns_history_zone ON dns_history(zone, id);
`,
};
