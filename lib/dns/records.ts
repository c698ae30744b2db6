/**
 * Records: list, read, create, update and delete. A new or changed record is
 * validated per type (record_check.ts), against the zone rules
 * (zone_rules.ts) and against the size its RRset may reach (rrset_budget.ts);
 * each change bumps the zone's serial in its transaction. The `insert`,
 * `modify` and `remove` steps are shared with the batch, which hands them one
 * budget for all its operations.
 */
import { isoTime } from "../clock.ts";
import { ConflictError, NotFoundError, UnprocessableError, ValidationError } from "../errors.ts";
import { type DnsContext, zoneChanged, zoneOf } from "./dns_context.ts";
import { ownerInZone } from "./names.ts";
import { type PageInfo, type PageRequest, paginateAsync } from "../paging.ts";
import { normalizeType } from "./rdata.ts";
import { checkRecord } from "./record_check.ts";
import type { RecordRow } from "./record_repo.ts";
import { RRsetBudget } from "./rrset_budget.ts";
import { bumpSerial } from "./soa_serial.ts";
import { checkZoneRules } from "./zone_rules.ts";
import type { ZoneRow } from "./zone_repo.ts";

export interface CreateRecordInput {
  /** Owner name: absolute (trailing dot optional) or "@" for the apex. */
  domain: string;
  type: string;
  value: string;
  /** Defaults to the zone's default_ttl. */
  ttl?: number;
}

export interface UpdateRecordInput {
  value?: string;
  ttl?: number;
}

export interface DnsRecord {
  id: string;
  domain: string;
  type: string;
  value: string;
  ttl: number;
  created_at: string;
  updated_at: string;
}

function toRecord(r: RecordRow): DnsRecord {
  return {
    id: r.id,
    domain: r.name,
    type: r.type,
    value: r.value,
    ttl: r.ttl,
    created_at: isoTime(r.created_at),
    updated_at: isoTime(r.updated_at),
  };
}

/** The zone's records (SOA first), optionally only those of `type`. */
export async function listRecords(
  ctx: DnsContext,
  zone: string,
  type?: string,
): Promise<{ zone: string; records: DnsRecord[] }> {
  const z = await zoneOf(ctx, zone);
  const rows = type === undefined || type === ""
    ? await ctx.records.list(z.name)
    : await ctx.records.listOfType(z.name, normalizeType(type));
  return { zone: z.name, records: rows.map(toRecord) };
}

/**
 * GET /zones/{name}/records with paging (docs/api.md, "Pagination"): the SOA,
 * then by owner name, type and id; with `type`, by owner name and id.
 */
export async function listRecordPage(
  ctx: DnsContext,
  zone: string,
  type: string | undefined,
  req: PageRequest,
): Promise<{ zone: string; records: DnsRecord[] } & PageInfo> {
  if (req.limit === undefined && !req.cursor && req.offset === undefined) {
    // Unpaged, the listing answers as it did before it paged (within an RRset, by value).
    const all = await listRecords(ctx, zone, type);
    return { ...all, total: all.records.length, next_cursor: null };
  }
  const z = await zoneOf(ctx, zone);
  const { items, ...info } = type === undefined || type === ""
    ? await paginateAsync<RecordRow>(req, {
      kind: "records",
      shape: ["n", "s", "s", "s"],
      keyOf: (r) => [r.type === "SOA" ? 0 : 1, r.name, r.type, r.id],
      rows: (w) => ctx.records.page(z.name, w),
      count: () => ctx.records.count(z.name),
    })
    : await paginateAsync<RecordRow>(req, {
      kind: "records-of-type",
      shape: ["s", "s"],
      keyOf: (r) => [r.name, r.id],
      rows: (w) => ctx.records.pageOfType(z.name, normalizeType(type), w),
      count: () => ctx.records.countOfType(z.name, normalizeType(type)),
    });
  return { zone: z.name, records: items.map(toRecord), ...info };
}

/** One record; NotFoundError when the zone or the record is absent. */
export async function getRecord(ctx: DnsContext, zone: string, id: string): Promise<DnsRecord> {
  const z = await zoneOf(ctx, zone);
  return toRecord(await recordOf(ctx, z.name, id));
}

/**
 * One record step in its own transaction, then the serial (with the history
 * entry `<verb> <type> record "<name>"`) and the zone's change announcement.
 */
async function oneRecordChange(
  ctx: DnsContext,
  actor: string,
  zone: string,
  [action, verb]: [string, string],
  step: (z: ZoneRow) => Promise<RecordRow>,
): Promise<RecordRow> {
  return await ctx.transactor.tx(async () => {
    const z = await zoneOf(ctx, zone);
    const row = await step(z);
    const summary = `${verb} ${row.type} record "${row.name}"`;
    await zoneChanged(ctx, z.name, action, await bumpSerial(ctx, z.name, { actor, summary }));
    return row;
  });
}

/** Creates a record after validating its data and the zone rules. */
export async function createRecord(
  ctx: DnsContext,
  actor: string,
  zone: string,
  input: CreateRecordInput,
): Promise<DnsRecord> {
  const row = await oneRecordChange(
    ctx,
    actor,
    zone,
    ["record_created", "Created"],
    (z) => insertRecord(ctx, actor, z, input),
  );
  return toRecord(row);
}

