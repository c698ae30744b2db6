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
  /**
   * RFC 1035 §5.1 escapes (`x\.y`, `\DDD`): a label may then hold any byte.
   * Owners and names inside values take them; zone names and nameservers do not.
   */
  escapes?: boolean;
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
  if (rules.escapes && input.includes("\\")) return escapedName(input.trim(), field, rules);
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
    // RFC 4592 §2.1.1: "*" first makes a wildcard; elsewhere in an owner it is a literal label
    // ("host.*.example", a name below a wildcard), which NSD and Knot load too.
    if (label === "*" && rules.wildcard) continue;
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

/**
 * True when a stored `name` encodes on the wire: labels of 1–63 bytes (`\DDD`
 * counting as one), 255 bytes in all, printable ASCII text.
 */
export function encodable(name: string): boolean {
  if (/[^\x21-\x7e]/.test(name)) return false;
  if (name === "") return true;
  let wire = 1;
  for (const label of name.split(".")) {
    const len = label.replace(/\\[0-9]{3}/g, "x").length;
    if (len < 1 || len > 63 || label.replace(/\\[0-9]{3}/g, "").includes("\\")) return false;
    wire += len + 1;
  }
  return wire <= 255;
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
    : normalizeName(trimmed, field, { wildcard: true, escapes: true });
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

/** True when presentation `text` ends with a dot that is not escaped (`a.` but not `a\.`): it is absolute. */
export function isAbsoluteText(text: string): boolean {
  return /(^|[^\\])(\\\\)*\.$/.test(text);
}

/** Bytes written as themselves in a stored name; every other byte is `\DDD`. */
const PLAIN = new Uint8Array(256);
for (const c of "abcdefghijklmnopqrstuvwxyz0123456789-_") PLAIN[c.charCodeAt(0)] = 1;

/**
 * The stored text of one label: lowercase, `a-z 0-9 - _` as themselves, `*`
 * when it is the whole label, `/` when `slash`, any other byte as `\DDD`
 * (query.ts writes a query's name the same way, so lookups compare strings).
 */
export function labelText(bytes: Uint8Array | number[], slash = false): string {
  if (bytes.length === 1 && bytes[0] === 0x2a) return "*";
  let s = "";
  for (let b of bytes) {
    if (b >= 0x41 && b <= 0x5a) b += 32;
    if (PLAIN[b] || (slash && b === 0x2f)) s += String.fromCharCode(b);
    else s += "\\" + String(b).padStart(3, "0");
  }
  return s;
}

/**
 * The labels of presentation `text` as bytes, RFC 1035 §5.1 escapes resolved
 * (`\.` a dot inside a label, `\DDD` a byte); a final unescaped dot is
 * allowed. Throws ValidationError naming `field`.
 */
export function labelBytes(text: string, field = "name"): number[][] {
  const bad = (why: string): never => {
    throw new ValidationError(`Name "${text}" ${why}`, field);
  };
  const labels: number[][] = [];
  let cur: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x2e) {
      if (cur.length === 0) bad("has an empty label");
      labels.push(cur);
      cur = [];
    } else if (c !== 0x5c) {
      if (c < 0x21 || c > 0x7e) bad("with escapes must otherwise be printable ASCII");
      cur.push(c);
    } else if (/^[0-9]{3}$/.test(text.slice(i + 1, i + 4))) {
      const n = Number(text.slice(i + 1, i + 4));
      if (n > 255) bad(`has the escape "\\${text.slice(i + 1, i + 4)}", which is out of range`);
      cur.push(n);
      i += 3;
    } else {
      const x = text.charCodeAt(++i);
      // "\1" without three digits is neither a byte nor a character (RFC 1035 §5.1).
      if (!(x >= 0x20 && x <= 0x7e) || (x >= 0x30 && x <= 0x39)) bad("has an invalid escape");
      cur.push(x);
    }
  }
  if (cur.length) labels.push(cur);
  return labels;
}

/** A name with escapes: its labels checked as bytes, then written the stored way (see labelText). */
function escapedName(input: string, field: string, rules: NameRules): string {
  const labels = labelBytes(input, field);
  if (labels.length === 0) throw new ValidationError(`Name "${input}" is empty`, field);
  let wire = 1;
  for (const l of labels) {
    if (l.length > 63) {
      throw new ValidationError(`Name "${input}" has a label longer than 63 bytes`, field);
    }
    wire += l.length + 1;
  }
  if (wire > 255) throw new ValidationError(`Name "${input}" is longer than 255 bytes`, field);
  const last = labels.length - 1;
  const texts = labels.map((l, i) => labelText(l, rules.slash && i < last));
  const name = texts.join(".");
  // Escapes of plain characters only: the name is an ordinary one, under the ordinary rules.
  if (!name.includes("\\")) return normalizeName(name, field, { ...rules, escapes: false });
  texts.forEach((t) => {
    const bad = (t === "*" && !rules.wildcard) ||
      (t.startsWith("xn--") && !isALabel(t));
    if (bad) throw new ValidationError(`Name "${input}" has an invalid label "${t}"`, field);
  });
  if (!TOP_LABEL.test(texts[last])) {
    throw new ValidationError(
      `Name "${input}" must end in a label that starts with a letter (a top-level domain)`,
      field,
    );
  }
  return name;
}

/** The wire form of a stored or presentation name (trailing dot optional; "" or "." the root). */
export function nameWire(name: string): Uint8Array {
  const labels = name === "." ? [] : labelBytes(name);
  const out = new Uint8Array(labels.reduce((n, l) => n + l.length + 1, 1));
  let o = 0;
  for (const l of labels) {
    out[o++] = l.length;
    out.set(l, o);
    o += l.length;
  }
  return out;
}
