/**
 * Zone import: loads a master file into a zone, creating the zone from the
 * file's SOA when it does not exist. With `replace`, existing records are
 * removed first; otherwise records already present are skipped. An SOA in the
 * file sets the zone's contact and timers; apex NS set (replace) or extend
 * (merge) the nameservers. All or nothing, like a batch.
 */
import { DomainError, UnprocessableError, ValidationError } from "../errors.ts";
import { type DnsContext, unique, zoneChanged, zoneOf } from "./dns_context.ts";
import { normalizeName, normalizeZoneName } from "./names.ts";
import { RRsetBudget } from "./rrset_budget.ts";
import { journalStart } from "./ixfr/journal_write.ts";
import { setSerial, writeSoa } from "./soa_serial.ts";
import { nextSerial, serialGreater, type SoaTimers, validateTimers } from "./soa.ts";
import { type ParsedZone, parseZoneFile, type ZoneFileRecord } from "./zone_file.ts";
import type { ZoneRow } from "./zone_repo.ts";
import { checkZoneRules } from "./zone_rules.ts";
import { insertZone, nameserversFor } from "./zones.ts";

export interface ImportResult {
  zone: string;
  created: boolean;
  added: number;
  skipped: number;
  removed: number;
  serial: number;
}

/** A parsed file, its apex NS set apart: those become the zone's nameservers. */
interface ZoneFileParts {
  name: string;
  soa: ParsedZone["soa"];
  soaLine?: number;
  apexNs: ZoneFileRecord[];
  /** Apex NS host names without trailing dot. */
  fileNs: string[];
  /** Every other record. */
  others: ZoneFileRecord[];
}

/** Loads master-file `text` into `zone` (see the module comment); throws with the file's line. */
export async function importZone(
  ctx: DnsContext,
  actor: string,
  zone: string,
  text: string,
  opts: { replace?: boolean } = {},
): Promise<ImportResult> {
  const file = readZoneFile(zone, text);
  const { name } = file;
  const now = ctx.clock.now();
  return await ctx.transactor.tx(async () => {
    const existing = await ctx.zones.get(name);
    const created = !existing;
    let removed = 0;
    if (existing) removed = await mergeZoneFields(ctx, existing, file, Boolean(opts.replace));
    else await createFromFile(ctx, file, now);
    const z = await settleApex(ctx, file);
    const { added, skipped } = await addRecords(ctx, z, file.others, now);
    const serial = await importSerial(ctx, z, created, file, now, actor);
    await ctx.audit.add({
      actor,
      event_type: "dns.zone.imported",
      message: `Imported zone "${name}" (${added} added, ${skipped} skipped, ${removed} removed${
        opts.replace ? ", replace" : ""
      })`,
      resource_type: "dns_zone",
      resource_id: name,
    });
    await zoneChanged(ctx, name, "imported", serial);
    return { zone: name, created, added, skipped, removed, serial };
  });
}

function readZoneFile(zone: string, text: string): ZoneFileParts {
  const name = normalizeZoneName(zone, "name");
  const parsed = parseZoneFile(text, name);
  const isApexNs = (r: ZoneFileRecord) => r.name === name && r.type === "NS";
  const apexNs = parsed.records.filter(isApexNs);
  return {
    name,
    soa: parsed.soa,
    soaLine: parsed.soaLine,
    apexNs,
    fileNs: apexNs.map((r) => atLine(r.line, () => apexNameserver(r.value))),
    others: parsed.records.filter((r) => !isApexNs(r)),
  };
}

/**
 * An apex NS target as a nameserver of the zone: the same host-name rules as
 * nameservers given through the API (no root, no "/"), since the file's apex
 * NS become the zone's nameservers, which the API must be able to take back.
 */
function apexNameserver(value: string): string {
  if (value === ".") {
    throw new ValidationError(`Apex NS "." is not a nameserver's host name`, "zone");
  }
  return normalizeName(value, "zone");
}

/** The file's SOA timers, checked against the zone's bounds; an error names the SOA's line. */
function soaTimers(file: ZoneFileParts): SoaTimers {
  const soa = file.soa!;
  const timers = {
    refresh: soa.refresh,
    retry: soa.retry,
    expire: soa.expire,
    minimum: soa.minimum,
    default_ttl: soa.ttl,
  };
  atLine(file.soaLine, () => validateTimers(timers));
  return timers;
}

/** Runs `check`, prefixing the message of a domain error with the file's line. */
function atLine<T>(line: number | undefined, check: () => T): T {
  try {
    return check();
  } catch (err) {
    throw lined(line, err);
  }
}

