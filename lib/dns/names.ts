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
  /**
   * "/" inside labels below the top one: a name a record points at may lie in
   * an RFC 2317 classless reverse zone hosted elsewhere ("1.0/25.2.0.192.in-addr.arpa").
   */
  slash?: boolean;
}

// Letters, digits, hyphen, and underscore for service labels (_sip._tcp, _dmarc). No "/":
// RFC 2317 classless reverse zones take its "0-25" form, since a slash breaks the zone's URL.
const LABEL = /^[a-z0-9_-]{1,63}$/;
const LABEL_WITH_SLASH = /^[a-z0-9_\-/]{1,63}$/;
// The top label starts with a letter (RFC 3696 §2: TLDs are never all-numeric), which also
// refuses what reads as a number or an address ("1e999", "192.0.2.1").
const TOP_LABEL = /^[a-z][a-z0-9-]*$/;

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
  const valid = rules.slash ? LABEL_WITH_SLASH : LABEL;
  for (let i = 0; i < labels.length; i++) {
    const label = labels[i];
    if (label === "*" && i === 0 && rules.wildcard) continue;
    if (!valid.test(label)) {
      const why = label === "" ? "has an empty label" : `has an invalid label "${label}"`;
      throw new ValidationError(`Name "${input}" ${why}`, field);
    }
    if (label.startsWith("xn--") && !isALabel(label)) {
      throw new ValidationError(`Name "${input}" has an invalid A-label "${label}"`, field);
    }
  }
  if (!TOP_LABEL.test(labels[labels.length - 1])) {
    throw new ValidationError(
      `Name "${input}" must end in a label that starts with a letter (a top-level domain)`,
      field,
    );
  }
  return name;
}

/** An "xn--" label that is valid punycode of a valid U-label: the URL parser's IDNA round trip keeps it. */
function isALabel(label: string): boolean {
  try {
    return new URL(`http://${label}/`).hostname === label;
  } catch {
    return false;
  }
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

/** True when a stored `name` encodes on the wire: labels of 1–63 ASCII bytes, 253 characters in all. */
export function encodable(name: string): boolean {
  if (name.length > 253 || /[^\x21-\x7e]/.test(name)) return false;
  return name === "" || name.split(".").every((l) => l.length >= 1 && l.length <= 63);
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
