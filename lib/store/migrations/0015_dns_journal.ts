import type { Migration } from "../store.ts";

/**
 * The IXFR journal (docs/dns.md, "IXFR"). `dns_journal` holds, per zone and
 * per serial step, the records an incremental transfer sends, in the order it
 * sends them: the old SOA, the deleted RRs, the new SOA, the added RRs (RFC
 * 1995 §4), each as owner name, type code, TTL and RDATA in wire form.
 *
 * `dns_journal_pending` is filled by triggers on every write to `dns_records`
 * and to the zone fields that make served records (apex NS, DNSSEC), so no
 * write path can change a zone without the journal hearing of it; the serial
 * bump of the same transaction (lib/dns/soa_serial.ts) turns these raw row
 * changes into a journal step and empties them. A "reset" row (a zone created
 * or DNSSEC turned on or off) makes that bump start the journal afresh.
 */
export const dnsJournal: Migration = {
  version: 15,
  name: "dns-journal",
  sql: `
CREATE TABLE dns_journal (
  id          INTEGER PRIMARY KEY AUTOINCREMENT,
  zone        TEXT NOT NULL REFERENCES dns_zones(name) ON DELETE CASCADE,
  serial_from INTEGER NOT NULL,
  serial_to   INTEGER NOT NULL,
  seq         INTEGER NOT NULL,
  op          TEXT NOT NULL CHECK (op IN ('del', 'add')),
  name        TEXT NOT NULL,
  type        INTEGER NOT NULL,
  ttl         INTEGER NOT NULL,
  rdata       BLOB NOT NULL,
  created_at  INTEGER NOT NULL
);
CREATE INDEX dns_journal_zone ON dns_journal(zone, id);

-- No foreign key: rows of a zone being deleted may be written after its row is gone.
CREATE TABLE dns_journal_pending (
  id    INTEGER PRIMARY KEY AUTOINCREMENT,
  zone  TEXT NOT NULL,
  op    TEXT NOT NULL CHECK (op IN ('del', 'add', 'soa', 'ns', 'reset')),
  rid   TEXT,
  name  TEXT,
  type  TEXT,
  ttl   INTEGER,
  value TEXT
);
CREATE INDEX dns_journal_pending_zone ON dns_journal_pending(zone, id);

CREATE TRIGGER dns_journal_record_insert AFTER INSERT ON dns_records WHEN NEW.type <> 'SOA'
BEGIN
  INSERT INTO dns_journal_pending (zone, op, rid, name, type, ttl, value)
    VALUES (NEW.zone, 'add', NEW.id, NEW.name, NEW.type, NEW.ttl, NEW.value);
END;

CREATE TRIGGER dns_journal_record_delete AFTER DELETE ON dns_records WHEN OLD.type <> 'SOA'
BEGIN
  INSERT INTO dns_journal_pending (zone, op, rid, name, type, ttl, value)
    VALUES (OLD.zone, 'del', OLD.id, OLD.name, OLD.type, OLD.ttl, OLD.value);
END;

CREATE TRIGGER dns_journal_record_update AFTER UPDATE ON dns_records WHEN OLD.type <> 'SOA'
BEGIN
  INSERT INTO dns_journal_pending (zone, op, rid, name, type, ttl, value)
    VALUES (OLD.zone, 'del', OLD.id, OLD.name, OLD.type, OLD.ttl, OLD.value);
  INSERT INTO dns_journal_pending (zone, op, rid, name, type, ttl, value)
    VALUES (NEW.zone, 'add', NEW.id, NEW.name, NEW.type, NEW.ttl, NEW.value);
END;

CREATE TRIGGER dns_journal_soa_update AFTER UPDATE ON dns_records WHEN OLD.type = 'SOA'
BEGIN
  INSERT INTO dns_journal_pending (zone, op, rid, name, type, ttl, value)
    VALUES (OLD.zone, 'soa', OLD.id, OLD.name, 'SOA', OLD.ttl, OLD.value);
END;

CREATE TRIGGER dns_journal_zone_ns AFTER UPDATE OF nameservers, ns_ttl, default_ttl ON dns_zones
  WHEN OLD.nameservers IS NOT NEW.nameservers
    OR coalesce(OLD.ns_ttl, OLD.default_ttl) IS NOT coalesce(NEW.ns_ttl, NEW.default_ttl)
BEGIN
  INSERT INTO dns_journal_pending (zone, op, name, type, ttl, value)
    VALUES (OLD.name, 'ns', OLD.name, 'NS', coalesce(OLD.ns_ttl, OLD.default_ttl), OLD.nameservers);
END;

CREATE TRIGGER dns_journal_zone_dnssec AFTER UPDATE OF dnssec_enabled ON dns_zones
  WHEN OLD.dnssec_enabled IS NOT NEW.dnssec_enabled
BEGIN
  INSERT INTO dns_journal_pending (zone, op) VALUES (NEW.name, 'reset');
END;

CREATE TRIGGER dns_journal_zone_insert AFTER INSERT ON dns_zones
BEGIN
  DELETE FROM dns_journal_pending WHERE zone = NEW.name;
  INSERT INTO dns_journal_pending (zone, op) VALUES (NEW.name, 'reset');
END;

CREATE TRIGGER dns_journal_zone_delete AFTER DELETE ON dns_zones
BEGIN
  DELETE FROM dns_journal_pending WHERE zone = OLD.name;
END;
`,
};