/** `atLine` for a check that awaits. */
async function atLineAsync<T>(line: number | undefined, check: () => Promise<T>): Promise<T> {
  try {
    return await check();
  } catch (err) {
    throw lined(line, err);
  }
}

/** A domain error with the file's line in front of its message; anything else as it is. */
function lined(line: number | undefined, err: unknown): unknown {
  if (err instanceof DomainError && line !== undefined) {
    return err.withMessage(`Line ${line}: ${err.message}`);
  }
  return err;
}

/** A new zone from the file's SOA, with the file's apex NS or the configured nameservers. */
async function createFromFile(ctx: DnsContext, file: ZoneFileParts, now: number): Promise<void> {
  const { name, soa } = file;
  if (!soa) {
    throw new UnprocessableError(`Zone "${name}" does not exist and the file has no SOA record`);
  }
  const timers = soaTimers(file);
  await insertZone(ctx, {
    name,
    admin_email: soa.admin_email,
    serial: soa.serial,
    ...timers,
    nameservers: file.fileNs.length ? unique(file.fileNs) : nameserversFor(ctx, name),
    ns_ttl: null,
    mname: null,
    dnssec_enabled: false,
    created_at: now,
    updated_at: now,
  });
  await ctx.zones.update(name, { mname: soa.primary });
}

/** An existing zone: records removed (replace), SOA fields and nameservers taken from the file. */
async function mergeZoneFields(
  ctx: DnsContext,
  z: ZoneRow,
  file: ZoneFileParts,
  replace: boolean,
): Promise<number> {
  const removed = replace ? await ctx.records.deleteData(z.name) : 0;
  if (file.soa) {
    const timers = soaTimers(file);
    await ctx.zones.update(z.name, {
      admin_email: file.soa.admin_email,
      ...timers,
      mname: file.soa.primary,
    });
  }
  if (file.fileNs.length) {
    const next = replace ? unique(file.fileNs) : unique([...z.nameservers, ...file.fileNs]);
    await ctx.zones.update(z.name, { nameservers: next });
  }
  return removed;
}

/** MNAME is kept only when it is not simply the first nameserver; the file's apex NS TTL is kept. */
async function settleApex(ctx: DnsContext, file: ZoneFileParts): Promise<ZoneRow> {
  const { name, apexNs } = file;
  const before = await zoneOf(ctx, name);
  if (before.mname !== null && before.mname === before.nameservers[0]) {
    await ctx.zones.update(name, { mname: null });
  }
  const z = await zoneOf(ctx, name);
  if (apexNs.length) {
    const ttl = Math.min(...apexNs.map((r) => r.ttl));
    await ctx.zones.update(name, { ns_ttl: ttl === z.default_ttl ? null : ttl });
  }
  return z;
}

/** Adds the file's records that are not there yet; a rule broken names the file's line. */
async function addRecords(
  ctx: DnsContext,
  z: ZoneRow,
  records: ZoneFileRecord[],
  now: number,
): Promise<{ added: number; skipped: number }> {
  let added = 0;
  let skipped = 0;
  const budget = new RRsetBudget(ctx.records, z.name);
  for (const r of records) {
    if (await ctx.records.exists(z.name, r.name, r.type, r.value)) {
      skipped++;
      continue;
    }
    await atLineAsync(r.line, async () => {
      await checkZoneRules(ctx.records, z.name, r.name, r.type, r.value);
      await budget.add(r.name, r.type, r.rdlen);
    });
    await ctx.records.insert({
      id: crypto.randomUUID(),
      zone: z.name,
      name: r.name,
      type: r.type,
      value: r.value,
      ttl: r.ttl,
      created_at: now,
      updated_at: now,
    });
    added++;
  }
  return { added, skipped };
}

/**
 * A new zone keeps the file's serial. An existing one moves forward, or to
 * the file's serial when that is further ahead.
 */
async function importSerial(
  ctx: DnsContext,
  z: ZoneRow,
  created: boolean,
  file: ZoneFileParts,
  now: number,
  actor: string,
): Promise<number> {
  if (created) {
    await writeSoa(ctx, z.name, now);
    await journalStart(ctx, z.name);
    return z.serial;
  }
  let serial = nextSerial(z.serial, now);
  if (file.soa && serialGreater(file.soa.serial, serial)) serial = file.soa.serial;
  await setSerial(ctx, z.name, serial, now, { actor, summary: "Zone file imported" });
  return serial;
}
