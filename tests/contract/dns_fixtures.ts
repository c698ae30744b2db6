/** Zones and records for the DNS contract suites, and the repositories of either engine. */
import { AuditLog } from "../../lib/audit/audit.ts";
import { PgAuditRepo } from "../../lib/audit/pg_audit_repo.ts";
import { sqliteAuditLog } from "../../lib/audit/sqlite_audit.ts";
import { ManualClock } from "../../lib/clock.ts";
import { type DnsRepos, pgDnsRepos, sqliteDnsRepos } from "../../lib/dns/dns_repos.ts";
import { DnsService } from "../../lib/dns/dns_service.ts";
import { EventBus } from "../../lib/events/bus.ts";
import type { JournalLimits } from "../../lib/dns/ixfr/journal_repo.ts";
import type { RecordRow } from "../../lib/dns/record_repo.ts";
import type { ZoneRow } from "../../lib/dns/zone_repo.ts";
import type { Engine } from "./engines.ts";

/** Every DNS repository of the case's engine. */
export function dnsReposOf(e: Engine, journal?: JournalLimits): DnsRepos {
  return e.pick<DnsRepos>({
    sqlite: (db) => sqliteDnsRepos(db.store, journal),
    postgres: (db) => pgDnsRepos(db, journal),
  });
}

export function zoneRow(name: string, over: Partial<ZoneRow> = {}): ZoneRow {
  return {
    name,
    admin_email: `hostmaster.${name}`,
    serial: 2024010101,
    refresh: 3600,
    retry: 600,
    expire: 604800,
    minimum: 300,
    default_ttl: 3600,
    nameservers: [`ns1.${name}`, `ns2.${name}`],
    ns_ttl: null,
    mname: null,
    dnssec_enabled: false,
    created_at: 1000,
    updated_at: 1000,
    ...over,
  };
}

export function recordRow(
  zone: string,
  id: string,
  name: string,
  type: string,
  value: string,
  over: Partial<RecordRow> = {},
): RecordRow {
  return { id, zone, name, type, value, ttl: 300, created_at: 1000, updated_at: 1000, ...over };
}

/** The SOA row of `zone`, as the service writes it. */
export function soaRow(zone: string, id = `soa-${zone}`): RecordRow {
  return recordRow(zone, id, zone, "SOA", `ns1.${zone}. hostmaster.${zone}. 1 3600 600 604800 300`);
}

/** Rows as plain objects: SQLite returns them without a prototype. */
export function plain<T extends object>(rows: T[]): T[] {
  return rows.map((r) => ({ ...r }));
}

/** The DNS service over the engine's repositories, audit log and transactor, at a fixed time. */
export function dnsServiceOf(e: Engine): DnsService {
  const events = new EventBus();
  const clock = new ManualClock(Date.UTC(2026, 2, 14, 12));
  const audit = e.pick({
    sqlite: (db) => sqliteAuditLog(db.store, events, clock),
    postgres: (db) => new AuditLog(new PgAuditRepo(db), db, events, clock),
  });
  return new DnsService({
    ...dnsReposOf(e),
    transactor: e.transactor,
    audit,
    events,
    clock,
    nameservers: ["ns1.{zone}"],
  });
}
