/**
 * Reads what the responder needs from a query — header, the one question,
 * the OPT record — straight from the bytes, so the answer cache can be hit
 * without decoding the whole message. Anything this reader does not
 * recognise as a plain query is handed to dns-packet for full decoding.
 */

export interface Edns {
  version: number;
  /** DNSSEC OK bit. */
  do: boolean;
  udpSize: number;
}

export interface Query {
  id: number;
  /** The 16 flag bits as received. */
  flags: number;
  opcode: number;
  /** Offset just past the question's name. */
  nameEnd: number;
  /** Offset just past the question section. */
  questionEnd: number;
  /**
   * The name lowercased, bytes outside [a-z0-9-_] as \DDD but a whole "*" label
   * kept; no trailing dot; "" for the root. Stored names take the same form
   * (names.ts, labelText), so a lookup compares strings.
   */
  name: string;
  qtype: number;
  qclass: number;
  edns: Edns | null;
  /** False when the message has more than a question and one OPT: dns-packet must check it. */
  plain: boolean;
  /** Set by the full check: the message carries a TSIG record. */
  tsig?: boolean;
  /** Set by the full check: the serial in an IXFR query's authority SOA. */
  clientSerial?: number;
}

const SAFE = new Uint8Array(256);
for (const c of "abcdefghijklmnopqrstuvwxyz0123456789-_") SAFE[c.charCodeAt(0)] = 1;

/**
 * Parses header, question and (for a plain message) OPT. Returns null when the
 * header or question cannot be read at all.
 */
export function readQuery(buf: Uint8Array): Query | null {
  if (buf.length < 12) return null;
  const flags = (buf[2] << 8) | buf[3];
  const qd = (buf[4] << 8) | buf[5];
  const an = (buf[6] << 8) | buf[7];
  const ns = (buf[8] << 8) | buf[9];
  const ar = (buf[10] << 8) | buf[11];
  if (qd !== 1) return null;
  let o = 12;
  let name = "";
  let total = 0;
  while (true) {
    if (o >= buf.length) return null;
    const len = buf[o++];
    if (len === 0) break;
    // No compression pointer can be valid in the first name of a message.
    if (len > 63 || o + len > buf.length) return null;
    total += len + 1;
    if (total > 254) return null;
    if (name.length) name += ".";
    if (len === 1 && buf[o] === 0x2a) {
      name += "*";
      o += 1;
      continue;
    }
    for (let i = 0; i < len; i++) {
      let b = buf[o + i];
      if (b >= 65 && b <= 90) b += 32;
      name += SAFE[b] ? String.fromCharCode(b) : "\\" + (b < 10 ? "00" : b < 100 ? "0" : "") + b;
    }
    o += len;
  }
  const nameEnd = o;
  if (o + 4 > buf.length) return null;
  const qtype = (buf[o] << 8) | buf[o + 1];
  const qclass = (buf[o + 2] << 8) | buf[o + 3];
  o += 4;
  const q: Query = {
    id: (buf[0] << 8) | buf[1],
    flags,
    opcode: (flags >> 11) & 0xf,
    nameEnd,
    questionEnd: o,
    name,
    qtype,
    qclass,
    edns: null,
    plain: false,
  };
  if (an !== 0 || ns !== 0 || ar > 1) return q;
  if (ar === 0) {
    q.plain = o === buf.length;
    return q;
  }
  // One additional record: plain only if it is a well-formed OPT at the root
  // that ends the message exactly.
  if (o + 11 > buf.length || buf[o] !== 0) return q;
  const type = (buf[o + 1] << 8) | buf[o + 2];
  if (type !== 41) return q;
  const udpSize = (buf[o + 3] << 8) | buf[o + 4];
  const version = buf[o + 6];
  const doBit = (buf[o + 7] & 0x80) !== 0;
  const rdlen = (buf[o + 9] << 8) | buf[o + 10];
  let p = o + 11;
  const end = p + rdlen;
  if (end !== buf.length) return q;
  while (p < end) {
    if (p + 4 > end) return q;
    p += 4 + ((buf[p + 2] << 8) | buf[p + 3]);
  }
  if (p !== end) return q;
  q.edns = { version, do: doBit, udpSize };
  q.plain = true;
  return q;
}
