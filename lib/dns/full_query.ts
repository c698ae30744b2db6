/**
 * The full check of a query that is more than a bare question (+ OPT):
 * dns-packet decodes it, any malformation is FORMERR, and the OPT, a TSIG and
 * an IXFR's serial are taken from the decoded message.
 */
import { Buffer } from "node:buffer";
import { type DataRecord, decodedBytes, dnsPacket } from "./packet.ts";
import type { Query } from "./query.ts";
import { T_IXFR } from "./zone_transfer.ts";

/** True when `msg` decodes as a well-formed query; fills `q.edns`, `q.tsig` and `q.clientSerial`. */
export function checkFullQuery(msg: Uint8Array, q: Query): boolean {
  try {
    const p = dnsPacket.decode(Buffer.from(msg.buffer, msg.byteOffset, msg.length));
    if (decodedBytes() !== msg.length) return false;
    if (p.answers.length > 0) return false;
    if (p.authorities.length > 0 && q.qtype !== T_IXFR) return false;
    const opts = p.additionals.filter((r) => r.type === "OPT");
    if (opts.length > 1) return false;
    if (opts.length === 1) {
      const o = opts[0] as {
        name: string;
        udpPayloadSize: number;
        ednsVersion: number;
        flag_do: boolean;
      };
      if (o.name !== ".") return false;
      q.edns = { version: o.ednsVersion, do: o.flag_do, udpSize: o.udpPayloadSize };
    }
    if (p.additionals.some((r) => (r as DataRecord).type === "TSIG")) {
      (q as { tsig?: boolean }).tsig = true;
    }
    if (q.qtype === T_IXFR) {
      const soa = p.authorities.find((r) => r.type === "SOA") as DataRecord | undefined;
      q.clientSerial = soa?.data?.serial;
    }
    return true;
  } catch {
    return false;
  }
}
