/**
 * dns-packet, typed by hand. `@types/dns-packet` pulls in `@types/node`,
 * whose newer typings replace Deno's own node types and break type checking
 * of unrelated files (tests/assert.ts), so the few parts used here are
 * declared locally instead.
 */
import type { Buffer } from "node:buffer";
import dnsPacketModule from "dns-packet";

export interface Question {
  name: string;
  type: string;
  class?: string;
}

export interface OptRecord {
  name: ".";
  type: "OPT";
  udpPayloadSize?: number;
  extendedRcode?: number;
  ednsVersion?: number;
  flags?: number;
  flag_do?: boolean;
  options?: unknown[];
}

export interface DataRecord {
  name: string;
  type: string;
  class?: string;
  ttl?: number;
  // deno-lint-ignore no-explicit-any
  data?: any;
}

export type ResourceRecord = DataRecord | OptRecord;

export interface Packet {
  id?: number;
  type?: "query" | "response";
  flags?: number;
  questions?: Question[];
  answers?: ResourceRecord[];
  authorities?: ResourceRecord[];
  additionals?: ResourceRecord[];
}

export interface DecodedPacket extends Packet {
  id: number;
  type: "query" | "response";
  flags: number;
  opcode: string;
  rcode: string;
  flag_qr: boolean;
  flag_aa: boolean;
  flag_tc: boolean;
  flag_rd: boolean;
  flag_ra: boolean;
  flag_ad: boolean;
  flag_cd: boolean;
  questions: Question[];
  answers: ResourceRecord[];
  authorities: ResourceRecord[];
  additionals: ResourceRecord[];
}

interface Codec {
  encode(data: unknown, buf?: Buffer, offset?: number): Buffer;
}

interface DnsPacketApi {
  encode(packet: Packet, buf?: Buffer, offset?: number): Buffer;
  /** Needs a Buffer: dns-packet reads with Buffer methods. */
  decode(buf: Buffer, offset?: number): DecodedPacket;
  record(type: string): Codec;
  soa: Codec;
  AUTHORITATIVE_ANSWER: number;
  TRUNCATED_RESPONSE: number;
  RECURSION_DESIRED: number;
  CHECKING_DISABLED: number;
  DNSSEC_OK: number;
}

// deno-lint-ignore no-explicit-any
const api = dnsPacketModule as any as DnsPacketApi & { decode: { bytes: number } };

/** dns-packet with local types. */
export const dnsPacket: DnsPacketApi = api;

/** Bytes consumed by the last `dnsPacket.decode()`. */
export function decodedBytes(): number {
  return api.decode.bytes;
}
