/**
 * The rules a new record must pass against the data already in its zone:
 * no duplicate, apex NS only through the zone's nameservers, no wildcard NS
 * or DNAME, CNAME exclusivity, one DNAME per name, nothing below a DNAME,
 * and nothing but glue below a delegation.
 */
import { ConflictError, UnprocessableError } from "../errors.ts";
import { inZone, parentName } from "./names.ts";
import type { RecordRepo } from "./record_repo.ts";

/** Throws ConflictError (409) or UnprocessableError (422) when `name type value` may not join `zone`. */
export async function checkZoneRules(
  records: RecordRepo,
  zone: string,
  name: string,
  type: string,
  value: string,
): Promise<void> {
  if (name === zone && type === "NS") {
    throw new UnprocessableError(
      `Apex NS records of zone "${zone}" come from the zone's nameservers; update the zone instead`,
    );
  }
  // RFC 4592 §4.4: a DNAME at a wildcard name is "to be avoided or outright rejected".
  if ((type === "NS" || type === "DNAME") && name.startsWith("*.")) {
    throw new UnprocessableError(`Record "${name}" of type "${type}" cannot have a wildcard owner`);
  }
  if (await records.exists(zone, name, type, value)) {
    throw new ConflictError(
      `Record "${name}" of type "${type}" with value "${value}" already exists`,
    );
  }
  // The types present, not every record: a large RRset must not make each addition read it all.
  const present = await records.typesAt(zone, name);
  checkCname(present, zone, name, type);
  await checkDname(records, present, zone, name, type);
  if (type !== "A" && type !== "AAAA") await checkBelowDelegation(records, zone, name);
}

/**
 * RFC 1034 §3.6.2 / RFC 2181 §10.1: a CNAME owner has no other data. The
 * apex always holds the SOA and NS, so no CNAME there.
 */
function checkCname(present: string[], zone: string, name: string, type: string): void {
  const others = present.filter((t) => t !== type);
  const hasData = others.length > 0 || name === zone;
  if (type === "CNAME" && (hasData || present.includes("CNAME"))) {
    throw new ConflictError(`Record "${name}" of type "CNAME" conflicts with existing data`);
  }
  if (type !== "CNAME" && others.includes("CNAME")) {
    throw new ConflictError(
      `Record "${name}" of type "${type}" conflicts with an existing CNAME`,
    );
  }
}

/**
 * RFC 6672 §2.4: one DNAME per name, none beside a CNAME (checkCname), and no
 * data below a DNAME: the DNAME redirects every name under its owner. At the
 * apex it sits beside the SOA and NS.
 */
async function checkDname(
  records: RecordRepo,
  present: string[],
  zone: string,
  name: string,
  type: string,
): Promise<void> {
  if (type === "DNAME" && present.includes("DNAME")) {
    throw new ConflictError(`Record "${name}" of type "DNAME" conflicts with the existing DNAME`);
  }
  if (type === "DNAME" && await records.hasBelow(zone, name)) {
    throw new UnprocessableError(
      `Record "${name}" of type "DNAME" cannot be added: records exist below it`,
    );
  }
  const above: string[] = [];
  for (let n = parentName(name); inZone(n, zone); n = parentName(n)) {
    above.push(n);
  }
  const dname = await records.ownerOfType(zone, "DNAME", above);
  if (dname !== undefined) {
    throw new UnprocessableError(`Record "${name}" lies below the DNAME at "${dname}"`);
  }
}

/** Below a delegation only glue (A, AAAA) may live: anything else would be occluded by the cut. */
async function checkBelowDelegation(
  records: RecordRepo,
  zone: string,
  name: string,
): Promise<void> {
  for (let n = parentName(name); n !== "" && n !== zone && inZone(n, zone); n = parentName(n)) {
    if (await records.hasNs(zone, n)) {
      throw new UnprocessableError(`Record "${name}" lies below the delegation at "${n}"`);
    }
  }
}
