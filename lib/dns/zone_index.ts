/**
 * The in-memory answer index: every zone's data as owner → type → RRset,
 * built from the store once at start and rebuilt per zone when the service
 * reports a committed change. The DNS listener answers from here only, never
 * from a query per packet: loading is asynchronous (the repositories are),
 * answering is not.
 *
 * Every stored record passes the same validator as the API (record_check.ts)
 * on its way in. One that fails (written around the service, or stored before
 * a rule was added) is left out and logged once: a single record must not
 * make a name, or the zone's transfer, fail to encode.
 */
import { type Logger, silentLogger } from "../log/log.ts";
import type { DnsRepos } from "./dns_repos.ts";
import type { JournalRepo } from "./ixfr/journal_repo.ts";
import { apexKeyRRsets } from "./dnssec/apex.ts";
import { dnskeyOf, signingKey } from "./dnssec/keys.ts";
import type { SigningKey } from "./dnssec/types.ts";
import { encodable, inZone, parentName } from "./names.ts";
import { normalizeType, parseRdata, typeCode } from "./rdata.ts";
import { type CheckedRecord, checkRecord } from "./record_check.ts";
import type { RecordData } from "./record_repo.ts";
import { answerBytes, RRSET_BUDGET } from "./rrset_budget.ts";
import { soaWire } from "./soa.ts";
import { primaryOf } from "./soa_serial.ts";

export const T_A = 1;
export const T_NS = 2;
export const T_CNAME = 5;
export const T_SOA = 6;
export const T_MX = 15;
export const T_AAAA = 28;
export const T_SRV = 33;
export const T_DNAME = 39;
const T_DS = 43;

export interface RRset {
  type: number;
  /** RFC 2181 §5.2: one TTL per RRset; the lowest of its records'. */
  ttl: number;
  rdatas: Uint8Array[];
  /** Per record, the name it points at (NS, CNAME, DNAME, MX, SRV, PTR), lowercase without trailing dot. */
  targets: (string | undefined)[];
}

export type Node = Map<number, RRset>;

export interface ZoneData {
  name: string;
  serial: number;
  /** SOA minimum, for the negative TTL of RFC 2308 §5. */
  minimum: number;
  nodes: Map<string, Node>;
  /** Every name that exists, owners and the empty non-terminals above them. */
  names: Set<string>;
  /** Delegation points: non-apex owners with NS. */
  cuts: Set<string>;
  /** The active keys the zone is signed with; empty while DNSSEC is off (docs/dns.md, "DNSSEC"). */
  signingKeys: SigningKey[];
  /** DNSKEY RDATA of the published, active and retired keys, the apex DNSKEY RRset; empty while DNSSEC is off. */
  dnskeys: Uint8Array[];
}

function addRR(
  nodes: Map<string, Node>,
  owner: string,
  type: number,
  ttl: number,
  rdata: Uint8Array,
  target?: string,
) {
  let node = nodes.get(owner);
  if (!node) nodes.set(owner, node = new Map());
  let set = node.get(type);
  if (!set) node.set(type, set = { type, ttl, rdatas: [], targets: [] });
  set.ttl = Math.min(set.ttl, ttl);
  set.rdatas.push(rdata);
  set.targets.push(target);
}

/** The topmost delegation point at or above `name` (a DS query at the cut itself stays in the parent). */
export function findCut(z: ZoneData, name: string, qtype: number): string | undefined {
  if (z.cuts.size === 0) return undefined;
  let found: string | undefined;
  for (let n = name; n.length > z.name.length; n = parentName(n)) {
    if (z.cuts.has(n) && !(n === name && qtype === T_DS)) found = n;
  }
  return found;
}

/** The closest existing ancestor of `name`, a name below the apex of `z` (RFC 4592 §3.3.1). */
export function closestEncloser(z: ZoneData, name: string): string {
  let ce = parentName(name);
  while (!z.names.has(ce) && ce.length > z.name.length) ce = parentName(ce);
  return ce;
}

/** Told of each stored record that cannot be served, with the reason. */
export type Unservable = (row: RecordData, reason: string) => void;

