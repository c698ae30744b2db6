/**
 * The SOA of a zone, derived from the zone's fields: timer bounds, the
 * admin e-mail ↔ RNAME mapping and the serial scheme. The store keeps these as
 * columns of `dns_zones`; the SOA row in `dns_records` mirrors them so that
 * listings show it like any other record.
 */
import { dnsPacket } from "./packet.ts";
import { UnprocessableError, ValidationError } from "../errors.ts";
import { fqdn, normalizeName } from "./names.ts";
import type { Token } from "./tokens.ts";

export interface SoaTimers {
  refresh: number;
  retry: number;
  expire: number;
  minimum: number;
  default_ttl: number;
}

/** Inclusive bounds of the timers, in seconds. */
export const SOA_LIMITS: Record<keyof SoaTimers, [number, number]> = {
  refresh: [60, 2_419_200], // 1 minute .. 28 days
  retry: [60, 2_419_200],
  expire: [3_600, 31_536_000], // 1 hour .. 1 year
  minimum: [0, 86_400], // RFC 2308 negative caching: at most 1 day
  default_ttl: [0, 604_800], // at most 1 week
};

/** Values used when a create request leaves a timer out. */
export const SOA_DEFAULTS: SoaTimers = {
  refresh: 3_600,
  retry: 900,
  expire: 1_209_600,
  minimum: 300,
  default_ttl: 3_600,
};

/** Longest domain name on the wire, length bytes and root included (RFC 1035 §3.1). */
const MAX_NAME_WIRE = 255;

/** Largest TTL a record may carry (RFC 2181 §8). */
export const MAX_TTL = 2_147_483_647;

/** Throws ValidationError (400) for a timer out of bounds, UnprocessableError (422) for inconsistent timers. */
export function validateTimers(t: SoaTimers): void {
  for (const key of Object.keys(SOA_LIMITS) as (keyof SoaTimers)[]) {
    const [lo, hi] = SOA_LIMITS[key];
    const v = t[key];
    if (!Number.isInteger(v) || v < lo || v > hi) {
      throw new ValidationError(
        `Field "${key}" must be an integer from ${lo} to ${hi}, got "${v}"`,
        key,
      );
    }
  }
  // RFC 1912 §2.2: a secondary must retry before it would refresh anyway, and
  // must not expire the zone before it has had a chance to refresh and retry.
  if (t.retry > t.refresh) {
    throw new UnprocessableError(`Retry ${t.retry} is greater than refresh ${t.refresh}`);
  }
  if (t.expire < t.refresh + t.retry) {
    throw new UnprocessableError(
      `Expire ${t.expire} is less than refresh plus retry (${t.refresh + t.retry})`,
    );
  }
}

/** Checks a record TTL (RFC 2181 §8); throws ValidationError (400) naming `field`. */
export function validateTtl(ttl: number, field = "ttl"): number {
  if (!Number.isInteger(ttl) || ttl < 0 || ttl > MAX_TTL) {
    throw new ValidationError(
      `Field "${field}" must be an integer from 0 to ${MAX_TTL}, got "${ttl}"`,
      field,
    );
  }
  return ttl;
}

