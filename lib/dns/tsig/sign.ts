/**
 * Signing and verifying whole messages with TSIG (RFC 8945 §5): a request's
 * check in the RFC's order (key, MAC, time), the error answers it calls for,
 * the signatures of a response stream (every message of a TCP transfer is
 * signed, each over the previous one's MAC: §5.3.1 allows gaps of up to 99
 * messages, but a signature per message is simpler for the receiver too),
 * and the request side that NOTIFY uses.
 */
import type { StoredTsigKey, TsigAlgorithm } from "./key_repo.ts";
import {
  ALGORITHMS,
  appendTsig,
  computeMac,
  findTsig,
  FUDGE,
  macEqual,
  plainNameWire,
  TsigError,
  type TsigKeyMaterial,
  type TsigRecord,
  type TsigVariables,
  unsignedPart,
} from "./wire.ts";

const EMPTY = new Uint8Array(0);

/** Where keys are found by name (the key repository's `withSecret`). */
export interface TsigKeyring {
  withSecret(name: string): StoredTsigKey | undefined;
}

/** The outcome of checking a request's TSIG. */
export type RequestCheck =
  | { status: "unsigned" }
  /** Malformed TSIG, or a MAC size out of range (§5.2.2.1): FORMERR. */
  | { status: "formerr" }
  | { status: "ok"; key: StoredTsigKey; material: TsigKeyMaterial; tsig: TsigRecord }
  | { status: "badkey" | "badsig"; tsig: TsigRecord }
  | { status: "badtime" | "badtrunc"; material: TsigKeyMaterial; tsig: TsigRecord };

export function materialOf(
  key: Pick<StoredTsigKey, "name" | "algorithm" | "secret">,
): TsigKeyMaterial {
  const bin = atob(key.secret);
  const secret = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) secret[i] = bin.charCodeAt(i);
  return { name: key.name, algorithm: key.algorithm, secret };
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** The request's TSIG checked against `keys` at `now` (seconds). */
export function verifyRequest(msg: Uint8Array, keys: TsigKeyring, now: number): RequestCheck {
  const tsig = findTsig(msg);
  if (tsig === undefined) return { status: "unsigned" };
  if (tsig === null) return { status: "formerr" };
  const key = keys.withSecret(tsig.keyName);
  if (!key || !sameBytes(plainNameWire(key.algorithm), tsig.algorithmWire)) {
    return { status: "badkey", tsig };
  }
  const material = materialOf(key);
  const size = ALGORITHMS[key.algorithm].size;
  if (tsig.mac.length > size || tsig.mac.length < Math.max(10, size / 2)) {
    return { status: "formerr" };
  }
  const expected = computeMac(material, unsignedPart(msg, tsig), tsig, null);
  if (!macEqual(expected.subarray(0, tsig.mac.length), tsig.mac)) return { status: "badsig", tsig };
  // A truncated MAC that checks out is still below our policy of full-length MACs.
  if (tsig.mac.length < size) return { status: "badtrunc", material, tsig };
  if (Math.abs(now - tsig.timeSigned) > tsig.fudge) return { status: "badtime", material, tsig };
  return { status: "ok", key, material, tsig };
}

/** The header ID of `msg` set to `id`, in a copy: MACs cover the original ID (§4.3.2). */
function withId(msg: Uint8Array, id: number): Uint8Array {
  if (((msg[0] << 8) | msg[1]) === id) return msg;
  const out = msg.slice();
  out[0] = id >> 8;
  out[1] = id & 255;
  return out;
}

function variables(material: TsigKeyMaterial, timeSigned: number): TsigVariables {
  return {
    keyWire: plainNameWire(material.name),
    algorithmWire: plainNameWire(material.algorithm),
    timeSigned,
    fudge: FUDGE,
    error: 0,
    other: EMPTY,
  };
}

/**
 * `msgs` (one answer, or the messages of a transfer) signed for the request
 * `tsig`: the first over the request's MAC and all variables, each next one
 * over the previous MAC and the timers (§5.3.1).
 */
export function signResponses(
  msgs: Uint8Array[],
  material: TsigKeyMaterial,
  tsig: TsigRecord,
  now: number,
): Uint8Array[] {
  const v = { ...variables(material, Math.floor(now)), keyWire: tsig.keyWire };
  let prior = tsig.mac;
  return msgs.map((m, i) => {
    const mac = computeMac(material, withId(m, tsig.originalId), v, prior, i > 0);
    prior = mac;
    return appendTsig(m, v, mac, tsig.originalId);
  });
}

const ERROR_OF = {
  badkey: TsigError.badKey,
  badsig: TsigError.badSig,
  badtime: TsigError.badTime,
  badtrunc: TsigError.badTrunc,
} as const;

/**
 * The NOTAUTH answer `response` with the TSIG a failed check calls for
 * (§5.3.2): unsigned (no MAC) for an unknown key or a bad MAC, signed for
 * a time out of range (our time in Other Data, the request's Time Signed
 * kept so that the client can check the answer, as BIND does) or a
 * truncated MAC.
 */
export function tsigErrorAnswer(
  response: Uint8Array,
  check: Exclude<RequestCheck, { status: "unsigned" | "formerr" | "ok" }>,
  now: number,
): Uint8Array {
  const { tsig } = check;
  const t = Math.floor(now);
  const v: TsigVariables = {
    keyWire: tsig.keyWire,
    algorithmWire: tsig.algorithmWire,
    timeSigned: t,
    fudge: FUDGE,
    error: ERROR_OF[check.status],
    other: EMPTY,
  };
  if (!("material" in check)) return appendTsig(response, v, EMPTY, tsig.originalId);
  if (check.status === "badtime") {
    v.timeSigned = tsig.timeSigned;
    v.other = new Uint8Array([0, 0, t >>> 24, (t >> 16) & 255, (t >> 8) & 255, t & 255]);
    v.other[1] = Math.floor(t / 2 ** 32) & 255;
  }
  const mac = computeMac(check.material, withId(response, tsig.originalId), v, tsig.mac);
  return appendTsig(response, v, mac, tsig.originalId);
}

/** A request signed with `material`: the bytes to send and the MAC its answer is checked against. */
export function signRequest(
  msg: Uint8Array,
  material: TsigKeyMaterial,
  now: number,
): { bytes: Uint8Array; mac: Uint8Array } {
  const v = variables(material, Math.floor(now));
  const mac = computeMac(material, msg, v, null);
  return { bytes: appendTsig(msg, v, mac, (msg[0] << 8) | msg[1]), mac };
}

/** True when `msg` is signed with `material` over `requestMac`, without a TSIG error, within the fudge. */
export function verifyResponse(
  msg: Uint8Array,
  material: TsigKeyMaterial,
  requestMac: Uint8Array,
  now: number,
): boolean {
  const tsig = findTsig(msg);
  if (!tsig || tsig.error !== 0 || !sameBytes(tsig.keyWire, plainNameWire(material.name))) {
    return false;
  }
  const expected = computeMac(material, unsignedPart(msg, tsig), tsig, requestMac);
  return macEqual(expected, tsig.mac) && Math.abs(now - tsig.timeSigned) <= tsig.fudge;
}

/** Secret length of a new key: the MAC length, as RFC 8945 §6 advises. */
export function secretLength(algorithm: TsigAlgorithm): number {
  return ALGORITHMS[algorithm].size;
}
