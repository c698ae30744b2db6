/**
 * A zone's history and its revert (docs/dns.md, "History and revert"). A
 * revert puts back, in one change set, every RRset a change set touched as it
 * was before; it is refused when a later change set touched any of those
 * RRsets, since putting them back would undo that later change too. The
 * revert goes through the records' own steps (records.ts), so values are
 * checked again, each record is audited, and the revert is itself kept in
 * the history.
 */
import { ConflictError, NotFoundError } from "../../errors.ts";
import { type DnsContext, zoneChanged, zoneOf } from "../dns_context.ts";
import type { RecordData } from "../record_repo.ts";
import { insertRecord, modifyRecord, removeRecord } from "../records.ts";
import { RRsetBudget } from "../rrset_budget.ts";
import { bumpSerial } from "../soa_serial.ts";
import type { ZoneRow } from "../zone_repo.ts";
import type { HistoryEntry, HistoryRecord, RRsetChange } from "./history_repo.ts";

/** Most change sets one page of history shows. */
export const HISTORY_PAGE = 50;

/** The zone's change sets, newest first; `before` pages on to older ones. */
export async function listHistory(
  ctx: DnsContext,
  zone: string,
  opts: { limit?: number; before?: number } = {},
): Promise<{ zone: string; changes: HistoryEntry[] }> {
  const z = await zoneOf(ctx, zone);
  const limit = Math.min(Math.max(1, Math.trunc(opts.limit ?? HISTORY_PAGE)), HISTORY_PAGE);
  return { zone: z.name, changes: await ctx.history.list(z.name, limit, opts.before) };
}

/** One change set of the zone; NotFoundError when absent. */
export async function getChange(ctx: DnsContext, zone: string, id: number): Promise<HistoryEntry> {
  const z = await zoneOf(ctx, zone);
  return await changeOf(ctx, z.name, id);
}

/** Puts back the RRsets change set `id` touched; returns the new change set's serial. */
export async function revertChange(
  ctx: DnsContext,
  actor: string,
  zone: string,
  id: number,
): Promise<{ zone: string; reverted: number; serial: number }> {
  return await ctx.transactor.tx(async () => {
    const z = await zoneOf(ctx, zone);
    const entry = await changeOf(ctx, z.name, id);
    await refuseLater(ctx, z.name, entry);
    await putBack(ctx, actor, z, entry.changes);
    const by = { actor, summary: `Reverted change ${id}`, reverts: id };
    const serial = await bumpSerial(ctx, z.name, by);
    await ctx.audit.add({
      actor,
      event_type: "dns.history.reverted",
      message: `Reverted change ${id} of zone "${z.name}" (${entry.summary})`,
      resource_type: "dns_zone",
      resource_id: z.name,
    });
    await zoneChanged(ctx, z.name, "reverted", serial);
    return { zone: z.name, reverted: id, serial };
  });
}

async function changeOf(ctx: DnsContext, zone: string, id: number): Promise<HistoryEntry> {
  const entry = Number.isSafeInteger(id) && id > 0 ? await ctx.history.get(zone, id) : undefined;
  if (!entry) throw new NotFoundError(`Change "${id}" not found in zone "${zone}"`);
  return entry;
}

const keyOf = (c: Pick<RRsetChange, "name" | "type">) => `${c.name}\u0000${c.type}`;

/** ConflictError (code "history_conflict") when a later change set touched the same RRsets. */
async function refuseLater(ctx: DnsContext, zone: string, entry: HistoryEntry): Promise<void> {
  const touched = new Set(entry.changes.map(keyOf));
  for (const later of await ctx.history.after(zone, entry.id)) {
    const clash = later.changes.find((c) => touched.has(keyOf(c)));
    if (!clash) continue;
    throw new ConflictError(
      `Change ${later.id} ("${later.summary}") changed ${clash.type} records "${clash.name}" after change ${entry.id}; revert it first`,
      { field: "id", code: "history_conflict" },
    );
  }
}

/** Makes each RRset hold its `before` records: removals first, then changes, then additions. */
async function putBack(
  ctx: DnsContext,
  actor: string,
  z: ZoneRow,
  changes: RRsetChange[],
): Promise<void> {
  const budget = new RRsetBudget(ctx.records, z.name);
  const plans = [];
  for (const c of changes) {
    plans.push(plan(await ctx.journal.rrsetRows(z.name, c.name, c.type), c.before));
  }
  for (const p of plans) {
    for (const r of p.remove) await removeRecord(ctx, actor, z, r.id, budget);
  }
  for (const p of plans) {
    for (const r of p.retime) await modifyRecord(ctx, actor, z, r.id, { ttl: r.ttl }, budget);
  }
  for (const [i, p] of plans.entries()) {
    for (const r of p.add) {
      const input = { domain: changes[i].name, type: changes[i].type, ...r };
      await insertRecord(ctx, actor, z, input, budget);
    }
  }
}

/** What turns the rows `now` into `want`: rows to remove, rows whose TTL differs, records to add. */
function plan(now: RecordData[], want: HistoryRecord[]) {
  const left = [...want];
  const remove: RecordData[] = [];
  const retime: { id: string; ttl: number }[] = [];
  for (const row of now) {
    const i = left.findIndex((w) => w.value === row.value);
    if (i < 0) {
      remove.push(row);
      continue;
    }
    if (left[i].ttl !== row.ttl) retime.push({ id: row.id, ttl: left[i].ttl });
    left.splice(i, 1);
  }
  return { remove, retime, add: left };
}