/** `local@domain` with the domain normalized; throws ValidationError (400). */
export function normalizeEmail(input: string, field = "admin_email"): string {
  const m = /^([A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*)@([^@\s]+)$/
    .exec(input.trim());
  if (!m) throw new ValidationError(`Address "${input}" is not a valid e-mail address`, field);
  let domain: string;
  try {
    domain = normalizeName(m[2], field);
  } catch {
    throw new ValidationError(`Address "${input}" has an invalid domain`, field);
  }
  // A mail domain is a host name (RFC 5321 §4.1.2): no label starts or ends with a hyphen.
  if (domain.split(".").some((l) => l.startsWith("-") || l.endsWith("-"))) {
    throw new ValidationError(`Address "${input}" has an invalid domain`, field);
  }
  if (m[1].length > 63) {
    throw new ValidationError(`Address "${input}" has a local part over 63 characters`, field);
  }
  // The SOA's RNAME is the local part as one label, then the domain: at most 255 bytes on the
  // wire (RFC 1035 §3.1), or every answer carrying the SOA is malformed.
  if (m[1].length + 1 + domain.length + 2 > MAX_NAME_WIRE) {
    throw new ValidationError(
      `Address "${input}" is too long: as the SOA mailbox it takes more than ${MAX_NAME_WIRE} bytes`,
      field,
    );
  }
  return `${m[1]}@${domain}`;
}

/** The RNAME of an e-mail address in presentation form: dots of the local part escaped (RFC 1035 §8). */
export function emailToRname(email: string): string {
  const at = email.lastIndexOf("@");
  return `${email.slice(0, at).replace(/\./g, "\\.")}.${email.slice(at + 1)}.`;
}

/** The e-mail address of an RNAME given in a zone file (relative names completed with `origin`). */
export function rnameToEmail(text: string, origin: string, field = "rname"): string {
  let abs = text === "@" ? origin : text;
  if (text !== "@" && !text.endsWith(".")) abs = `${text}.${origin}`;
  abs = abs.replace(/\.$/, "");
  // The first dot not preceded by a backslash ends the local part.
  const m = /^((?:[^.\\]|\\.)+)\.(.+)$/.exec(abs);
  if (!m) throw new ValidationError(`Mailbox "${text}" has no domain part`, field);
  const local = m[1].replace(/\\(.)/g, "$1");
  return normalizeEmail(`${local}@${m[2]}`, field);
}

function yyyymmdd00(ms: number): number {
  const d = new Date(ms);
  return (d.getUTCFullYear() * 10000 + (d.getUTCMonth() + 1) * 100 + d.getUTCDate()) * 100;
}

/** True when serial `a` is greater than `b` in RFC 1982 serial arithmetic. */
export function serialGreater(a: number, b: number): boolean {
  const diff = (a - b) >>> 0;
  return diff !== 0 && diff < 0x80000000;
}

/**
 * The serial after a change: date-based YYYYMMDDnn (RFC 1912 §2.2) when that
 * moves forward, otherwise old + 1 modulo 2^32 (more than 100 changes a day,
 * or an imported serial already ahead of today's date).
 */
export function nextSerial(old: number, nowMs: number): number {
  const date = yyyymmdd00(nowMs);
  return serialGreater(date, old) ? date : (old + 1) >>> 0;
}

/** The fields of a zone that make its SOA. */
export interface SoaSource extends SoaTimers {
  name: string;
  admin_email: string;
  serial: number;
  /** The primary nameserver (MNAME), without trailing dot. */
  primary: string;
}

/** The canonical presentation of the zone's SOA data. */
export function soaValue(z: SoaSource): string {
  return `${fqdn(z.primary)} ${
    emailToRname(z.admin_email)
  } ${z.serial} ${z.refresh} ${z.retry} ${z.expire} ${z.minimum}`;
}

/** The SOA RDATA on the wire. */
export function soaWire(z: SoaSource): Uint8Array {
  const buf = dnsPacket.soa.encode({
    mname: fqdn(z.primary),
    // dns-packet's mail mode keeps "\." inside the first label.
    rname: emailToRname(z.admin_email),
    serial: z.serial,
    refresh: z.refresh,
    retry: z.retry,
    expire: z.expire,
    minimum: z.minimum,
  });
  return new Uint8Array(buf.subarray(2));
}

/** An SOA read from a zone file. */
export interface ParsedSoa {
  primary: string;
  admin_email: string;
  serial: number;
  refresh: number;
  retry: number;
  expire: number;
  minimum: number;
}

/** Parses SOA data tokens from a zone file. */
export function parseSoa(tokens: Token[], origin: string, field = "zone"): ParsedSoa {
  if (tokens.length !== 7) {
    throw new ValidationError(`Invalid SOA value: expected 7 fields, got ${tokens.length}`, field);
  }
  const mnameText = tokens[0].text;
  const primary = mnameText === "@"
    ? origin
    : normalizeName(mnameText.endsWith(".") ? mnameText : `${mnameText}.${origin}`, field);
  const admin_email = rnameToEmail(tokens[1].text, origin, field);
  // RFC 1035 §3.3.13: all five are 32-bit unsigned; the zone's timer bounds apply after.
  const nums = SOA_NUMBERS.map((what, i) => parseTtl(tokens[2 + i].text, field, U32, what));
  return {
    primary,
    admin_email,
    serial: nums[0],
    refresh: nums[1],
    retry: nums[2],
    expire: nums[3],
    minimum: nums[4],
  };
}

const U32 = 4_294_967_295;
const SOA_NUMBERS = ["SOA serial", "SOA refresh", "SOA retry", "SOA expire", "SOA minimum"];

const UNIT: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400, w: 604800 };

/**
 * A TTL in seconds or BIND's unit form ("1h30m", "2d"), at most `max` (RFC
 * 2181 §8 for TTLs); `what` names the number in the error.
 */
export function parseTtl(text: string, field = "ttl", max = MAX_TTL, what = "TTL"): number {
  let total = 0;
  if (/^[0-9]+$/.test(text)) total = Number(text);
  else {
    const re = /([0-9]+)([smhdw])/gy;
    let m: RegExpExecArray | null;
    let used = 0;
    while ((m = re.exec(text.toLowerCase()))) {
      total += Number(m[1]) * UNIT[m[2]];
      used = re.lastIndex;
    }
    if (used === 0 || used !== text.length) {
      throw new ValidationError(`Invalid ${what} "${text}"`, field);
    }
  }
  if (total > max) {
    throw new ValidationError(`${what} "${text}" is more than ${max}`, field);
  }
  return total;
}

/** True when `text` looks like a TTL (digits, or BIND units). */
export function isTtl(text: string): boolean {
  return /^([0-9]+|([0-9]+[smhdwSMHDW])+)$/.test(text);
}
