/**
 * dns-packet, typed by hand. `@types/dns-packet` pulls in `@types/node`,
 * whose newer typings replace Deno's own node types and break type checking
 * of unrelated files (tests/assert.ts), so the few parts used here are
 * declared locally instead.
 */
import { Buffer } from "node:buffer";
import dnsPacketModule from "dns-packet";
import { nameWire } from "./names.ts";

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

interface NameCodec {
  encode: ((name: string, buf?: Buffer, offset?: number, opts?: unknown) => Buffer) & {
    bytes: number;
  };
  encodingLength(name: string): number;
}

// deno-lint-ignore no-explicit-any
const api = dnsPacketModule as any as DnsPacketApi & {
  decode: { bytes: number };
  name: NameCodec;
};

/**
 * A name as names.ts stores it with at least one escape: lowercase, `\DDD`
 * for any byte outside `a-z 0-9 - _ * /` (a dot inside a label among them),
 * a final dot allowed.
 */
const STORED_ESCAPED = /^[a-z0-9_*\/.-]*(\\[0-9]{3}[a-z0-9_*\/.-]*)+$/;

/**
 * dns-packet writes a name by splitting its text on dots, so the stored
 * `x\046y` (a label holding a dot) or `\200` would come out as other labels.
 * Every codec of the module calls its `name` object, so stored names with
 * escapes (owners and names inside data) are written here instead; any other
 * text takes dns-packet's own path and keeps its meaning there.
 */
function installEscapedNames(codec: NameCodec): void {
  const plain = codec.encode;
  const plainLength = codec.encodingLength;
  const escaped = (name: string) => name.includes("\\") && STORED_ESCAPED.test(name);
  const encode = (name: string, buf?: Buffer, offset = 0, opts?: unknown): Buffer => {
    // dns-packet's own encoder sets `name.encode.bytes`, which is this function's.
    if (!escaped(name)) return plain(name, buf, offset, opts);
    const wire = nameWire(name);
    const out = buf ?? Buffer.alloc(wire.length);
    out.set(wire, buf ? offset : 0);
    encode.bytes = wire.length;
    return out;
  };
  encode.bytes = 0;
  codec.encode = encode;
  codec.encodingLength = (name) => escaped(name) ? nameWire(name).length : plainLength(name);
}
installEscapedNames(api.name);

/** dns-packet with local types. */
export const dnsPacket: DnsPacketApi = api;

/** Bytes consumed by the last `dnsPacket.decode()`. */
export function decodedBytes(): number {
  return api.decode.bytes;
}
