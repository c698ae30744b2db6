/**
 * Writes a zone's history: called where the serial moves (soa_serial.ts,
 * `setSerial`), the one place every change of a zone's records passes, in the
 * change's transaction, with the raw row changes the IXFR journal's triggers
 * noted (migration 15). Each RRset touched is kept as it was before and as it
 * is after; RRsets that end as they began are left out, and a change set that
 * changed no RRset is not kept.
 */
import type { DnsContext } from "../dns_context.ts";
import type { PendingChange } from "../ixfr/journal_repo.ts";
import { undo } from "../ixfr/journal_diff.ts";
import type { RecordData } from "../record_repo.ts";
import type { HistoryRecord, RRsetChange } from "./history_repo.ts";

/** Change sets kept per zone; older ones are dropped when the zone next changes. */
export const HISTORY_KEEP = 500;

/** Who made a change and what it was, for the zone's history. */
export interface ChangeBy {
  actor: string;
  summary: string;
  /** The change set a revert undid. */
  reverts?: number;
}

/** The RRsets `pending` touched, before and after, those unchanged left out. */
export async function rrsetChanges(
  pending: PendingChange[],
  read: (name: string, type: string) => Promise<RecordData[]>,
): Promise<RRsetChange[]> {
  const byKey = new Map<string, PendingChange[]>();
  for (const p of pending) {
    if (p.op !== "del" && p.op !== "add") continue;
    const key = `${p.name}\u0000${p.type}`;
    byKey.set(key, [...byKey.get(key) ?? [], p]);
  }
  const out: RRsetChange[] = [];
  for (const key of [...byKey.keys()].sort()) {
    const [name, type] = key.split("\u0000");
    const now = await read(name, type);
    const before = records(undo(now, byKey.get(key)!));
    const after = records(now);
    if (sameRecords(before, after)) continue;
    out.push({ name, type, before, after });
  }
  return out;
}

/** Keeps the change set `from` → `to` of the zone when it changed any RRset. */
export async function historyStep(
  ctx: DnsContext,
  zone: string,
  pending: PendingChange[],
  serials: { from: number; to: number; now: number },
  by: ChangeBy | undefined,
): Promise<void> {
  const changes = await rrsetChanges(pending, (n, t) => ctx.journal.rrsetRows(zone, n, t));
  if (changes.length === 0) return;
  await ctx.history.add({
    zone,
    serialFrom: serials.from,
    serialTo: serials.to,
    actor: by?.actor ?? "system",
    summary: by?.summary ?? "Records changed",
    changes,
    reverts: by?.reverts ?? null,
    createdAt: serials.now,
  });
  await ctx.history.trim(zone, HISTORY_KEEP);
}

function records(rows: RecordData[]): HistoryRecord[] {
  return rows.map((r) => ({ value: r.value, ttl: r.ttl })).sort(byValue);
}

function byValue(a: HistoryRecord, b: HistoryRecord): number {
  return a.value < b.value ? -1 : a.value > b.value ? 1 : a.ttl - b.ttl;
}

/** Whether two sorted lists hold the same records. */
export function sameRecords(a: HistoryRecord[], b: HistoryRecord[]): boolean {
  return a.length === b.length && a.every((r, i) => r.value === b[i].value && r.ttl === b[i].ttl);
}