/** Changes a record's value and/or TTL. */
export async function updateRecord(
  ctx: DnsContext,
  actor: string,
  zone: string,
  id: string,
  input: UpdateRecordInput,
): Promise<DnsRecord> {
  const row = await oneRecordChange(
    ctx,
    actor,
    zone,
    ["record_updated", "Updated"],
    (z) => modifyRecord(ctx, actor, z, id, input),
  );
  return toRecord(row);
}

/** Deletes a record; the SOA cannot be deleted. */
export async function deleteRecord(
  ctx: DnsContext,
  actor: string,
  zone: string,
  id: string,
): Promise<{ success: true; message: string }> {
  await oneRecordChange(
    ctx,
    actor,
    zone,
    ["record_deleted", "Deleted"],
    (z) => removeRecord(ctx, actor, z, id),
  );
  return { success: true as const, message: `Record "${id}" deleted` };
}

/** Validates and stores one new record of zone `z`, audited; the caller bumps the serial. */
export async function insertRecord(
  ctx: DnsContext,
  actor: string,
  z: ZoneRow,
  input: CreateRecordInput,
  budget = new RRsetBudget(ctx.records, z.name),
): Promise<RecordRow> {
  if (typeof input.domain !== "string") {
    throw new ValidationError(`Field "domain" is required`, "domain");
  }
  if (typeof input.type !== "string") {
    throw new ValidationError(`Field "type" is required`, "type");
  }
  if (typeof input.value !== "string") {
    throw new ValidationError(`Field "value" is required`, "value");
  }
  const type = normalizeType(input.type);
  const name = ownerInZone(input.domain, z.name);
  const { value, ttl, wire } = checkRecord(type, input.value, input.ttl ?? z.default_ttl, null);
  await checkZoneRules(ctx.records, z.name, name, type, value);
  await budget.add(name, type, wire.length);
  const now = ctx.clock.now();
  const row: RecordRow = {
    id: crypto.randomUUID(),
    zone: z.name,
    name,
    type,
    value,
    ttl,
    created_at: now,
    updated_at: now,
  };
  await ctx.records.insert(row);
  await ctx.audit.add({
    actor,
    event_type: "dns.record.created",
    message: `Created ${type} record "${name}" in zone "${z.name}"`,
    resource_type: "dns_record",
    resource_id: row.id,
  });
  return row;
}

/** Changes the value and/or TTL of record `id` of zone `z`, audited; the caller bumps the serial. */
export async function modifyRecord(
  ctx: DnsContext,
  actor: string,
  z: ZoneRow,
  id: string,
  input: UpdateRecordInput,
  budget = new RRsetBudget(ctx.records, z.name),
): Promise<RecordRow> {
  const row = await recordOf(ctx, z.name, id);
  if (row.type === "SOA") {
    throw new UnprocessableError("The SOA record is managed through the zone's fields");
  }
  if (input.value === undefined && input.ttl === undefined) {
    throw new ValidationError(`Give "value" or "ttl" to update`, "value");
  }
  if (input.value !== undefined && typeof input.value !== "string") {
    throw new ValidationError(`Field "value" must be a string`, "value");
  }
  const checked = checkRecord(row.type, input.value ?? row.value, input.ttl ?? row.ttl, null);
  const { value, ttl } = checked;
  if (value !== row.value && await ctx.records.exists(z.name, row.name, row.type, value, id)) {
    throw new ConflictError(
      `Record "${row.name}" of type "${row.type}" with value "${value}" already exists`,
      "value",
    );
  }
  if (value !== row.value) await budget.add(row.name, row.type, checked.wire.length, id);
  const now = ctx.clock.now();
  await ctx.records.update(id, value, ttl, now);
  await ctx.audit.add({
    actor,
    event_type: "dns.record.updated",
    message: `Updated ${row.type} record "${row.name}" in zone "${z.name}"`,
    resource_type: "dns_record",
    resource_id: id,
  });
  return { ...row, value, ttl, updated_at: now };
}

/** Deletes record `id` of zone `z`, audited; the caller bumps the serial. */
export async function removeRecord(
  ctx: DnsContext,
  actor: string,
  z: ZoneRow,
  id: string,
  budget?: RRsetBudget,
): Promise<RecordRow> {
  const row = await recordOf(ctx, z.name, id);
  if (row.type === "SOA") {
    throw new UnprocessableError("The SOA record cannot be deleted; delete the zone instead");
  }
  await ctx.records.delete(id);
  budget?.forget(row.name, row.type);
  await ctx.audit.add({
    actor,
    event_type: "dns.record.deleted",
    message: `Deleted ${row.type} record "${row.name}" from zone "${z.name}"`,
    resource_type: "dns_record",
    resource_id: id,
  });
  return row;
}

async function recordOf(ctx: DnsContext, zone: string, id: string): Promise<RecordRow> {
  const r = await ctx.records.get(zone, id);
  if (!r) throw new NotFoundError(`Record "${id}" not found in zone "${zone}"`);
  return r;
}
