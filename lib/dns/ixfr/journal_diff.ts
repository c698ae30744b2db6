/**
 * One journal step from the raw row changes of a transaction: for each RRset
 * the transaction touched, the RRset as served before and after (the answer
 * index's view: records that pass the API's checks, apex NS from the zone's
 * nameservers, one TTL per RRset, the lowest), and the records that differ.
 * Only touched RRsets are read, so a change costs the size of what it
 * changed, not of the zone.
 */
import { parseRdata, typeCode } from "../rdata.ts";
import type { RecordData } from "../record_repo.ts";
import { parseSoa, soaWire } from "../soa.ts";
import { primaryOf } from "../soa_serial.ts";
import { splitValue } from "../tokens.ts";
import { servable } from "../zone_index.ts";
import type { ZoneRow } from "../zone_repo.ts";
import type { JournalEntry, PendingChange } from "./journal_repo.ts";

/** An RRset as served: one TTL, the RDATA of each record. */
interface Served {
  ttl: number;
  rdatas: Uint8Array[];
}

/** Reads the RRset `name type` of the zone as stored now. */
export type RRsetReader = (name: string, type: string) => Promise<RecordData[]>;

/** The apex NS hosts and their TTL. */
interface ApexNs {
  hosts: string[];
  ttl: number;
}

/**
 * The journal step for zone `z` (as it is after the change): old SOA, the
 * records deleted, new SOA, the records added. `oldSoa` is the SOA row as it
 * was before the transaction rewrote it.
 */
export async function stepEntries(
  z: ZoneRow,
  pending: PendingChange[],
  oldSoa: PendingChange,
  read: RRsetReader,
): Promise<JournalEntry[]> {
  const byKey = new Map<string, PendingChange[]>();
  for (const p of pending) {
    if (p.op !== "del" && p.op !== "add") continue;
    const key = `${p.name}\u0000${p.type}`;
    const list = byKey.get(key) ?? [];
    list.push(p);
    byKey.set(key, list);
  }
  const nsMarker = pending.find((p) => p.op === "ns");
  const apexKey = `${z.name}\u0000NS`;
  if (nsMarker && !byKey.has(apexKey)) byKey.set(apexKey, []);
  const nsAfter: ApexNs = { hosts: z.nameservers, ttl: z.ns_ttl ?? z.default_ttl };
  const nsBefore: ApexNs = nsMarker
    ? { hosts: JSON.parse(nsMarker.value!), ttl: nsMarker.ttl! }
    : nsAfter;
  const dels: JournalEntry[] = [];
  const adds: JournalEntry[] = [];
  for (const key of [...byKey.keys()].sort()) {
    const [name, type] = key.split("\u0000");
    const after = await read(name, type);
    const before = undo(after, byKey.get(key)!);
    const apex = key === apexKey;
    const b = served(z.name, type, before, apex ? nsBefore : null);
    const a = served(z.name, type, after, apex ? nsAfter : null);
    const code = typeCode(type);
    const { gone, come } = difference(b, a);
    for (const rdata of gone) dels.push({ op: "del", name, type: code, ttl: b.ttl, rdata });
    for (const rdata of come) adds.push({ op: "add", name, type: code, ttl: a.ttl, rdata });
  }
  const newSoa: JournalEntry = {
    op: "add",
    name: z.name,
    type: 6,
    ttl: z.default_ttl,
    rdata: soaWire({ ...z, primary: primaryOf(z) }),
  };
  return [soaEntry(z.name, oldSoa), ...dels, newSoa, ...adds];
}

/** The SOA row before the change, in wire form. */
function soaEntry(zone: string, row: PendingChange): JournalEntry {
  const soa = parseSoa(splitValue(row.value!), zone);
  return {
    op: "del",
    name: zone,
    type: 6,
    ttl: row.ttl!,
    rdata: soaWire({ name: zone, ...soa, default_ttl: row.ttl! }),
  };
}

/** The rows of an RRset before `changes` (in the order they happened) were made to `after`. */
export function undo(after: RecordData[], changes: PendingChange[]): RecordData[] {
  const rows = new Map(after.map((r) => [r.id, r]));
  for (let i = changes.length - 1; i >= 0; i--) {
    const c = changes[i];
    if (c.op === "add") rows.delete(c.rid!);
    else {
      rows.set(c.rid!, { id: c.rid!, name: c.name!, type: c.type!, value: c.value!, ttl: c.ttl! });
    }
  }
  return [...rows.values()];
}

/** The RRset as the answer index serves it (zone_index.ts, buildZone). */
function served(zone: string, type: string, rows: RecordData[], ns: ApexNs | null): Served {
  const out: Served = { ttl: Infinity, rdatas: [] };
  for (const host of ns?.hosts ?? []) {
    out.rdatas.push(parseRdata("NS", `${host}.`, null).wire);
    out.ttl = Math.min(out.ttl, ns!.ttl);
  }
  for (const row of rows) {
    if (row.type !== type) continue;
    const r = servable(row, zone);
    if (typeof r === "string") continue;
    out.rdatas.push(r.wire);
    out.ttl = Math.min(out.ttl, r.ttl);
  }
  return out;
}

const hex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");

/**
 * The records of `b` not in `a` and those of `a` not in `b`. A TTL that
 * changed replaces the whole RRset: a deletion matches data only (RFC 1995
 * §4), so the records must come back with their new TTL.
 */
function difference(b: Served, a: Served): { gone: Uint8Array[]; come: Uint8Array[] } {
  if (b.rdatas.length && a.rdatas.length && b.ttl !== a.ttl) {
    return { gone: sorted(b.rdatas), come: sorted(a.rdatas) };
  }
  const count = new Map<string, number>();
  for (const r of a.rdatas) count.set(hex(r), (count.get(hex(r)) ?? 0) + 1);
  const gone: Uint8Array[] = [];
  for (const r of b.rdatas) {
    const n = count.get(hex(r)) ?? 0;
    if (n > 0) count.set(hex(r), n - 1);
    else gone.push(r);
  }
  const left = new Map<string, number>();
  for (const r of b.rdatas) left.set(hex(r), (left.get(hex(r)) ?? 0) + 1);
  const come: Uint8Array[] = [];
  for (const r of a.rdatas) {
    const n = left.get(hex(r)) ?? 0;
    if (n > 0) left.set(hex(r), n - 1);
    else come.push(r);
  }
  return { gone: sorted(gone), come: sorted(come) };
}

function sorted(list: Uint8Array[]): Uint8Array[] {
  return [...list].sort((x, y) => hex(x) < hex(y) ? -1 : hex(x) > hex(y) ? 1 : 0);
}
