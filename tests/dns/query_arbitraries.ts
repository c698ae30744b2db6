/**
 * fast-check arbitraries of DNS query messages for the property tests: well-
 * formed queries encoded by dns-packet (with what was put in them, to compare
 * against), the same queries mutated, and plain random bytes.
 */
import { Buffer } from "node:buffer";
import fc from "fast-check";
import { dnsPacket, type Packet } from "../../lib/dns/packet.ts";

/** Everything a generated query says, as the generator chose it. */
export interface QuerySpec {
  id: number;
  /** The 15 flag bits below QR (opcode among them). */
  flags: number;
  /** The question name's labels as bytes (empty for the root). */
  labels: Uint8Array[];
  qtype: number;
  qclass: number;
  edns: { udpSize: number; version: number; flags: number; options: Uint8Array[] } | null;
  /** Extra data records in the additional section (forces the full decode). */
  extra: { labels: Uint8Array[]; type: number; data: Uint8Array }[];
}

const encoder = new TextEncoder();

/** Label text: anything printable but the dot, some letters in either case, some non-ASCII. */
const labelText = fc.string({
  unit: fc.oneof(
    {
      weight: 6,
      arbitrary: fc.constantFrom(..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"),
    },
    { weight: 2, arbitrary: fc.constantFrom(..."0123456789-_/*") },
    { weight: 1, arbitrary: fc.constantFrom(...` !"#$%&'()+,:;<=>?@[\\]^\`{|}~`) },
    { weight: 1, arbitrary: fc.constantFrom("é", "ß", "ü", "中", "\u00a0", "😀") },
  ),
  minLength: 1,
  maxLength: 63,
  // A stored name's "\DDD" escape is an escape to packet.ts's name encoder, not four bytes.
}).filter((s) => encoder.encode(s).length <= 63 && !/\\[0-9]{3}/.test(s));

/** A name of up to 6 labels whose wire form (label bytes, length bytes and the root) fits 255 bytes. */
export const nameLabels = fc.array(labelText, { maxLength: 6 })
  .map((ls) => ls.map((l) => encoder.encode(l)))
  .filter((ls) => ls.reduce((n, l) => n + l.length + 1, 1) <= 255);

/** The text dns-packet encodes `labels` from. */
export function nameText(labels: Uint8Array[]): string {
  return labels.length ? labels.map((l) => new TextDecoder().decode(l)).join(".") : ".";
}

const ednsArb = fc.record({
  // dns-packet writes 4096 for a payload size of 0.
  udpSize: fc.integer({ min: 1, max: 65535 }),
  version: fc.oneof(
    { weight: 4, arbitrary: fc.constant(0) },
    { weight: 1, arbitrary: fc.integer({ min: 0, max: 255 }) },
  ),
  flags: fc.integer({ min: 0, max: 65535 }),
  options: fc.array(fc.uint8Array({ maxLength: 12 }), { maxLength: 3 }),
});

const extraArb = fc.record({
  labels: nameLabels,
  // Private-use types: any data is well-formed for them.
  type: fc.integer({ min: 65280, max: 65534 }),
  data: fc.uint8Array({ maxLength: 20 }),
});

/** A query's parts, mostly plain (a question and maybe an OPT), sometimes with extra records. */
export const querySpec: fc.Arbitrary<QuerySpec> = fc.record({
  id: fc.integer({ min: 0, max: 65535 }),
  flags: fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(0, 0x0100, 0x0010, 0x0110) },
    { weight: 1, arbitrary: fc.integer({ min: 0, max: 0x7fff }) },
  ),
  labels: nameLabels,
  qtype: fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(1, 2, 5, 6, 15, 16, 28, 33, 43, 255, 251, 252) },
    { weight: 1, arbitrary: fc.integer({ min: 0, max: 65535 }) },
  ),
  qclass: fc.constantFrom(1, 1, 1, 2, 3, 4, 255),
  edns: fc.option(ednsArb, { freq: 2 }),
  extra: fc.oneof(
    { weight: 4, arbitrary: fc.constant<QuerySpec["extra"]>([]) },
    { weight: 1, arbitrary: fc.array(extraArb, { minLength: 1, maxLength: 2 }) },
  ),
});

const CLASS_NAMES: Record<number, string> = { 1: "IN", 2: "CS", 3: "CH", 4: "HS", 255: "ANY" };

/** `spec` encoded by dns-packet. */
export function encodeQuery(spec: QuerySpec): Uint8Array {
  const additionals: NonNullable<Packet["additionals"]> = spec.extra.map((x) => ({
    name: nameText(x.labels),
    type: `UNKNOWN_${x.type}`,
    class: "IN",
    ttl: 0,
    data: Buffer.from(x.data),
  }));
  if (spec.edns) {
    additionals.push({
      name: ".",
      type: "OPT",
      udpPayloadSize: spec.edns.udpSize,
      ednsVersion: spec.edns.version,
      flags: spec.edns.flags,
      options: spec.edns.options.map((data, i) => ({ code: 65001 + i, data: Buffer.from(data) })),
    });
  }
  return new Uint8Array(dnsPacket.encode({
    type: "query",
    id: spec.id,
    flags: spec.flags,
    questions: [{
      name: nameText(spec.labels),
      type: `UNKNOWN_${spec.qtype}`,
      class: CLASS_NAMES[spec.qclass],
    }],
    additionals,
  }));
}

/** A few byte writes and maybe a cut, applied to a message. */
export const mutations = fc.record({
  writes: fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), {
    minLength: 1,
    maxLength: 4,
  }),
  cut: fc.option(fc.nat()),
});

export function mutate(
  msg: Uint8Array,
  m: { writes: [number, number][]; cut: number | null },
): Uint8Array {
  const out = msg.slice();
  for (const [at, b] of m.writes) if (out.length) out[at % out.length] = b;
  return m.cut === null ? out : out.subarray(0, m.cut % (out.length + 1));
}

/** Any message: random bytes, a well-formed query, or a mutated one. */
export const anyMessage: fc.Arbitrary<Uint8Array> = fc.oneof(
  fc.uint8Array({ maxLength: 600 }),
  querySpec.map(encodeQuery),
  fc.tuple(querySpec, mutations).map(([s, m]) => mutate(encodeQuery(s), m)),
);
