import type { Migration } from "../store.ts";

/**
 * DNSSEC keys (docs/dns.md, "DNSSEC"). Each zone signs with a KSK and a ZSK
 * of one algorithm; the zone's `dnssec_enabled` (dns_zones, migration 4)
 * says whether they are served. Disabling keeps the keys, so that enabling
 * again with the same algorithm reuses them and the DS at the parent stays
 * valid. The lifecycle times are those of RFC 7583, for the rollover to
 * come; a NULL time has not been scheduled.
 */
export const dnssec: Migration = {
  version: 8,
  name: "dnssec",
  sql: `
CREATE TABLE dnssec_keys (
  id          TEXT PRIMARY KEY,
  zone_name   TEXT NOT NULL REFERENCES dns_zones(name) ON DELETE CASCADE,
  -- DNSSEC algorithm number: 8 RSASHA256, 13 ECDSAP256SHA256, 15 ED25519.
  algorithm   INTEGER NOT NULL,
  key_type    TEXT NOT NULL CHECK (key_type IN ('KSK', 'ZSK')),
  -- RSA modulus length; 256 for P-256 and Ed25519.
  bits        INTEGER NOT NULL,
  -- DNSKEY flags: 257 for a KSK (Zone Key and SEP), 256 for a ZSK.
  flags       INTEGER NOT NULL,
  -- Base64 of the DNSKEY public key field (RFC 6605 §4, RFC 8080 §3, RFC 3110 §2).
  public_key  TEXT NOT NULL,
  -- Base64 of the private key as PKCS#8 DER. Read only to build the answer index's signing keys.
  private_key TEXT NOT NULL,
  -- RFC 4034 Appendix B key tag of the DNSKEY RDATA.
  key_tag     INTEGER NOT NULL,
  state       TEXT NOT NULL CHECK (state IN ('published', 'active', 'retired', 'removed')),
  created_at  INTEGER NOT NULL,
  publish_at  INTEGER NOT NULL,
  activate_at INTEGER NOT NULL,
  retire_at   INTEGER,
  remove_at   INTEGER,
  expires_at  INTEGER
);
CREATE INDEX dnssec_keys_zone ON dnssec_keys(zone_name, state);
`,
};
