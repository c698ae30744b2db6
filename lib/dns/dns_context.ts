/**
 * What every DNS management module shares: the repositories, the transactor,
 * the audit log and event bus, and the answer index to refresh after a
 * commit. `DnsService` is built over one of these.
 */
import type { AuditLog } from "../audit/audit.ts";
import type { Clock } from "../clock.ts";
import { NotFoundError } from "../errors.ts";
import type { EventBus } from "../events/bus.ts";
import type { AsyncTransactor } from "../store/async_transactor.ts";
import { normalizeZoneName } from "./names.ts";
import type { DnssecKeyRepo } from "./dnssec/key_repo.ts";
import type { HistoryRepo } from "./history/history_repo.ts";
import type { JournalRepo } from "./ixfr/journal_repo.ts";
import type { RecordRepo } from "./record_repo.ts";
import type { TsigKeyRepo } from "./tsig/key_repo.ts";
import type { ZoneRepo, ZoneRow } from "./zone_repo.ts";

/** Told after a commit that a zone's data changed, so answers follow the store. */
export interface ZoneInvalidator {
  /** Reloads the zone from the store; settles once the answers follow it. */
  invalidate(zone: string): Promise<void>;
  /** Settles once every reload started so far has ended. */
  settled(): Promise<void>;
}

export interface DnsContext {
  zones: ZoneRepo;
  records: RecordRepo;
  dnssecKeys: DnssecKeyRepo;
  /** The IXFR journal, written with every serial step (ixfr/journal_write.ts). */
  journal: JournalRepo;
  tsigKeys: TsigKeyRepo;
  /** The zone's change sets, written with every serial step (history/history_write.ts). */
  history: HistoryRepo;
  transactor: AsyncTransactor;
  audit: Pick<AuditLog, "add">;
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
export async function zoneOf(ctx: DnsContext, name: string): Promise<ZoneRow> {
  let key: string;
  try {
    key = normalizeZoneName(name, "name");
  } catch {
    throw new NotFoundError(`Zone "${name}" not found`);
  }
  const z = await ctx.zones.get(key);
  if (!z) throw new NotFoundError(`Zone "${name}" not found`);
  return z;
}

/**
 * After commit: reload the zone's answers, then tell subscribers (NOTIFY to
 * secondaries hangs off the event, so it goes out once this instance answers
 * with the new serial). The service awaits `index.settled()` before it returns. Other
 * instances hear of the change at commit (`announce`, index_sync.ts).
 */
export async function zoneChanged(
  ctx: DnsContext,
  zone: string,
  action: string,
  serial: number,
): Promise<void> {
  await ctx.zones.announce(zone);
  ctx.transactor.afterCommit(() => {
    const emit = () => ctx.events.emit("ZoneChanged", { zone, action, serial });
    if (ctx.index) ctx.index.invalidate(zone).then(emit, emit);
    else emit();
  });
}

/** `list` without repeats, first occurrence kept. */
export function unique(list: string[]): string[] {
  return [...new Set(list)];
}
