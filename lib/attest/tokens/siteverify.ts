/**
 * `POST /siteverify`, compatible with Cloudflare Turnstile's (docs/attestation_sites.md,
 * "Tokens and siteverify"): a site's server sends its secret and the token
 * its form received, and gets Turnstile's answer fields plus the session's
 * chain length, age and signals. Always an answer, never an exception: a
 * failure is `success: false` with one error code, checked in this order:
 * missing-input-secret, invalid-input-secret, missing-input-response,
 * invalid-input-response, timeout-or-duplicate; internal-error on a store
 * failure. The first successful verify marks the token used with a
 * conditional write (only while unused), so of two concurrent verifies exactly one succeeds; a
 * retry carrying that verify's idempotency_key gets its answer again.
 */
import { safeEqual, sha256Hex } from "../../auth/secret.ts";
import { type Clock, isoTime } from "../../clock.ts";
import type { Logger } from "../../log/log.ts";
import {
  clientReportedSignals,
  type Signals,
  type SignalSource,
} from "../signals/session_signals.ts";
import type { SiteRepoAsync, SiteRow } from "../sites/site_repo.ts";
import { parseToken, TOKEN_MAX_LENGTH } from "./token_claims.ts";
import type { SiteverifyError, TokenCounters } from "./token_counters.ts";
import type { AttestTokenRepoAsync, TokenRow } from "./token_repo.ts";

export interface SiteverifyInput {
  secret?: unknown;
  response?: unknown;
  /** Accepted for compatibility; tokens are not bound to an address. */
  remoteip?: unknown;
  idempotency_key?: unknown;
}

export interface SiteverifyAnswer {
  success: boolean;
  challenge_ts?: string;
  hostname?: string;
  "error-codes": SiteverifyError[];
  messages?: string[];
  action?: string;
  cdata?: string;
  chain_length?: number;
  session_age_ms?: number;
  signals?: Signals;
}

export interface SiteverifyDeps {
  repo: Pick<AttestTokenRepoAsync, "byId" | "markUsed">;
  sites: Pick<SiteRepoAsync, "bySecretHash">;
  clock: Clock;
  counters: TokenCounters;
  log: Logger;
  signals?: SignalSource;
}

const failure = (code: SiteverifyError): SiteverifyAnswer => ({
  success: false,
  "error-codes": [code],
  messages: [],
});

/** The site whose secret this is (by SHA-256, then compared in constant time), or null. */
async function siteOfSecret(d: SiteverifyDeps, secret: string): Promise<SiteRow | null> {
  if (!secret.startsWith("sk_")) return null;
  const hash = sha256Hex(secret);
  const row = await d.sites.bySecretHash(hash);
  return row && safeEqual(hash, row.secret_hash) ? row : null;
}

function idempotencyKey(v: unknown): string | null {
  return typeof v === "string" && v.length > 0 && v.length <= 128 ? v : null;
}

export async function siteverify(
  d: SiteverifyDeps,
  input: SiteverifyInput,
): Promise<SiteverifyAnswer> {
  let slot = -1;
  let siteId: string | null = null;
  const count = (field: SiteverifyError | "reused" | "verified") =>
    d.counters.add(slot, field, siteId);
  const fail = (code: SiteverifyError) => {
    count(code);
    return failure(code);
  };
  try {
    const { secret, response } = input;
    if (typeof secret !== "string" || secret === "") return fail("missing-input-secret");
    const site = await siteOfSecret(d, secret);
    if (!site) return fail("invalid-input-secret");
    slot = site.counter_slot ?? -1;
    siteId = site.id;
    if (typeof response !== "string" || response === "") return fail("missing-input-response");
    const parsed = response.length <= TOKEN_MAX_LENGTH ? parseToken(response) : null;
    const tokenId = sha256Hex(response);
    const row = parsed && await d.repo.byId(tokenId);
    if (!parsed || !row || row.site_id !== site.id) return fail("invalid-input-response");
    const key = idempotencyKey(input.idempotency_key);
    const again = row.used_at === null ? null : replay(row, key);
    if (again) return again;
    const now = d.clock.now();
    if (row.used_at !== null || now > row.expires_at) {
      if (row.used_at !== null) count("reused");
      return fail("timeout-or-duplicate");
    }
    const answer: SiteverifyAnswer = {
      success: true,
      challenge_ts: isoTime(row.issued_at),
      hostname: parsed.claims.hn,
      "error-codes": [],
      messages: [],
      action: parsed.claims.action ?? "",
      cdata: parsed.claims.cdata ?? "",
      chain_length: row.chain_length,
      session_age_ms: row.session_age_ms,
      signals: await (d.signals ?? clientReportedSignals).forSession(
        row.session_id,
        parsed.claims.env,
      ),
    };
    // One conditional statement: of concurrent verifies (any thread, any instance) one wins.
    const won = await d.repo.markUsed(tokenId, now, key, JSON.stringify(answer));
    if (!won) {
      // Another verify marked it between our read and our write.
      const winner = await d.repo.byId(tokenId);
      const same = winner && replay(winner, key);
      if (same) return same;
      count("reused");
      return fail("timeout-or-duplicate");
    }
    count("verified");
    return answer;
  } catch (err) {
    d.log.error("siteverify failed", { error: (err as Error).message });
    return fail("internal-error");
  }
}

/** The first answer again, when this verify repeats the winner's idempotency key. */
function replay(row: TokenRow, key: string | null): SiteverifyAnswer | null {
  if (key === null || row.idempotency_key === null || row.result === null) return null;
  return safeEqual(key, row.idempotency_key) ? JSON.parse(row.result) as SiteverifyAnswer : null;
}
