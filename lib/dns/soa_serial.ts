/**
 * The zone's serial and its mirrored SOA row. Every change moves the serial
 * forward (date-based, see `nextSerial`) in the change's transaction and
 * rewrites the SOA row, so listings, answers and transfers agree. The move
 * also writes the IXFR journal's step for the change (ixfr/journal_write.ts)
 * and the zone's history (history/history_write.ts), from the same raw row
 * changes.
 */
import type { DnsContext } from "./dns_context.ts";
import { zoneOf } from "./dns_context.ts";
import { type ChangeBy, historyStep } from "./history/history_write.ts";
import { journalStep } from "./ixfr/journal_write.ts";
import { nextSerial, soaValue } from "./soa.ts";
import type { ZoneRow } from "./zone_repo.ts";

/** The SOA MNAME: the stored one, else the first nameserver. */
export function primaryOf(z: ZoneRow): string {
  return z.mname ?? z.nameservers[0];
}

/** Rewrites the mirrored SOA row from the zone's fields, creating it for a new zone. */
export async function writeSoa(ctx: DnsContext, zone: string, now: number): Promise<void> {
  const z = await zoneOf(ctx, zone);
  const value = soaValue({ ...z, primary: primaryOf(z) });
  if (await ctx.records.updateSoa(zone, value, z.default_ttl, now)) return;
  await ctx.records.insert({
    id: crypto.randomUUID(),
    zone,
    name: zone,
    type: "SOA",
    value,
    ttl: z.default_ttl,
    created_at: now,
    updated_at: now,
  });
}

/**
 * Sets the serial, touches updated_at, rewrites the SOA row, journals the step
 * and keeps the change set in the zone's history, `by` naming who made it.
 */
export async function setSerial(
  ctx: DnsContext,
  zone: string,
  serial: number,
  now: number,
  by?: ChangeBy,
): Promise<void> {
  const from = (await zoneOf(ctx, zone)).serial;
  await ctx.zones.setSerial(zone, serial, now);
  await writeSoa(ctx, zone, now);
  const pending = await ctx.journal.takePending(zone);
  const serials = { from, to: serial, now };
  await historyStep(ctx, zone, pending, serials, by);
  await journalStep(ctx, zone, pending, serials);
}

/**
 * Moves the serial forward (see nextSerial) and touches updated_at; returns the new serial.
 * A read then a write: correct under concurrent writers because it runs in the change's
 * transaction (one at a time on SQLite; SERIALIZABLE, re-run on conflict, on PostgreSQL).
 */
export async function bumpSerial(
  ctx: DnsContext,
  zone: string,
  by?: ChangeBy,
): Promise<number> {
  const now = ctx.clock.now();
  const serial = nextSerial((await zoneOf(ctx, zone)).serial, now);
  await setSerial(ctx, zone, serial, now, by);
  return serial;
}
