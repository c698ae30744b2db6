/**
 * The checks of a dynamic update before anything is written: the
 * prerequisites (RFC 2136 §3.2) and the update section's prescan (§3.4.1),
 * with Palisade's policy on the apex SOA and NS (docs/dns.md, "Dynamic updates").
 * Each failure is an `UpdateRefusal` carrying the response code.
 */
import { ValidationError } from "../../errors.ts";
import type { DnsContext } from "../dns_context.ts";
import { fqdn, inZone } from "../names.ts";
import { normalizeType, parseRdata, typeName } from "../rdata.ts";
import { hexOf } from "../rdata_parser.ts";
import type { ZoneRow } from "../zone_repo.ts";
import type { UpdateRecord } from "./update_message.ts";

/** Response codes of RFC 1035 §4.1.1 and RFC 2136 §2.2 an update can end with. */
export const Rcode = {
  noError: 0,
  formErr: 1,
  servFail: 2,
  nxDomain: 3,
  refused: 5,
  yxDomain: 6,
  yxRrset: 7,
  nxRrset: 8,
  notAuth: 9,
  notZone: 10,
} as const;

/** An update stopped with `rcode`; nothing of it is applied. */
export class UpdateRefusal extends Error {
  constructor(readonly rcode: number, message: string) {
    super(message);
  }
}

export const C_IN = 1;
export const C_NONE = 254;
export const C_ANY = 255;
export const T_ANY = 255;
/** Types that are never data (RFC 2136 §3.4.1.3 names ANY, AXFR, MAILA, MAILB; IXFR, OPT, TSIG alike). */
const META = new Set([41, 250, 251, 252, 253, 254, 255]);

/** The stored type name of the record's type; UpdateRefusal FORMERR for a type no record has. */
export function typeOf(rr: UpdateRecord): string {
  try {
    return normalizeType(typeName(rr.type));
  } catch (err) {
    if (err instanceof ValidationError) {
      throw new UpdateRefusal(Rcode.formErr, `Record "${rr.name}": ${err.message}`);
    }
    throw err;
  }
}

/** The stored type name and canonical value of a record's RDATA; UpdateRefusal FORMERR when it is not valid. */
export function valueOf(rr: UpdateRecord): { type: string; value: string } {
  const type = typeOf(rr);
  try {
    const generic = `\\# ${rr.rdata.length}${rr.rdata.length ? " " + hexOf(rr.rdata) : ""}`;
    return { type, value: parseRdata(type, generic, null).value };
  } catch (err) {
    if (err instanceof ValidationError) {
      throw new UpdateRefusal(Rcode.formErr, `Record "${rr.name}": ${err.message}`);
    }
    throw err;
  }
}

/** The values of the RRset `name type` as served: apex NS from the zone's nameservers. */
export async function rrsetValues(
  ctx: DnsContext,
  z: ZoneRow,
  name: string,
  type: string,
): Promise<string[]> {
  if (name === z.name && type === "NS") return z.nameservers.map(fqdn);
  return await ctx.records.rrsetValues(z.name, name, type);
}

/** RFC 2136 §2.4.4: a name is in use when it owns a record; the apex owns its SOA and NS. */
async function nameInUse(ctx: DnsContext, z: ZoneRow, name: string): Promise<boolean> {
  return name === z.name || (await ctx.records.typesAt(z.name, name)).length > 0;
}

async function rrsetExists(
  ctx: DnsContext,
  z: ZoneRow,
  name: string,
  code: number,
): Promise<boolean> {
  if (META.has(code) || code === 0) return false;
  return (await rrsetValues(ctx, z, name, typeName(code))).length > 0;
}

