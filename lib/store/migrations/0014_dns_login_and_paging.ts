import type { Migration } from "../store.ts";

/**
 * Issue 26, points 4 and 5.
 *
 * `dns_login_failures`: the DNS API's login throttle counts its failures apart
 * from the admin listener's (`login_failures`), so guessing on one login never
 * makes the other wait (docs/api.md, "DNS API authentication"). Same shape.
 *
 * The record indexes serve the keyset pages of `GET /zones/{name}/records`
 * (docs/api.md, "Pagination"): a page is one range scan of the index from the
 * cursor on, whether the listing is filtered by type or not. They cover the
 * prefixes of the two indexes of migration 4, which go.
 */
export const dnsLoginAndPaging: Migration = {
  version: 14,
  name: "dns-login-and-paging",
  sql: `
CREATE TABLE dns_login_failures (
  id       INTEGER PRIMARY KEY,
  username TEXT NOT NULL COLLATE NOCASE,
  address  TEXT NOT NULL,
  at       INTEGER NOT NULL
);
CREATE INDEX dns_login_failures_username ON dns_login_failures(username, at);
CREATE INDEX dns_login_failures_address ON dns_login_failures(address, at);

DROP INDEX dns_records_zone_name;
DROP INDEX dns_records_zone_type;
CREATE INDEX dns_records_page ON dns_records(zone, name, type, id);
CREATE INDEX dns_records_type_page ON dns_records(zone, type, name, id);
`,
};
