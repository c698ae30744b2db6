/**
 * Names as the PowerDNS API writes them: absolute, with the trailing dot
 * ("www.example.org."), and a zone's id is its name with "/" (classless
 * reverse zones) escaped as "=2F", as PowerDNS does. Palisade stores names
 * lower case without the dot.
 */
import { UnprocessableError } from "../../errors.ts";
import { fqdn, isAbsoluteText } from "../names.ts";

/** The PowerDNS name of stored `name`. */
export function dotted(name: string): string {
  return fqdn(name);
}

/** A zone's id in URLs. */
export function zoneId(zone: string): string {
  return fqdn(zone).replaceAll("/", "=2F");
}

/** The zone name an id in a URL stands for (PowerDNS accepts ids with or without the dot). */
export function zoneFromId(id: string): string {
  return id.replaceAll("=2F", "/").replace(/\.$/, "").toLowerCase();
}

/** `text` as a name the API requires canonical (absolute); 422 otherwise, as PowerDNS. */
export function canonicalName(text: unknown, what = "DNS Name"): string {
  if (typeof text !== "string" || !isAbsoluteText(text)) {
    throw new UnprocessableError(`${what} '${String(text)}' is not canonical`, "name");
  }
  return text;
}

/** The URL of a zone, as PowerDNS gives it. */
export function zoneUrl(zone: string): string {
  return `/api/v1/servers/localhost/zones/${zoneId(zone)}`;
}
