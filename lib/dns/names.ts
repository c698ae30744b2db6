/**
 * Domain names as the DNS service stores them: lowercase, absolute, without
 * the trailing dot ("www.example.com"). DNS compares names case-insensitively
 * (RFC 4343), so folding case on the way in makes duplicates and zone
 * membership plain string checks; the query's own case is echoed on the wire.
 */
import { UnprocessableError, ValidationError } from "../errors.ts";

/** What a name may contain beyond letters, digits and hyphens. */
export interface NameRules {
  /** "*" as the whole leftmost label (RFC 4592 wildcard owner). */
  wildcard?: boolean;
}

// Underscore for service labels (_sip._tcp), "/" for RFC 2317 classless reverse zones.
const LABEL = /^[a-z0-9_\-/]{1,63}$/;

/** Lowercase, trailing-dot-free form of `input`; throws ValidationError on a malformed name. */
export function normalizeName(input: string, field = "name", rules: NameRules = {}): string {
  let name = input.trim();
  if (name.endsWith(".")) name = name.slice(0, -1);
  // Internationalized names are stored in their ASCII (punycode) form.
  // deno-lint-ignore no-control-regex
  if (/[^\x00-\x7f]/.test(name)) name = toAscii(name, field);
  name = name.toLowerCase();
  if (name === "") throw new ValidationError(`Name "${input}" is empty`, field);
  if (name.length > 253) {
    throw new ValidationError(`Name "${input}" is longer than 253 characters`, field);
  }
  const labels = name.split(".");
  for (let i = 0; i < labels.length; i++) {
    const label = labels[i];
    if (label === "*" && i === 0 && rules.wildcard) continue;
    if (!LABEL.test(label)) {
      const why = label === "" ? "has an empty label" : `has an invalid label "${label}"`;
      throw new ValidationError(`Name "${input}" ${why}`, field);
    }
  }
  return name;
}

function toAscii(name: string, field: string): string {
  // The URL parser does the IDNA conversion, but it would also accept a user,
  // a port or a path around the host: refuse those characters first, and
  // insist that the conversion keeps the same labels.
  const invalid = () =>
    new ValidationError(`Name "${name}" is not a valid internationalized name`, field);
  if (/[@:/?#\\%\s\[\]]/.test(name)) throw invalid();
  let ascii: string;
  try {
    ascii = new URL(`http://${name}/`).hostname;
  } catch {
    throw invalid();
  }
  if (ascii.split(".").length !== name.split(".").length) throw invalid();
  return ascii;
}

/** A zone name: a normalized name without wildcard. */
export function normalizeZoneName(input: string, field = "name"): string {
  return normalizeName(input, field);
}

/** True when `name` is `zone` or below it. */
export function inZone(name: string, zone: string): boolean {
  return name === zone || name.endsWith("." + zone);
}

/**
 * An owner name given through the API: absolute (trailing dot optional) or "@"
 * for the apex. It must lie inside `zone`; a name outside is well-formed but
 * cannot be applied (422).
 */
export function ownerInZone(input: string, zone: string, field = "domain"): string {
  const trimmed = input.trim();
  const name = trimmed === "@" || trimmed === ""
    ? zone
    : normalizeName(trimmed, field, { wildcard: true });
  if (!inZone(name, zone)) {
    throw new UnprocessableError(`Name "${input}" is outside zone "${zone}"`, field);
  }
  return name;
}

/** The parent of `name` ("" for a single label). */
export function parentName(name: string): string {
  const dot = name.indexOf(".");
  return dot < 0 ? "" : name.slice(dot + 1);
}

/** `name` with a trailing dot, the presentation form of an absolute name. */
export function fqdn(name: string): string {
  return name === "" ? "." : `${name}.`;
}
