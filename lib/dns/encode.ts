/**
 * Records into an uncompressed message, without dns-packet: owner names from
 * their text form, RDATA as the answer index holds it on the wire. compress.ts
 * compresses the result. Names are text as the index and the query reader
 * keep them: lowercase, without the trailing dot, "" for the root, and any
 * byte outside [a-z0-9-_/*] written as \DDD (query.ts).
 */

/** One resource record ready for the wire. */
export interface WireRecord {
  /** The owner name in wire form (nameWire). */
  owner: Uint8Array;
  type: number;
  /** IN when absent; OPT carries the UDP payload size here (RFC 6891 §6.1.2). */
  class?: number;
  ttl: number;
  rdata: Uint8Array;
}

const BACKSLASH = 92;
const DOT = 46;

/** The wire form of a text name (labels with length bytes, then the root's 0). */
export function nameWire(name: string): Uint8Array {
  if (name === "") return new Uint8Array([0]);
  const out = new Uint8Array(name.length + 2);
  let lenAt = 0;
  let o = 1;
  for (let i = 0; i < name.length; i++) {
    let c = name.charCodeAt(i);
    if (c === DOT) {
      out[lenAt] = o - lenAt - 1;
      lenAt = o++;
      continue;
    }
    if (c === BACKSLASH) {
      c = Number(name.slice(i + 1, i + 4));
      i += 3;
    }
    out[o++] = c;
  }
  out[lenAt] = o - lenAt - 1;
  out[o++] = 0;
  return out.subarray(0, o);
}

/** Bytes the text name takes on the wire; more than 255 is not a valid name (RFC 1035 §3.1). */
export function nameWireLength(name: string): number {
  if (name === "") return 1;
  let escapes = 0;
  for (let i = name.indexOf("\\"); i >= 0; i = name.indexOf("\\", i + 4)) escapes++;
  // Each label's length byte stands in for its dot, plus the first label's and the root's.
  return name.length - 3 * escapes + 2;
}

/** `head` (header and question) followed by `records`, names uncompressed. */
export function encodeMessage(head: Uint8Array, records: WireRecord[]): Uint8Array {
  let size = head.length;
  for (const r of records) size += r.owner.length + 10 + r.rdata.length;
  const out = new Uint8Array(size);
  out.set(head, 0);
  let o = head.length;
  for (const r of records) {
    out.set(r.owner, o);
    o += r.owner.length;
    out[o] = r.type >> 8;
    out[o + 1] = r.type & 255;
    const cls = r.class ?? 1;
    out[o + 2] = cls >> 8;
    out[o + 3] = cls & 255;
    const ttl = r.ttl;
    out[o + 4] = (ttl >>> 24) & 255;
    out[o + 5] = (ttl >>> 16) & 255;
    out[o + 6] = (ttl >>> 8) & 255;
    out[o + 7] = ttl & 255;
    out[o + 8] = r.rdata.length >> 8;
    out[o + 9] = r.rdata.length & 255;
    out.set(r.rdata, o + 10);
    o += 10 + r.rdata.length;
  }
  return out;
}