/** `row` checked as the API checks a record, its owner too: the record, or why it cannot be served. */
export function servable(row: RecordData, zone: string): CheckedRecord | string {
  if (!encodable(row.name) || !inZone(row.name, zone)) {
    return `owner "${row.name}" is not a name of zone "${zone}"`;
  }
  let r: CheckedRecord;
  try {
    const type = normalizeType(row.type);
    // A TYPEnnn row stored before its type got a codec keeps being served, checked by that codec.
    const legacy = /^TYPE[0-9]+$/.test(row.type);
    if (type !== row.type && !legacy) return `type "${row.type}" is not canonical`;
    r = checkRecord(type, row.value, row.ttl, null);
  } catch (err) {
    // Whatever one stored row makes the parser throw, only that row is left out.
    return err instanceof Error ? err.message : String(err);
  }
  if (answerBytes(r.wire.length) > RRSET_BUDGET) {
    return `its ${r.wire.length} bytes of data do not fit a message`;
  }
  return r;
}

/** Builds one zone's answer data from its stored zone and records; `skip` hears of records left out. */
export async function buildZone(
  repos: DnsRepos,
  zone: string,
  skip: Unservable = () => {},
): Promise<ZoneData | undefined> {
  const z = await repos.zones.get(zone);
  if (!z) return undefined;
  const nodes = new Map<string, Node>();
  addRR(nodes, z.name, T_SOA, z.default_ttl, soaWire({ ...z, primary: primaryOf(z) }));
  for (const ns of z.nameservers) {
    const r = parseRdata("NS", `${ns}.`, null);
    addRR(nodes, z.name, T_NS, z.ns_ttl ?? z.default_ttl, r.wire, r.target);
  }
  for (const row of await repos.records.data(zone)) {
    const r = servable(row, z.name);
    if (typeof r === "string") {
      skip(row, r);
      continue;
    }
    addRR(nodes, row.name, typeCode(row.type), r.ttl, r.wire, r.target);
  }
  const keys = await keysOf(repos, z);
  // The DNSKEY RRset's TTL is the zone's default: rollover waits (docs/dns.md) are counted in it.
  for (const [type, rdatas] of apexKeyRRsets(z.name, keys.dnskeys)) {
    for (const rdata of rdatas) addRR(nodes, z.name, type, z.default_ttl, rdata);
  }
  const names = new Set<string>();
  const cuts = new Set<string>();
  for (const [owner, node] of nodes) {
    for (let n = owner; n.length >= z.name.length; n = parentName(n)) {
      if (names.has(n)) break;
      names.add(n);
    }
    if (owner !== z.name && node.has(T_NS)) cuts.add(owner);
  }
  return {
    name: z.name,
    serial: z.serial,
    minimum: z.minimum,
    nodes,
    names,
    cuts,
    ...keys,
  };
}

/**
 * The zone's DNSSEC keys while it is enabled: every key not removed is in the
 * DNSKEY RRset — published ahead of a rollover, active, or retired while
 * signatures made with it may still sit in caches (RFC 7583 §3.2) — and only
 * the active ones sign. A stored private key that cannot be read throws: the
 * zone is then not served rather than served unsigned under a DS that
 * validators would find no signature for.
 */
async function keysOf(
  repos: DnsRepos,
  z: { name: string; dnssec_enabled: boolean },
): Promise<Pick<ZoneData, "signingKeys" | "dnskeys">> {
  if (!z.dnssec_enabled) return { signingKeys: [], dnskeys: [] };
  const served = (await repos.dnssecKeys.list(z.name)).filter((k) =>
    k.state === "published" || k.state === "active" || k.state === "retired"
  );
  return {
    signingKeys: (await repos.dnssecKeys.signing(z.name)).map(signingKey),
    dnskeys: served.map(dnskeyOf),
  };
}

export class DnsIndex {
  #zones = new Map<string, ZoneData>();
  #generation = 0;
  /** Per zone, the reload started last: only its result is kept (loads may finish out of order). */
  readonly #latest = new Map<string, number>();
  #loads = 0;
  /** Reloads under way, for `settled()`. */
  readonly #inflight = new Set<Promise<void>>();
  #counts = { zones: 0, records: 0 };
  /** Records already logged as left out, so a rebuild does not log them again. */
  readonly #reported = new Set<string>();
  readonly #skip: Unservable;

