/**
 * Reading a dynamic update (RFC 2136 §2): the zone section, the prerequisite
 * and update sections as records with their class, TTL and RDATA. Names
 * (owners and the names inside the RDATA of the types whose names may be
 * compressed) come out in the stored form (names.ts, `labelText`), so that
 * comparisons with the store are string comparisons, and the RDATA without
 * compression, ready for RFC 3597's generic form (`\# <length> <hex>`),
 * which the record parser turns into the type's canonical value.
 */
import { labelText } from "../names.ts";

/** One record of the prerequisite or update section. */
export interface UpdateRecord {
  name: string;
  type: number;
  class: number;
  ttl: number;
  /** RDATA with every name it holds uncompressed. */
  rdata: Uint8Array;
}

export interface UpdateMessage {
  zone: { name: string; type: number; class: number };
  prerequisites: UpdateRecord[];
  updates: UpdateRecord[];
}

/** Thrown for a message RFC 2136 answers with FORMERR. */
export class UpdateFormatError extends Error {}

const T_SOA = 6;
/**
 * Where names sit in the RDATA of the types whose names a sender may
 * compress (RFC 3597 §4 and the older types it lists): bytes before each
 * name, "name" for a name. SRV, KX and DNAME are taken too: a name without
 * pointers reads the same either way.
 */
const NAME_LAYOUT: Record<number, (number | "name")[]> = {
  2: ["name"], // NS
  5: ["name"], // CNAME
  6: ["name", "name", 20], // SOA
  12: ["name"], // PTR
  15: [2, "name"], // MX
  17: ["name", "name"], // RP
  18: [2, "name"], // AFSDB
  33: [6, "name"], // SRV
  36: [2, "name"], // KX
  39: ["name"], // DNAME
};

class Reader {
  o = 12;
  constructor(readonly b: Uint8Array) {}

  u16(): number {
    if (this.o + 2 > this.b.length) throw new UpdateFormatError("The message ends early");
    const v = (this.b[this.o] << 8) | this.b[this.o + 1];
    this.o += 2;
    return v;
  }

  /** The labels of the name at `at` (pointers followed) and the offset just past it there. */
  labels(at: number): { labels: Uint8Array[]; end: number } {
    const labels: Uint8Array[] = [];
    let end = -1;
    let total = 1;
    for (let jumps = 0; jumps < 128;) {
      if (at >= this.b.length) throw new UpdateFormatError("A name runs past the message");
      const len = this.b[at];
      if (len === 0) return { labels, end: end < 0 ? at + 1 : end };
      if ((len & 0xc0) === 0xc0) {
        if (at + 1 >= this.b.length) throw new UpdateFormatError("A pointer runs past the message");
        if (end < 0) end = at + 2;
        at = ((len & 0x3f) << 8) | this.b[at + 1];
        jumps++;
        continue;
      }
      if (len > 63 || at + 1 + len > this.b.length) throw new UpdateFormatError("Bad label");
      total += len + 1;
      if (total > 255) throw new UpdateFormatError("A name is longer than 255 bytes");
      labels.push(this.b.subarray(at + 1, at + 1 + len));
      at += 1 + len;
    }
    throw new UpdateFormatError("A compression loop");
  }

  name(): string {
    const n = this.labels(this.o);
    this.o = n.end;
    return n.labels.map((l) => labelText(l)).join(".");
  }

  record(): UpdateRecord {
    const name = this.name();
    const type = this.u16();
    const cls = this.u16();
    const ttl = this.u16() * 65536 + this.u16();
    const len = this.u16();
    const start = this.o;
    if (start + len > this.b.length) throw new UpdateFormatError("RDATA runs past the message");
    this.o += len;
    const rdata = NAME_LAYOUT[type] && len > 0
      ? this.uncompressed(type, start, start + len)
      : this.b.slice(start, start + len);
    return { name, type, class: cls, ttl, rdata };
  }

  /** The RDATA at start…end with its names written out in full. */
  uncompressed(type: number, start: number, end: number): Uint8Array {
    const parts: number[] = [];
    let at = start;
    for (const step of NAME_LAYOUT[type]) {
      if (step === "name") {
        const n = this.labels(at);
        if (n.end > end) throw new UpdateFormatError("A name runs past its RDATA");
        for (const l of n.labels) parts.push(l.length, ...l);
        parts.push(0);
        at = n.end;
      } else {
        if (at + step > end) throw new UpdateFormatError("RDATA too short");
        parts.push(...this.b.subarray(at, at + step));
        at += step;
      }
    }
    if (at !== end) throw new UpdateFormatError("Bytes follow the RDATA's last field");
    return new Uint8Array(parts);
  }
}

/**
 * The sections of the update `msg` (opcode 5). The zone section must hold
 * one zone of type SOA (§3.1.1); the additional section is skipped (its TSIG
 * is checked before). Throws UpdateFormatError for FORMERR.
 */
export function readUpdate(msg: Uint8Array): UpdateMessage {
  const count = (i: number) => (msg[i] << 8) | msg[i + 1];
  if (msg.length < 12 || count(4) !== 1) throw new UpdateFormatError("ZOCOUNT is not 1");
  const r = new Reader(msg);
  const zoneName = r.name();
  const zone = { name: zoneName, type: r.u16(), class: r.u16() };
  if (zone.type !== T_SOA) throw new UpdateFormatError("The zone section's type is not SOA");
  const prerequisites: UpdateRecord[] = [];
  for (let i = 0; i < count(6); i++) prerequisites.push(r.record());
  const updates: UpdateRecord[] = [];
  for (let i = 0; i < count(8); i++) updates.push(r.record());
  for (let i = 0; i < count(10); i++) r.record();
  if (r.o !== msg.length) throw new UpdateFormatError("Bytes follow the last record");
  return { zone, prerequisites, updates };
}
