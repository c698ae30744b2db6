/**
 * TSIG on the wire (RFC 8945): finding the TSIG record of a message, the MAC
 * over a message and the TSIG variables (§4.3), and appending a TSIG record
 * to a finished message. The record is written uncompressed after the rest of
 * the message is compressed, as §4.2 asks for its names.
 */
import { Buffer } from "node:buffer";
import { createHmac, timingSafeEqual } from "node:crypto";
import { labelText } from "../names.ts";
import type { TsigAlgorithm } from "./key_repo.ts";

export const T_TSIG = 250;
const C_ANY = 255;
/** Seconds of clock difference a signature tolerates (RFC 8945 §10 recommends 300). */
export const FUDGE = 300;

/** TSIG error codes (RFC 8945 §3). */
export const TsigError = { none: 0, badSig: 16, badKey: 17, badTime: 18, badTrunc: 22 } as const;

/** Node's hash name and the MAC length of each algorithm we sign with. */
export const ALGORITHMS: Record<TsigAlgorithm, { hash: string; size: number }> = {
  "hmac-sha256": { hash: "sha256", size: 32 },
  "hmac-sha512": { hash: "sha512", size: 64 },
  "hmac-sha1": { hash: "sha1", size: 20 },
};

/** A key ready to sign: the name and algorithm as wire names, the secret as bytes. */
export interface TsigKeyMaterial {
  name: string;
  algorithm: TsigAlgorithm;
  secret: Uint8Array;
}

/** A TSIG record as read from a message. */
export interface TsigRecord {
  /** Offset of the record: the message without TSIG is everything before it. */
  start: number;
  /** Lower-case text (names.ts form), no final dot. */
  keyName: string;
  algorithm: string;
  keyWire: Uint8Array;
  algorithmWire: Uint8Array;
  timeSigned: number;
  fudge: number;
  mac: Uint8Array;
  originalId: number;
  error: number;
  other: Uint8Array;
}

/** The labels of the name at `o` (pointers followed) and the offset just past it in place; null when bad. */
function readName(msg: Uint8Array, o: number): { labels: Uint8Array[]; end: number } | null {
  const labels: Uint8Array[] = [];
  let end = -1;
  let total = 0;
  for (let jumps = 0; jumps < 64;) {
    if (o >= msg.length) return null;
    const len = msg[o];
    if (len === 0) return { labels, end: end < 0 ? o + 1 : end };
    if ((len & 0xc0) === 0xc0) {
      if (o + 1 >= msg.length) return null;
      if (end < 0) end = o + 2;
      o = ((len & 0x3f) << 8) | msg[o + 1];
      jumps++;
      continue;
    }
    if (len > 63 || o + 1 + len > msg.length) return null;
    total += len + 1;
    if (total > 254) return null;
    labels.push(msg.subarray(o + 1, o + 1 + len));
    o += 1 + len;
  }
  return null;
}

/** RFC 4034 §6.2: uncompressed, ASCII letters in lower case. */
function canonicalWire(labels: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(labels.reduce((n, l) => n + l.length + 1, 1));
  let o = 0;
  for (const l of labels) {
    out[o++] = l.length;
    for (const b of l) out[o++] = b >= 65 && b <= 90 ? b + 32 : b;
  }
  return out;
}

const textOf = (labels: Uint8Array[]) => labels.map((l) => labelText(l)).join(".");

/** Offset just past the record at `o`, with its type; null when it runs past the message. */
function skipRecord(msg: Uint8Array, o: number): { end: number; type: number } | null {
  const n = readName(msg, o);
  if (!n || n.end + 10 > msg.length) return null;
  const type = (msg[n.end] << 8) | msg[n.end + 1];
  const end = n.end + 10 + ((msg[n.end + 8] << 8) | msg[n.end + 9]);
  return end > msg.length ? null : { end, type };
}

/**
 * The message's TSIG record: undefined when it has none, null when one is
 * malformed or not the last record of the additional section (§5.1).
 */
export function findTsig(msg: Uint8Array): TsigRecord | null | undefined {
  if (msg.length < 12) return null;
  const count = (i: number) => (msg[i] << 8) | msg[i + 1];
  let o = 12;
  for (let i = 0; i < count(4); i++) {
    const n = readName(msg, o);
    if (!n || n.end + 4 > msg.length) return null;
    o = n.end + 4;
  }
  const records = count(6) + count(8) + count(10);
  let found: number | undefined;
  for (let i = 0; i < records; i++) {
    const r = skipRecord(msg, o);
    if (!r) return null;
    if (r.type === T_TSIG) {
      if (i !== records - 1 || r.end !== msg.length) return null;
      found = o;
    }
    o = r.end;
  }
  return found === undefined ? undefined : parseTsig(msg, found);
}

