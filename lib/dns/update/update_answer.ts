/**
 * The DNS listener's side of a dynamic update (opcode 5): an unsigned one is
 * REFUSED; a signed one is checked as any signed request (tsig_answer.ts:
 * NOTAUTH with the TSIG error when the key or MAC is wrong, NOTAUTH/BADKEY
 * when the key may not update the zone), handed to the updater, and its
 * answer, the zone section echoed with the update's response code, signed.
 */
import type { Query } from "../query.ts";
import { buildResponse } from "../response.ts";
import type { TsigKeyring } from "../tsig/sign.ts";
import { type Answers, tsigAnswer } from "../tsig/tsig_answer.ts";
import { findTsig } from "../tsig/wire.ts";
import type { UpdateHandler } from "./dns_update.ts";
import { Rcode } from "./update_rules.ts";

/** Answers big enough for a header, the zone section and a TSIG record. */
const LIMIT = 65535;

export function updateAnswer(
  msg: Uint8Array,
  q: Query,
  keys: TsigKeyring | undefined,
  updates: UpdateHandler | undefined,
  now: number,
): Answers {
  const bare = (rcode: number) => buildResponse(msg, q, rcode, false, null, {}, LIMIT);
  // No updates without a key (docs/dns.md, "Dynamic updates"): an unsigned one is refused outright.
  if (!keys || !updates || findTsig(msg) === undefined) return [bare(Rcode.refused)];
  return tsigAnswer(msg, keys, now, async (key) => {
    const rcode = await updates.handle(msg, key);
    return rcode === "denied" ? rcode : [bare(rcode)];
  }, bare);
}