/** RFC 2136 §3.2: every prerequisite holds, or an UpdateRefusal with the code of the first that fails. */
export async function checkPrerequisites(
  ctx: DnsContext,
  z: ZoneRow,
  prereqs: UpdateRecord[],
): Promise<void> {
  /** Value-dependent RRsets (§2.4.2), "name|type" → values. */
  const wanted = new Map<string, { name: string; type: string; values: Set<string> }>();
  for (const rr of prereqs) {
    if (rr.ttl !== 0) throw new UpdateRefusal(Rcode.formErr, "A prerequisite's TTL is not 0");
    if (!inZone(rr.name, z.name)) {
      throw new UpdateRefusal(Rcode.notZone, `Prerequisite name "${rr.name}" is outside the zone`);
    }
    if (rr.class === C_ANY || rr.class === C_NONE) {
      if (rr.rdata.length !== 0) {
        throw new UpdateRefusal(Rcode.formErr, "A prerequisite of class ANY or NONE has RDATA");
      }
      const must = rr.class === C_ANY;
      const holds = rr.type === T_ANY
        ? await nameInUse(ctx, z, rr.name)
        : await rrsetExists(ctx, z, rr.name, rr.type);
      if (holds !== must) {
        const code = rr.type === T_ANY
          ? (must ? Rcode.nxDomain : Rcode.yxDomain)
          : (must ? Rcode.nxRrset : Rcode.yxRrset);
        throw new UpdateRefusal(code, `Prerequisite on "${rr.name}" does not hold`);
      }
    } else if (rr.class === C_IN) {
      if (META.has(rr.type)) throw new UpdateRefusal(Rcode.formErr, "A prerequisite of meta type");
      const { type, value } = valueOf(rr);
      const key = `${rr.name}|${type}`;
      const set = wanted.get(key) ?? { name: rr.name, type, values: new Set<string>() };
      set.values.add(value);
      wanted.set(key, set);
    } else {
      throw new UpdateRefusal(Rcode.formErr, `A prerequisite of class ${rr.class}`);
    }
  }
  for (const w of wanted.values()) {
    const have = new Set(await rrsetValues(ctx, z, w.name, w.type));
    if (have.size !== w.values.size || [...have].some((v) => !w.values.has(v))) {
      throw new UpdateRefusal(Rcode.nxRrset, `The RRset "${w.name}" ${w.type} does not match`);
    }
  }
}

/**
 * RFC 2136 §3.4.1: every update record is in the zone and well-formed
 * (FORMERR, NOTZONE), and none touches what Palisade keeps outside updates:
 * an added SOA, or an added or single deleted apex NS (REFUSED; the apex NS
 * are the zone's `nameservers`, changed through the API).
 */
export function prescan(z: ZoneRow, updates: UpdateRecord[]): void {
  for (const rr of updates) {
    if (!inZone(rr.name, z.name)) {
      throw new UpdateRefusal(Rcode.notZone, `Update name "${rr.name}" is outside the zone`);
    }
    const apexNs = rr.name === z.name && rr.type === 2;
    if (rr.class === C_IN) {
      if (META.has(rr.type)) throw new UpdateRefusal(Rcode.formErr, "An added record of meta type");
      valueOf(rr);
      if (rr.type === 6) {
        throw new UpdateRefusal(Rcode.refused, "The SOA is managed through the zone's fields");
      }
      if (apexNs) {
        throw new UpdateRefusal(Rcode.refused, "Apex NS come from the zone's nameservers");
      }
    } else if (rr.class === C_ANY) {
      if (rr.ttl !== 0 || rr.rdata.length !== 0 || (META.has(rr.type) && rr.type !== T_ANY)) {
        throw new UpdateRefusal(
          Rcode.formErr,
          "A deletion of class ANY with a TTL, RDATA or meta type",
        );
      }
      if (rr.type !== T_ANY) typeOf(rr);
    } else if (rr.class === C_NONE) {
      if (rr.ttl !== 0 || META.has(rr.type)) {
        throw new UpdateRefusal(Rcode.formErr, "A deletion of class NONE with a TTL or meta type");
      }
      if (rr.type !== 6) valueOf(rr);
      if (apexNs) {
        throw new UpdateRefusal(Rcode.refused, "Apex NS come from the zone's nameservers");
      }
    } else {
      throw new UpdateRefusal(Rcode.formErr, `An update record of class ${rr.class}`);
    }
  }
}
