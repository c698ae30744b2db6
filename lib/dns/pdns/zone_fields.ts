/**
 * The zone fields a PowerDNS client sends on create and PUT, checked against
 * what Palisade does: a field whose value Palisade honours anyway is taken
 * (kind Native or Master, SOA-EDIT-API DEFAULT, api_rectify, empty masters),
 * anything else answers 501 naming the field, never a success that did not
 * happen. Read-only fields of the zone's JSON (id, url, serials) are ignored.
 */
import { NotImplementedError, UnprocessableError } from "../../errors.ts";

const KINDS = ["native", "master", "primary"];
const SECONDARY_KINDS = ["slave", "secondary", "consumer", "producer"];

/** Checks the zone fields of `body`; throws 501 for one Palisade cannot honour. */
export function checkZoneFields(body: Record<string, unknown>): void {
  if (body.kind !== undefined) {
    const kind = String(body.kind).toLowerCase();
    if (SECONDARY_KINDS.includes(kind)) {
      throw new NotImplementedError(
        `Zone kind '${body.kind}' is not supported: Palisade serves primary zones only (Native or Master)`,
      );
    }
    if (!KINDS.includes(kind)) throw new UnprocessableError(`Invalid zone kind '${body.kind}'`);
  }
  unsupportedUnless(body, "masters", (v) => Array.isArray(v) && v.length === 0);
  unsupportedUnless(body, "account", (v) => v === "");
  unsupportedUnless(body, "catalog", (v) => v === "");
  unsupportedUnless(body, "soa_edit_api", (v) => v === "DEFAULT" || v === "");
  unsupportedUnless(body, "soa_edit", (v) => v === "");
  unsupportedUnless(body, "dnssec", (v) => v === false);
  unsupportedUnless(body, "nsec3param", (v) => v === "");
  unsupportedUnless(body, "presigned", (v) => v === false);
  unsupportedUnless(body, "master_tsig_key_ids", (v) => Array.isArray(v) && v.length === 0);
  unsupportedUnless(body, "slave_tsig_key_ids", (v) => Array.isArray(v) && v.length === 0);
}

function unsupportedUnless(
  body: Record<string, unknown>,
  field: string,
  honoured: (v: unknown) => boolean,
): void {
  const v = body[field];
  if (v === undefined || v === null || honoured(v)) return;
  throw new NotImplementedError(
    `Zone field '${field}' = ${
      JSON.stringify(v)
    } is not supported by Palisade's PowerDNS API (docs/dns.md)`,
  );
}
