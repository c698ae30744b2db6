/**
 * RFC 1035 §4.1.4 name compression of an encoded message. dns-packet writes
 * names in full; compressing afterwards makes answers as small as NSD's and
 * BIND's (so truncation happens at the same sizes) and points every copy of
 * the query name back at the question, which carries the query's case into
 * the answer the way those servers do. Names inside RDATA are compressed only
 * for the RFC 1035 types (RFC 3597 §4); SRV targets stay whole (RFC 2782), and
 * so do DNAME targets (RFC 6672 §2.5).
 */

const T_OPT = 41;
/** RDATA layout of compressible types: names at the start, after `skip` bytes for MX. */
const NAME_RDATA: Record<number, "one" | "mx" | "soa"> = {
  2: "one",
  5: "one",
  12: "one",
  15: "mx",
  6: "soa",
};

class Writer {
  out: Uint8Array;
  len = 0;
  dict = new Map<string, number>();
  constructor(size: number) {
    this.out = new Uint8Array(size);
  }
  bytes(src: Uint8Array, from: number, to: number): void {
    this.out.set(src.subarray(from, to), this.len);
    this.len += to - from;
  }
  u16(v: number): void {
    this.out[this.len++] = v >> 8;
    this.out[this.len++] = v & 255;
  }
  /** Writes the uncompressed name at `src[o]`, reusing earlier suffixes; returns the input offset after it. */
  name(src: Uint8Array, o: number, register = true): number {
    const starts: number[] = [];
    let p = o;
    while (src[p] !== 0) {
      starts.push(p);
      p += src[p] + 1;
    }
    const end = p + 1;
    for (let i = 0; i < starts.length; i++) {
      const key = suffixKey(src, starts[i], end);
      const at = this.dict.get(key);
      if (at !== undefined) {
        for (let j = 0; j < i; j++) {
          this.remember(src, starts[j], end, this.len + (starts[j] - o), register);
        }
        this.bytes(src, o, starts[i]);
        this.u16(0xc000 | at);
        return end;
      }
    }
    for (let j = 0; j < starts.length; j++) {
      this.remember(src, starts[j], end, this.len + (starts[j] - o), register);
    }
    this.bytes(src, o, end);
    return end;
  }
  remember(src: Uint8Array, from: number, end: number, at: number, register: boolean): void {
    if (register && at < 0x4000) this.dict.set(suffixKey(src, from, end), at);
  }
}

function suffixKey(src: Uint8Array, from: number, end: number): string {
  let s = "";
  for (let i = from; i < end; i++) {
    const b = src[i];
    s += String.fromCharCode(b >= 65 && b <= 90 ? b + 32 : b);
  }
  return s;
}

/**
 * Compresses `msg` (names uncompressed, as encode.ts and dns-packet write
 * them). When `ends` is given, the offset just past each record in the result
 * is pushed onto it: pointers only lead backwards, so the message cut after any
 * record is itself complete (response.ts truncates that way).
 */
export function compressMessage(msg: Uint8Array, ends?: number[]): Uint8Array {
  const w = new Writer(msg.length);
  w.bytes(msg, 0, 12);
  const qd = (msg[4] << 8) | msg[5];
  const rrs = ((msg[6] << 8) | msg[7]) + ((msg[8] << 8) | msg[9]) + ((msg[10] << 8) | msg[11]);
  let o = 12;
  for (let i = 0; i < qd; i++) {
    o = w.name(msg, o);
    w.bytes(msg, o, o + 4);
    o += 4;
  }
  for (let i = 0; i < rrs; i++) {
    o = w.name(msg, o);
    const type = (msg[o] << 8) | msg[o + 1];
    const rdlen = (msg[o + 8] << 8) | msg[o + 9];
    w.bytes(msg, o, o + 8);
    o += 10;
    const kind = type === T_OPT ? undefined : NAME_RDATA[type];
    if (!kind) {
      w.u16(rdlen);
      w.bytes(msg, o, o + rdlen);
      o += rdlen;
      ends?.push(w.len);
      continue;
    }
    const lenAt = w.len;
    w.u16(0);
    const start = w.len;
    let p = o;
    if (kind === "mx") {
      w.bytes(msg, p, p + 2);
      p += 2;
    }
    p = w.name(msg, p);
    if (kind === "soa") {
      p = w.name(msg, p);
      w.bytes(msg, p, p + 20);
      p += 20;
    }
    const written = w.len - start;
    w.out[lenAt] = written >> 8;
    w.out[lenAt + 1] = written & 255;
    o += rdlen;
    ends?.push(w.len);
  }
  return w.out.slice(0, w.len);
}
