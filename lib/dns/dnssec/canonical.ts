/**
 * RFC 4034 §6, the canonical form DNSSEC signs: owner names in lowercase
 * wire form, names inside RDATA lowercased for the types RFC 4034 §6.2 lists
 * (as corrected by RFC 6840 §5.1: RRSIG yes, NSEC no), the records of an
 * RRset in the order of their RDATA as unsigned octet strings without
 * duplicates (§6.3), canonical name order (§6.1, for NSEC), and the signing
 * input of §3.1.8.1.
 *
 * Names are in the answer index's text form (lib/dns/zone_index.ts):
 * lowercase, `\DDD` for other bytes, no trailing dot. Stored data is already
 * lowercase; folding here anyway keeps a signature right for any RDATA a
 * caller hands in, and costs a scan, not a copy, when nothing is upper case.
 */
import { nameWire } from "../encode.ts";

const CLASS_IN = 1;

/** Field layout of a type with names in its RDATA: a name, a fixed number of bytes, or a character-string. */
type Field = "name" | "string" | number;

/**
 * RFC 4034 §6.2 item 3 with RFC 6840 §5.1 (NSEC out, RRSIG in; HINFO, listed
 * there, holds no names). Fields after the last listed one are left as they are.
 */
const NAME_FIELDS = new Map<number, Field[]>([
  [2, ["name"]], // NS
  [3, ["name"]], // MD
  [4, ["name"]], // MF
  [5, ["name"]], // CNAME
  [6, ["name", "name"]], // SOA
  [7, ["name"]], // MB
  [8, ["name"]], // MG
  [9, ["name"]], // MR
  [12, ["name"]], // PTR
  [14, ["name", "name"]], // MINFO
  [15, [2, "name"]], // MX
  [17, ["name", "name"]], // RP
  [18, [2, "name"]], // AFSDB
  [21, [2, "name"]], // RT
  [24, [18, "name"]], // SIG
  [26, [2, "name", "name"]], // PX
  [30, ["name"]], // NXT
  [33, [6, "name"]], // SRV
  [35, [4, "string", "string", "string", "name"]], // NAPTR
  [36, [2, "name"]], // KX
  [39, ["name"]], // DNAME
  [46, [18, "name"]], // RRSIG
]);

const T_A6 = 38;
const EMPTY = new Uint8Array(0);

/** Lowercases ASCII A–Z in `bytes[from, to)`, copying first while `bytes` is still the caller's `orig`. */
function lowerRange(bytes: Uint8Array, from: number, to: number, orig: Uint8Array): Uint8Array {
  let out = bytes;
  for (let i = from; i < to; i++) {
    const c = out[i];
    if (c >= 0x41 && c <= 0x5a) {
      if (out === orig) out = orig.slice();
      out[i] = c + 32;
    }
  }
  return out;
}

/** Lowercases the uncompressed name at `at`; returns the (possibly copied) bytes and where the name ends. */
function lowerName(bytes: Uint8Array, at: number, orig: Uint8Array): [Uint8Array, number] {
  let o = at;
  let out = bytes;
  while (o < out.length) {
    const len = out[o];
    if (len === 0) return [out, o + 1];
    // A compression pointer or a cut-off name: not RDATA the index holds; leave the rest alone.
    if (len > 63 || o + 1 + len > out.length) return [out, out.length];
    out = lowerRange(out, o + 1, o + 1 + len, orig);
    o += 1 + len;
  }
  return [out, out.length];
}

/** The name position of A6 RDATA (RFC 2874 §3.1): prefix length, address suffix, prefix name. */
function a6Canonical(rdata: Uint8Array): Uint8Array {
  if (rdata.length === 0) return rdata;
  const prefix = rdata[0];
  if (prefix === 0) return rdata;
  const suffixBytes = Math.ceil((128 - prefix) / 8);
  return lowerName(rdata, 1 + suffixBytes, rdata)[0];
}

/**
 * The canonical form of one record's RDATA (RFC 4034 §6.2): names at their
 * positions lowercased. Returns `rdata` itself when nothing changes.
 */
export function canonicalRdata(type: number, rdata: Uint8Array): Uint8Array {
  if (type === T_A6) return a6Canonical(rdata);
  const fields = NAME_FIELDS.get(type);
  if (!fields) return rdata;
  let out = rdata;
  let o = 0;
  for (const f of fields) {
    if (o >= out.length) break;
    if (f === "name") [out, o] = lowerName(out, o, rdata);
    else if (f === "string") o += 1 + out[o];
    else o += f;
  }
  return out;
}

