/**
 * The zone's serial and its mirrored SOA row. Every change moves the serial
 * forward (date-based, see `nextSerial`) in the change's transaction and
 * rewrites the SOA row, so listings, answers and transfers agree. The move
 * also writes the IXFR journal's step for the change (ixfr/journal_write.ts).
 */
import type { DnsContext } from "./dns_context.ts";
import { zoneOf } from "./dns_context.ts";
import { journalStep } from "./ixfr/journal_write.ts";
import { nextSerial, soaValue } from "./soa.ts";
import type { ZoneRow } from "./zone_repo.ts";

/** The SOA MNAME: the stored one, else the first nameserver. */
export function primaryOf(z: ZoneRow): string {
  return z.mname ?? z.nameservers[0];
}

/** Rewrites the mirrored SOA row from the zone's fields, creating it for a new zone. */
export function writeSoa(ctx: DnsContext, zone: string, now: number): void {
  const z = zoneOf(ctx, zone);
  const value = soaValue({ ...z, primary: primaryOf(z) });
  if (ctx.records.updateSoa(zone, value, z.default_ttl, now)) return;
  ctx.records.insert({
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

/** Sets the serial, touches updated_at, rewrites the SOA row and journals the step. */
export function setSerial(ctx: DnsContext, zone: string, serial: number, now: number): void {
  const from = zoneOf(ctx, zone).serial;
  ctx.zones.setSerial(zone, serial, now);
  writeSoa(ctx, zone, now);
  journalStep(ctx, zone, from, serial, now);
}

/** Moves the serial forward (see nextSerial) and touches updated_at; returns the new serial. */
export function bumpSerial(ctx: DnsContext, zone: string): number {
  const now = ctx.clock.now();
  const serial = nextSerial(zoneOf(ctx, zone).serial, now);
  setSerial(ctx, zone, serial, now);
  return serial;
}
