/**
 * A DNS service over a test store, as lib/services.ts builds it: SQLite
 * repositories, an audit log and an event bus whose events are collected,
 * and a manual clock (or the one given).
 */
import { sqliteAuditLog } from "../../lib/audit/sqlite_audit.ts";
import { type Clock, ManualClock } from "../../lib/clock.ts";
import type { DnsContext, ZoneInvalidator } from "../../lib/dns/dns_context.ts";
import { sqliteDnsRepos } from "../../lib/dns/dns_repos.ts";
import { DnsService } from "../../lib/dns/dns_service.ts";
import { type BusEvent, EventBus } from "../../lib/events/bus.ts";
import { SqliteAsync } from "../../lib/store/sqlite_async.ts";
import type { Store } from "../../lib/store/store.ts";

export interface DnsTestOptions<C extends Clock> {
  clock?: C;
  nameservers?: string[];
  index?: ZoneInvalidator;
  /** Seconds (PALISADE_DNSSEC_PROPAGATION_DELAY); the service's default when absent. */
  propagationDelay?: number;
}

/** The service, its context, the events it emitted, its clock and an audit log over the same store. */
export function dnsTestService<C extends Clock = ManualClock>(
  store: Store,
  opts: DnsTestOptions<C> = {},
) {
  const bus = new EventBus();
  const events: BusEvent[] = [];
  bus.subscribe((e) => events.push(e));
  const clock = opts.clock ?? new ManualClock(Date.UTC(2026, 2, 14, 12)) as unknown as C;
  const audit = sqliteAuditLog(store, bus, clock);
  const ctx: DnsContext = {
    ...sqliteDnsRepos(store),
    transactor: SqliteAsync.of(store),
    audit,
    events: bus,
    clock,
    nameservers: opts.nameservers ?? ["ns1.{zone}", "ns.provider.net."],
    index: opts.index,
    propagationDelay: opts.propagationDelay,
  };
  const service = new DnsService(ctx);
  return { service, ctx, events, clock, audit };
}
