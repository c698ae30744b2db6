/**
 * Palisade's zones and records as PowerDNS's JSON (4.7): the zone listing
 * entry, the zone with its RRsets, and the zone-file export PowerDNS makes
 * from those RRsets. Only what the key's scope allows is shown: RRsets whose
 * type and owner name are in scope.
 */
import { type KeyScope, nameInScope, typeInScope } from "../api_keys/scope.ts";
import { dotted, zoneId, zoneUrl } from "./names.ts";

/** A record as the PowerDNS API shows it. */
export interface PdnsRecord {
  content: string;
  disabled: boolean;
}

export interface PdnsRRset {
  name: string;
  type: string;
  ttl: number;
  records: PdnsRecord[];
  comments: unknown[];
}

/** What the JSON of a zone is made from. */
export interface ZoneFacts {
  name: string;
  serial: number;
  dnssec: boolean;
}

/** One stored record (SOA and apex NS included) as the mapping sees it. */
export interface FlatRecord {
  name: string;
  type: string;
  ttl: number;
  value: string;
}

/** The zone as an entry of GET /zones. */
export function zoneListEntry(z: ZoneFacts): Record<string, unknown> {
  return {
    account: "",
    catalog: "",
    dnssec: z.dnssec,
    // Palisade bumps its serial on every change (SOA-EDIT-API DEFAULT's effect): edited = served.
    edited_serial: z.serial,
    id: zoneId(z.name),
    // Every Palisade zone is a primary that answers from its own store.
    kind: "Native",
    last_check: 0,
    masters: [],
    name: dotted(z.name),
    // Palisade does not record which serial its NOTIFY announced.
    notified_serial: 0,
    serial: z.serial,
    url: zoneUrl(z.name),
  };
}

/** The zone with its RRsets, as GET /zones/{zone_id} answers. */
export function zoneDetail(z: ZoneFacts, rrsets: PdnsRRset[] | null): Record<string, unknown> {
  const out: Record<string, unknown> = {
    ...zoneListEntry(z),
    api_rectify: false,
    master_tsig_key_ids: [],
    nsec3narrow: false,
    nsec3param: "",
    slave_tsig_key_ids: [],
    soa_edit: "",
    soa_edit_api: "DEFAULT",
  };
  if (rrsets !== null) out.rrsets = rrsets;
  return out;
}

/** Groups records into RRsets in scope: by owner name, then type; records by content. */
export function rrsetsOf(records: FlatRecord[], scope: KeyScope): PdnsRRset[] {
  const sets = new Map<string, PdnsRRset>();
  for (const r of records) {
    if (!typeInScope(scope, r.type) || !nameInScope(scope, r.name)) continue;
    const key = `${r.name}\u0000${r.type}`;
    let set = sets.get(key);
    if (!set) {
      set = { name: dotted(r.name), type: r.type, ttl: r.ttl, records: [], comments: [] };
      sets.set(key, set);
    }
    set.records.push({ content: r.value, disabled: false });
  }
  const list = [...sets.values()];
  for (const s of list) s.records.sort((a, b) => cmp(a.content, b.content));
  return list.sort((a, b) => cmp(a.name, b.name) || cmp(a.type, b.type));
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The zone file PowerDNS's GET …/export answers: one tab-separated line per record. */
export function exportText(rrsets: PdnsRRset[]): string {
  const lines: string[] = [];
  for (const s of rrsets) {
    for (const r of s.records) lines.push(`${s.name}\t${s.ttl}\tIN\t${s.type}\t${r.content}`);
  }
  return lines.map((l) => l + "\n").join("");
}
