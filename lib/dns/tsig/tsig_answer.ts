/**
 * The DNS listener's side of TSIG: a signed query is checked, answered
 * through `inner` and every response message signed; a failed check gets
 * the NOTAUTH answer RFC 8945 §5.2 describes. Which zones a key may transfer
 * is decided here too (docs/dns.md, "TSIG").
 */
import type { StoredTsigKey, TsigKeyRow, TsigPermission } from "./key_repo.ts";
import { signResponses, tsigErrorAnswer, type TsigKeyring, verifyRequest } from "./sign.ts";
import { tsigSize } from "./wire.ts";

const RCODE_FORMERR = 1;
const RCODE_NOTAUTH = 9;

/** True when `key` has `permission` for `zone` (a key naming no zones covers every zone). */
export function keyAllows(key: TsigKeyRow, zone: string, permission: TsigPermission): boolean {
  return key.permissions.includes(permission) &&
    (key.zones.length === 0 || key.zones.includes(zone));
}

/**
 * What `inner` answers: the unsigned response messages, or "denied" when the
 * key is valid but not for this (NOTAUTH with TSIG error BADKEY, unsigned,
 * as Knot answers a signed request its ACL denies).
 */
export type InnerAnswer = Uint8Array[] | "denied";

/** Answers now, or later when they wait on the store (a dynamic update, an IXFR journal read). */
export type Answers = Uint8Array[] | Promise<Uint8Array[]>;

/**
 * The answer to the signed query `msg`. `inner` gets the key and the bytes
 * the TSIG record will add (to keep a UDP answer within its limit);
 * `bare(rcode)` builds an empty answer with that rcode.
 */
export function tsigAnswer(
  msg: Uint8Array,
  keys: TsigKeyring,
  now: number,
  inner: (key: StoredTsigKey, reserve: number) => InnerAnswer | Promise<InnerAnswer>,
  bare: (rcode: number) => Uint8Array,
): Answers {
  const check = verifyRequest(msg, keys, now);
  if (check.status === "unsigned" || check.status === "formerr") return [bare(RCODE_FORMERR)];
  if (check.status !== "ok") return [tsigErrorAnswer(bare(RCODE_NOTAUTH), check, now)];
  const finish = (out: InnerAnswer) =>
    out === "denied"
      ? [tsigErrorAnswer(bare(RCODE_NOTAUTH), { status: "badkey", tsig: check.tsig }, now)]
      : signResponses(out, check.material, check.tsig, now);
  const out = inner(check.key, tsigSize(check.material));
  return out instanceof Promise ? out.then(finish) : finish(out);
}
