/**
 * What every DNS management module shares: the repositories, the transactor,
 * the audit log and event bus, and the answer index to refresh after a
 * commit. `DnsService` is built over one of these.
 */
import type { AuditLog } from "../audit/audit.ts";
import type { Clock } from "../clock.ts";
import { NotFoundError } from "../errors.ts";
import type { EventBus } from "../events/bus.ts";
import type { Transactor } from "../store/transactor.ts";
import { normalizeZoneName } from "./names.ts";
import type { DnssecKeyStatements } from "./dnssec/key_repo.ts";
import type { JournalStatements } from "./ixfr/journal_repo.ts";
import type { RecordStatements } from "./record_repo.ts";
import type { TsigKeyStatements } from "./tsig/key_repo.ts";
import type { ZoneRow, ZoneStatements } from "./zone_repo.ts";

/** Told after a commit that a zone's data changed, so answers follow the store. */
export interface ZoneInvalidator {
  invalidate(zone: string): void;
}

export interface DnsContext {
  zones: ZoneStatements;
  records: RecordStatements;
  dnssecKeys: DnssecKeyStatements;
  /** The IXFR journal, written with every serial step (ixfr/journal_write.ts). */
  journal: JournalStatements;
  tsigKeys: TsigKeyStatements;
  transactor: Transactor;
  audit: Pick<AuditLog, "record">;
  events: Pick<EventBus, "emit">;
  clock: Clock;
  /**
   * Apex NS host names for new zones (PALISADE_DNS_NAMESERVERS); "{zone}"
   * in an entry is replaced by the zone name. The first is the SOA MNAME.
   */
  nameservers: string[];
  index?: ZoneInvalidator;
  /**
   * Seconds a change takes to reach every secondary (PALISADE_DNSSEC_PROPAGATION_DELAY),
   * for the waits of a key rollover (dnssec/rollover.ts); 3600 when absent.
   */
  propagationDelay?: number;
}

/** The zone `name` as given in a path; NotFoundError when it is absent or no valid name. */
export function zoneOf(ctx: DnsContext, name: string): ZoneRow {
  let key: string;
  try {
    key = normalizeZoneName(name, "name");
  } catch {
    throw new NotFoundError(`Zone "${name}" not found`);
  }
  const z = ctx.zones.get(key);
  if (!z) throw new NotFoundError(`Zone "${name}" not found`);
  return z;
}

/** After commit: reload the zone's answers, then tell subscribers. */
export function zoneChanged(ctx: DnsContext, zone: string, action: string, serial: number): void {
  ctx.transactor.afterCommit(() => {
    ctx.index?.invalidate(zone);
    ctx.events.emit("ZoneChanged", { zone, action, serial });
  });
}

/** `list` without repeats, first occurrence kept. */
export function unique(list: string[]): string[] {
  return [...new Set(list)];
}