function parseTsig(msg: Uint8Array, start: number): TsigRecord | null {
  const owner = readName(msg, start)!;
  let o = owner.end;
  if (((msg[o + 2] << 8) | msg[o + 3]) !== C_ANY) return null;
  o += 10;
  const alg = readName(msg, o);
  if (!alg) return null;
  o = alg.end;
  const u16 = (i: number) => (msg[i] << 8) | msg[i + 1];
  if (o + 10 > msg.length) return null;
  const timeSigned = u16(o) * 2 ** 32 + ((u16(o + 2) << 16 | u16(o + 4)) >>> 0);
  const fudge = u16(o + 6);
  const macSize = u16(o + 8);
  o += 10;
  if (o + macSize + 6 > msg.length) return null;
  const mac = msg.slice(o, o + macSize);
  o += macSize;
  const originalId = u16(o);
  const error = u16(o + 2);
  const otherLen = u16(o + 4);
  o += 6;
  if (o + otherLen !== msg.length) return null;
  return {
    start,
    keyName: textOf(owner.labels),
    algorithm: textOf(alg.labels),
    keyWire: canonicalWire(owner.labels),
    algorithmWire: canonicalWire(alg.labels),
    timeSigned,
    fudge,
    mac,
    originalId,
    error,
    other: msg.slice(o, o + otherLen),
  };
}

/** The wire form of a name given as text of plain labels ("hmac-sha256", "key.example"). */
export function plainNameWire(name: string): Uint8Array {
  const labels = name === "" ? [] : name.split(".").map((l) => new TextEncoder().encode(l));
  return canonicalWire(labels);
}

/** The fields a signature covers beside the message (§4.3.3). */
export interface TsigVariables {
  keyWire: Uint8Array;
  algorithmWire: Uint8Array;
  timeSigned: number;
  fudge: number;
  error: number;
  other: Uint8Array;
}

function timers(v: TsigVariables): Uint8Array {
  const t = new Uint8Array(8);
  const hi = Math.floor(v.timeSigned / 2 ** 32);
  const lo = v.timeSigned >>> 0;
  t.set([
    hi >> 8,
    hi & 255,
    lo >>> 24,
    (lo >> 16) & 255,
    (lo >> 8) & 255,
    lo & 255,
    v.fudge >> 8,
    v.fudge & 255,
  ]);
  return t;
}

const u16 = (n: number) => new Uint8Array([n >> 8, n & 255]);

/**
 * The MAC of `message` (its TSIG already taken off, ARCOUNT without it):
 * the prior MAC when there is one (a request's, or the previous message's of
 * a TCP stream), the message, then all TSIG variables, or the timers alone
 * for a message after the first of a stream (§4.3.1).
 */
export function computeMac(
  key: TsigKeyMaterial,
  message: Uint8Array,
  v: TsigVariables,
  prior: Uint8Array | null,
  timersOnly = false,
): Uint8Array {
  const h = createHmac(ALGORITHMS[key.algorithm].hash, key.secret);
  if (prior) h.update(u16(prior.length)).update(prior);
  h.update(message);
  if (timersOnly) {
    h.update(timers(v));
  } else {
    h.update(v.keyWire).update(u16(C_ANY)).update(new Uint8Array(4)).update(v.algorithmWire);
    h.update(timers(v)).update(u16(v.error)).update(u16(v.other.length)).update(v.other);
  }
  return new Uint8Array(h.digest());
}

/** `msg` without its TSIG record, ARCOUNT lowered and the ID set to the original ID (§4.3.2). */
export function unsignedPart(msg: Uint8Array, t: TsigRecord): Uint8Array {
  const out = msg.slice(0, t.start);
  out[0] = t.originalId >> 8;
  out[1] = t.originalId & 255;
  const ar = ((out[10] << 8) | out[11]) - 1;
  out[10] = ar >> 8;
  out[11] = ar & 255;
  return out;
}

/** `msg` with a TSIG record carrying `mac` appended and ARCOUNT raised. */
export function appendTsig(
  msg: Uint8Array,
  v: TsigVariables,
  mac: Uint8Array,
  originalId: number,
): Uint8Array {
  const rdata = [
    v.algorithmWire,
    timers(v),
    u16(mac.length),
    mac,
    u16(originalId),
    u16(v.error),
    u16(v.other.length),
    v.other,
  ];
  const rdlen = rdata.reduce((n, p) => n + p.length, 0);
  const head = new Uint8Array(10);
  head.set([
    T_TSIG >> 8,
    T_TSIG & 255,
    C_ANY >> 8,
    C_ANY & 255,
    0,
    0,
    0,
    0,
    rdlen >> 8,
    rdlen & 255,
  ]);
  const parts = [msg, v.keyWire, head, ...rdata];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  const ar = ((out[10] << 8) | out[11]) + 1;
  out[10] = ar >> 8;
  out[11] = ar & 255;
  return out;
}

/** Bytes a TSIG record adds to a message signed with `key` (for the UDP size limit). */
export function tsigSize(key: TsigKeyMaterial): number {
  return plainNameWire(key.name).length + 10 + plainNameWire(key.algorithm).length + 16 +
    ALGORITHMS[key.algorithm].size;
}

/** Constant-time comparison of MACs of the same length. */
export function macEqual(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
}
