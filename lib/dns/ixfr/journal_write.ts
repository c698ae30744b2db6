/**
 * Writes the IXFR journal: called where the zone's serial moves
 * (soa_serial.ts, `setSerial`), the one place every change of a zone passes,
 * in the change's transaction. The triggers of migration 15 noted the raw
 * row changes; here they become one journal step (old serial → new serial),
 * and the journal is trimmed to its bounds.
 *
 * A zone signed with DNSSEC keeps no journal: its IXFR is answered with a
 * full transfer, signatures and NSEC chain included (docs/dns.md, "IXFR").
 * A zone just created or whose DNSSEC was turned on or off starts afresh.
 */
import type { DnsContext } from "../dns_context.ts";
import { serialGreater } from "../soa.ts";
import { stepEntries } from "./journal_diff.ts";
import type { JournalVersion, PendingChange } from "./journal_repo.ts";

const DAY_MS = 86_400_000;

/** A zone just created (by the API or from a file) starts with an empty journal. */
export async function journalStart(ctx: DnsContext, zone: string): Promise<void> {
  await ctx.journal.takePending(zone);
  await ctx.journal.clear(zone);
}

/**
 * Turns the zone's pending changes (taken by the caller, who shares them with
 * the zone's history) into the step `from` → `to`; `now` in milliseconds.
 */
export async function journalStep(
  ctx: DnsContext,
  zone: string,
  pending: PendingChange[],
  serials: { from: number; to: number; now: number },
): Promise<void> {
  const { from, to, now } = serials;
  const z = await ctx.zones.get(zone);
  if (!z) return;
  const oldSoa = pending.find((p) => p.op === "soa");
  const fresh = pending.some((p) => p.op === "reset");
  if (z.dnssec_enabled || fresh || !oldSoa || !serialGreater(to, from)) {
    await ctx.journal.clear(zone);
    return;
  }
  let versions = await ctx.journal.versions(zone);
  if (versions.length && versions[versions.length - 1].serial_to !== from) {
    // The chain broke (a step that was not journaled): older steps lead nowhere.
    await ctx.journal.clear(zone);
    versions = [];
  }
  const entries = await stepEntries(
    z,
    pending,
    oldSoa,
    (n, t) => ctx.journal.rrsetRows(zone, n, t),
  );
  await ctx.journal.append(zone, from, to, entries, now);
  await trim(ctx, zone, [...versions, { rows: entries.length, created_at: now }], now);
}

/** Drops the oldest steps beyond the limits; the step just written counts too. */
async function trim(
  ctx: DnsContext,
  zone: string,
  versions: Pick<JournalVersion, "rows" | "created_at">[],
  now: number,
): Promise<void> {
  const limits = ctx.journal.limits;
  const oldest = now - limits.maxAgeDays * DAY_MS;
  let rows = versions.reduce((n, v) => n + v.rows, 0);
  let drop = 0;
  while (
    drop < versions.length &&
    (versions.length - drop > limits.maxVersions || versions[drop].created_at < oldest ||
      rows > limits.maxRows)
  ) {
    rows -= versions[drop].rows;
    drop++;
  }
  if (drop === 0) return;
  if (drop === versions.length) return await ctx.journal.clear(zone);
  // The kept steps are the stored ones from `drop` on; their first row is read back.
  const kept = (await ctx.journal.versions(zone))[drop];
  await ctx.journal.dropBefore(zone, kept.first);
}
