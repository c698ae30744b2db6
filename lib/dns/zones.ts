/**
 * Zones: list, read, create, update and delete. A zone's SOA lives in its
 * fields; creating a zone writes its SOA row, and every change moves the
 * serial forward in the same transaction as the change and its audit record.
 */
import { isoTime } from "../clock.ts";
import { ConflictError, ValidationError } from "../errors.ts";
import { type DnsContext, unique, zoneChanged, zoneOf } from "./dns_context.ts";
import { normalizeName, normalizeZoneName } from "./names.ts";
import { journalStart } from "./ixfr/journal_write.ts";
import { bumpSerial, writeSoa } from "./soa_serial.ts";
import { nextSerial, normalizeEmail, SOA_DEFAULTS, type SoaTimers, validateTimers } from "./soa.ts";
import type { ZoneListing, ZoneRow } from "./zone_repo.ts";
import { type PageInfo, type PageRequest, paginateAsync } from "../paging.ts";

export interface CreateZoneInput {
  name: string;
  admin_email: string;
  refresh?: number;
  retry?: number;
  expire?: number;
  minimum?: number;
  default_ttl?: number;
  /** Overrides the configured apex nameservers. */
  nameservers?: string[];
}

export type UpdateZoneInput = Partial<Omit<CreateZoneInput, "name">>;

export interface ZoneSummary {
  name: string;
  records_count: number;
  created_at: string;
  updated_at: string;
}

export interface ZoneDetails extends ZoneSummary {
  admin_email: string;
  serial: number;
  refresh: number;
  retry: number;
  expire: number;
  minimum: number;
  default_ttl: number;
  nameservers: string[];
  dnssec_enabled: boolean;
}

const TIMER_KEYS = ["refresh", "retry", "expire", "minimum", "default_ttl"] as const;

/** Every zone with its record count, by name. */
export async function listZones(ctx: DnsContext): Promise<ZoneSummary[]> {
  return (await ctx.zones.list()).map(zoneSummary);
}

/** GET /zones: a page of zones by name (docs/api.md, "Pagination"). */
export async function listZonePage(
  ctx: DnsContext,
  req: PageRequest,
): Promise<{ zones: ZoneSummary[] } & PageInfo> {
  const { items, ...info } = await paginateAsync<ZoneListing>(req, {
    kind: "zones",
    shape: ["s"],
    keyOf: (z) => [z.name],
    rows: (w) => ctx.zones.list(w),
    count: async () => (await ctx.zones.counts()).zones,
  });
  return { zones: items.map(zoneSummary), ...info };
}

function zoneSummary(z: ZoneListing): ZoneSummary {
  return {
    name: z.name,
    records_count: z.records_count,
    created_at: isoTime(z.created_at),
    updated_at: isoTime(z.updated_at),
  };
}

/** One zone with all fields; NotFoundError when absent. */
export async function getZone(ctx: DnsContext, name: string): Promise<ZoneDetails> {
  return await zoneDetails(ctx, await zoneOf(ctx, name));
}

/** Creates a zone with its SOA (records_count 1) and the configured apex NS. */
export async function createZone(
  ctx: DnsContext,
  actor: string,
  input: CreateZoneInput,
): Promise<ZoneDetails> {
  const name = normalizeZoneName(input.name, "name");
  const timers = { ...SOA_DEFAULTS };
  for (const k of TIMER_KEYS) if (input[k] !== undefined) timers[k] = input[k]!;
  validateTimers(timers);
  const admin_email = normalizeEmail(input.admin_email);
  const nameservers = nameserversFor(ctx, name, input.nameservers);
  const now = ctx.clock.now();
  return await ctx.transactor.tx(async () => {
    if (await ctx.zones.get(name)) throw new ConflictError(`Zone "${name}" already exists`, "name");
    const row = await insertZone(ctx, {
      name,
      admin_email,
      serial: nextSerial(0, now),
      ...timers,
      nameservers,
      ns_ttl: null,
      mname: null,
      dnssec_enabled: false,
      created_at: now,
      updated_at: now,
    });
    await ctx.audit.add({
      actor,
      event_type: "dns.zone.created",
      message: `Created zone "${name}"`,
      resource_type: "dns_zone",
      resource_id: name,
    });
    await journalStart(ctx, name);
    await zoneChanged(ctx, name, "created", row.serial);
    return await zoneDetails(ctx, row);
  });
}