  constructor(private readonly repos: DnsRepos, private readonly log: Logger = silentLogger) {
    this.#skip = (row, reason) => {
      if (this.#reported.has(row.id)) return;
      this.#reported.add(row.id);
      this.log.warn("DNS record left out of answers and transfers: it cannot be encoded", {
        record_id: row.id,
        name: row.name,
        type: row.type,
        reason,
      });
    };
  }

  /**
   * The IXFR journal behind the index (ixfr/): an incremental transfer reads
   * it from the store, the one answer not served from memory alone.
   */
  get journal(): JournalRepo {
    return this.repos.journal;
  }

  /** How many zones and records the store held at the last load or reload (the status probe). */
  get counts(): { zones: number; records: number } {
    return this.#counts;
  }

  /** Loads every zone from the store. */
  async load(): Promise<void> {
    const mine = ++this.#loads;
    const next = new Map<string, ZoneData>();
    for (const name of await this.repos.zones.names()) {
      const z = await this.#build(name);
      if (z) next.set(name, z);
    }
    const counts = await this.repos.zones.counts();
    // A zone reloaded while the whole load ran keeps its newer data.
    for (const [name, at] of this.#latest) {
      if (at <= mine) continue;
      const newer = this.#zones.get(name);
      if (newer) next.set(name, newer);
      else next.delete(name);
    }
    this.#zones = next;
    this.#counts = counts;
    this.#generation++;
  }

  /** Rebuilds `zone` from the store (dropping it when deleted); settles once answers follow it. */
  invalidate(zone: string): Promise<void> {
    const mine = ++this.#loads;
    this.#latest.set(zone, mine);
    const run = (async () => {
      const z = await this.#build(zone);
      const counts = await this.repos.zones.counts();
      if (this.#latest.get(zone) !== mine) return;
      if (z) this.#zones.set(zone, z);
      else this.#zones.delete(zone);
      this.#counts = counts;
      this.#generation++;
    })();
    this.#inflight.add(run);
    return run.finally(() => this.#inflight.delete(run));
  }

  /** Settles once every reload started so far has ended. */
  async settled(): Promise<void> {
    while (this.#inflight.size) await Promise.allSettled([...this.#inflight]);
  }

  /** One zone, or undefined when it is gone or its SOA, NS or DNSSEC keys cannot be loaded (logged). */
  async #build(zone: string): Promise<ZoneData | undefined> {
    try {
      return await buildZone(this.repos, zone, this.#skip);
    } catch (err) {
      this.log.error("DNS zone not served: its SOA, apex NS or DNSSEC keys cannot be loaded", {
        zone,
        error: err,
      });
      return undefined;
    }
  }

  /** Bumped on every change, so answer caches know to drop what they hold. */
  /** True when some zone has active DNSSEC keys: DO queries then go through the signer. */
  get anySigned(): boolean {
    for (const z of this.#zones.values()) if (z.signingKeys.length) return true;
    return false;
  }

  get generation(): number {
    return this.#generation;
  }

  /** The names of the zones served. */
  names(): string[] {
    return [...this.#zones.keys()];
  }

  /** The zone `name` itself, if served. */
  zone(name: string): ZoneData | undefined {
    return this.#zones.get(name);
  }

  /**
   * The zone that answers `qtype` at `qname`: the closest enclosing one,
   * except DS at the apex of a zone whose parent is served here too, which
   * the parent holds and signs (RFC 4035 §2.4, §3.1.4.1).
   */
  findZoneFor(qname: string, qtype: number): ZoneData | undefined {
    const zone = this.findZone(qname);
    if (qtype !== T_DS || !zone || zone.name !== qname || qname === "") return zone;
    return this.findZone(parentName(qname)) ?? zone;
  }

  /** The closest enclosing zone of lowercase `qname`, if any. */
  findZone(qname: string): ZoneData | undefined {
    let n = qname;
    while (true) {
      const z = this.#zones.get(n);
      if (z) return z;
      const dot = n.indexOf(".");
      if (dot < 0) return undefined;
      n = n.slice(dot + 1);
    }
  }
}