/** Unsigned octet-string order (RFC 4034 §6.3): a prefix sorts first. */
export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    if (a[i] !== b[i]) return a[i] - b[i];
  }
  return a.length - b.length;
}

/** An RRset's RDATA in canonical form and order, duplicates removed (RFC 4034 §6.3). */
export function canonicalRdatas(type: number, rdatas: readonly Uint8Array[]): Uint8Array[] {
  const out = rdatas.map((r) => canonicalRdata(type, r));
  if (out.length < 2) return out;
  out.sort(compareBytes);
  let w = 1;
  for (let i = 1; i < out.length; i++) {
    if (compareBytes(out[i], out[w - 1]) !== 0) out[w++] = out[i];
  }
  out.length = w;
  return out;
}

/** The canonical (lowercase) wire form of a text name. */
export function canonicalNameWire(name: string): Uint8Array {
  const wire = nameWire(name);
  // The wire form is ours: lowercase it in place (no `orig` to protect).
  return lowerName(wire, 0, EMPTY)[0];
}

/**
 * The RRSIG labels field (RFC 4034 §3.1.3): labels of the owner, not counting
 * the root or a leading "*" (a wildcard's RRSIG validates every expansion).
 */
export function rrsigLabels(owner: string): number {
  if (owner === "") return 0;
  let n = 1;
  for (let i = owner.indexOf("."); i >= 0; i = owner.indexOf(".", i + 1)) n++;
  return owner === "*" || owner.startsWith("*.") ? n - 1 : n;
}

/**
 * The records part of the signing input (RFC 4034 §3.1.8.1): for each RDATA
 * in canonical order, owner | type | class IN | original TTL | RDLENGTH | RDATA.
 * `rdatas` must already be canonical (canonicalRdatas).
 */
export function rrsetSigningData(
  ownerWire: Uint8Array,
  type: number,
  ttl: number,
  rdatas: readonly Uint8Array[],
): Uint8Array {
  let size = 0;
  for (const r of rdatas) size += ownerWire.length + 10 + r.length;
  const out = new Uint8Array(size);
  let o = 0;
  for (const r of rdatas) {
    out.set(ownerWire, o);
    o += ownerWire.length;
    out[o] = type >> 8;
    out[o + 1] = type & 255;
    out[o + 2] = CLASS_IN >> 8;
    out[o + 3] = CLASS_IN & 255;
    out[o + 4] = (ttl >>> 24) & 255;
    out[o + 5] = (ttl >>> 16) & 255;
    out[o + 6] = (ttl >>> 8) & 255;
    out[o + 7] = ttl & 255;
    out[o + 8] = r.length >> 8;
    out[o + 9] = r.length & 255;
    out.set(r, o + 10);
    o += 10 + r.length;
  }
  return out;
}

/** The labels of a text name as bytes, lowercase (names in the stored form split on "." safely: a dot in a label is `\046`). */
export function nameLabels(name: string): Uint8Array[] {
  const wire = canonicalNameWire(name);
  const labels: Uint8Array[] = [];
  for (let o = 0; wire[o] !== 0; o += 1 + wire[o]) {
    labels.push(wire.subarray(o + 1, o + 1 + wire[o]));
  }
  return labels;
}

/**
 * A string whose code-unit order is the canonical name order of RFC 4034
 * §6.1: labels from the root down, each byte b (lowercased) as the code unit
 * b + 1 and a 0 after each label, so a shorter label sorts before a longer one
 * it begins, and a name before the names below it. Sorted arrays of these
 * keys are what NSEC lookups binary-search.
 */
export function canonicalKey(name: string): string {
  return labelsKey(nameLabels(name));
}

/** canonicalKey of labels given as bytes (leftmost first), already lowercase. */
export function labelsKey(labels: readonly Uint8Array[]): string {
  let key = "";
  for (let i = labels.length - 1; i >= 0; i--) {
    const l = labels[i];
    const codes = new Array<number>(l.length + 1);
    for (let j = 0; j < l.length; j++) codes[j] = l[j] + 1;
    codes[l.length] = 0;
    key += String.fromCharCode.apply(null, codes);
  }
  return key;
}

/** Canonical name order (RFC 4034 §6.1) of two text names: negative, zero or positive. */
export function compareNames(a: string, b: string): number {
  const ka = canonicalKey(a);
  const kb = canonicalKey(b);
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}