/** Updates SOA fields and nameservers; bumps the serial. */
export async function updateZone(
  ctx: DnsContext,
  actor: string,
  name: string,
  input: UpdateZoneInput,
): Promise<ZoneDetails> {
  return await ctx.transactor.tx(async () => {
    const z = await zoneOf(ctx, name);
    const timers: SoaTimers = {
      refresh: z.refresh,
      retry: z.retry,
      expire: z.expire,
      minimum: z.minimum,
      default_ttl: z.default_ttl,
    };
    for (const k of TIMER_KEYS) if (input[k] !== undefined) timers[k] = input[k]!;
    validateTimers(timers);
    const admin_email = input.admin_email === undefined
      ? z.admin_email
      : normalizeEmail(input.admin_email);
    const nameservers = input.nameservers === undefined
      ? z.nameservers
      : nameserversFor(ctx, z.name, input.nameservers);
    await ctx.zones.update(z.name, { admin_email, ...timers, nameservers });
    const changed = Object.keys(input).filter((k) =>
      (input as Record<string, unknown>)[k] !== undefined
    );
    const serial = await bumpSerial(ctx, z.name, { actor, summary: "Zone fields updated" });
    await ctx.audit.add({
      actor,
      event_type: "dns.zone.updated",
      message: `Updated zone "${z.name}" (${changed.join(", ") || "no fields"})`,
      resource_type: "dns_zone",
      resource_id: z.name,
    });
    await zoneChanged(ctx, z.name, "updated", serial);
    return await zoneDetails(ctx, await zoneOf(ctx, z.name));
  });
}

/** Deletes a zone and all its records. */
export async function deleteZone(
  ctx: DnsContext,
  actor: string,
  name: string,
): Promise<{ success: true; message: string }> {
  return await ctx.transactor.tx(async () => {
    const z = await zoneOf(ctx, name);
    await ctx.zones.delete(z.name);
    await ctx.audit.add({
      actor,
      event_type: "dns.zone.deleted",
      message: `Deleted zone "${z.name}"`,
      resource_type: "dns_zone",
      resource_id: z.name,
    });
    await zoneChanged(ctx, z.name, "deleted", z.serial);
    return { success: true as const, message: `Zone "${z.name}" deleted` };
  });
}

/** Stores a new zone and writes its SOA row. */
export async function insertZone(ctx: DnsContext, row: ZoneRow): Promise<ZoneRow> {
  await ctx.zones.insert(row);
  await writeSoa(ctx, row.name, row.created_at);
  return row;
}

/** The apex nameservers of `zone`: `given`, else the configured ones, "{zone}" filled in. */
export function nameserversFor(ctx: DnsContext, zone: string, given?: string[]): string[] {
  const list = given ?? ctx.nameservers;
  if (!Array.isArray(list) || list.length === 0) {
    throw new ValidationError("A zone needs at least one nameserver", "nameservers");
  }
  return unique(
    list.map((h) => normalizeName(String(h).replaceAll("{zone}", zone), "nameservers")),
  );
}

async function zoneDetails(ctx: DnsContext, z: ZoneRow): Promise<ZoneDetails> {
  return {
    name: z.name,
    admin_email: z.admin_email,
    serial: z.serial,
    refresh: z.refresh,
    retry: z.retry,
    expire: z.expire,
    minimum: z.minimum,
    default_ttl: z.default_ttl,
    records_count: await ctx.records.count(z.name),
    nameservers: z.nameservers,
    dnssec_enabled: z.dnssec_enabled,
    created_at: isoTime(z.created_at),
    updated_at: isoTime(z.updated_at),
  };
}
