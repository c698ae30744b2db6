/**
 * dns-packet as the oracle of RDATA in the property tests: what its codec for
 * a generated case reads from wire bytes, and from a record of a decoded
 * message, in the form the case's `decoded` is given in.
 */
import { Buffer } from "node:buffer";
import { assertEquals } from "../assert.ts";
import { dnsPacket } from "../../lib/dns/packet.ts";
import type { RdataCase } from "./rdata_arbitraries.ts";

/** The eight groups of an IPv6 address in text, read here rather than by the code under test. */
function groups(text: string): number[] {
  const [head, tail] = text.includes("::") ? text.split("::") : [text, null];
  const h = head ? head.split(":").map((x) => parseInt(x, 16)) : [];
  if (tail === null) return h;
  const t = tail ? tail.split(":").map((x) => parseInt(x, 16)) : [];
  return [...h, ...new Array(8 - h.length - t.length).fill(0), ...t];
}

/** What dns-packet's codec for `c` reads from `rdata` (without its length prefix). */
export function decodeRdata(c: RdataCase, rdata: Uint8Array): unknown {
  const buf = Buffer.alloc(rdata.length + 2);
  buf.writeUInt16BE(rdata.length, 0);
  buf.set(rdata, 2);
  // packet.ts types the encoders only; the decoders are the oracle here.
  const codec = dnsPacket.record(c.codec) as unknown as {
    decode: ((b: Buffer) => unknown) & { bytes: number };
  };
  const out = codec.decode(buf);
  assertEquals(codec.decode.bytes, buf.length, "the codec reads the whole RDATA");
  return c.type === "AAAA" ? groups(out as string) : out;
}

/**
 * The data of a record dns-packet decoded in a message: types it has no
 * codec for come back raw and are read with the codec that fits.
 */
export function answerData(c: RdataCase, data: unknown): unknown {
  if (Buffer.isBuffer(data) && c.codec !== "UNKNOWN") return decodeRdata(c, data);
  return c.type === "AAAA" ? groups(data as string) : data;
}

/**
 * False for a case dns-packet cannot read inside a message: it reads SSHFP
 * by its own table of fingerprint lengths and misreads other types.
 */
export function messageSafe(c: RdataCase): boolean {
  return !(c.type === "SSHFP" && c.codec === "UNKNOWN");
}
