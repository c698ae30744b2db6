/**
 * `POST /token` (docs/attestation_sites.md, "Tokens and siteverify"): the
 * page's script hands in a token it signed with its session's key inside
 * WASM; the server checks it against the session and the site and registers
 * it as issued. Only registered tokens pass siteverify, so a token built
 * without this step (or for a session below the site's min_chain) is worth
 * nothing. Refusals say what an honest client can fix, nothing more.
 */
import { sha256Hex } from "../../auth/secret.ts";
import type { Clock } from "../../clock.ts";
import { ConflictError, ForbiddenError } from "../../errors.ts";
import type { Ed25519Verifier } from "../ed25519.ts";
import type { SiteRepoAsync } from "../sites/site_repo.ts";
import type { SiteDirectory, SiteEntry } from "../sites/site_directory.ts";
import { type ParsedToken, parseToken, signedText } from "./token_claims.ts";
import type { TokenCounters } from "./token_counters.ts";
import type { AttestTokenRepoAsync } from "./token_repo.ts";

/** How far a token's iat may be from the server's clock: the heartbeats' drift allowance. */
export const TOKEN_DRIFT_MS = 30_000;

export interface TokenIssueDeps {
  repo: Pick<AttestTokenRepoAsync, "session" | "insert">;
  sites: Pick<SiteRepoAsync, "byId">;
  directory: Pick<SiteDirectory, "byKey">;
  clock: Clock;
  counters: TokenCounters;
  verifier: Ed25519Verifier;
}

export interface IssuedToken {
  token: string;
  /** ISO time after which siteverify answers timeout-or-duplicate. */
  expires_at: string;
}

/** The hostnames of a site's origins ("https://shop.example:8443" → "shop.example"). */
function hostnames(entry: SiteEntry): Set<string> {
  const out = new Set<string>();
  // As location.hostname gives it (an IPv6 literal keeps its brackets).
  for (const o of entry.origins) out.add(new URL(o).hostname);
  return out;
}

/**
 * Every refusal of a well-formed request is a 403 (or a 409 for what waiting
 * or a new token fixes): 400 stays for a body the schema refuses.
 */
function refused(message: string, code: string): ForbiddenError {
  return new ForbiddenError(message, { field: "token", code });
}

export async function issueToken(
  d: TokenIssueDeps,
  token: unknown,
  origin: string | null,
): Promise<IssuedToken> {
  const parsed = parseToken(token);
  if (!parsed) throw refused("Token claims are malformed", "malformed");
  const entry = d.directory.byKey(parsed.claims.site);
  if (!entry) {
    throw refused(`Unknown site key ${JSON.stringify(parsed.claims.site)}`, "unknown_site");
  }
  try {
    const issued = await checkAndRegister(d, parsed, token as string, entry, origin);
    d.counters.add(entry.slot, "issued", entry.id);
    return issued;
  } catch (err) {
    d.counters.add(entry.slot, "refused", entry.id);
    throw err;
  }
}

async function checkAndRegister(
  d: TokenIssueDeps,
  { c, signature, claims }: ParsedToken,
  token: string,
  entry: SiteEntry,
  origin: string | null,
): Promise<IssuedToken> {
  if (origin === null || !entry.origins.has(origin)) {
    throw new ForbiddenError(
      `Origin ${JSON.stringify(origin)} is not one of the site's origins`,
      "origin",
    );
  }
  const now = d.clock.now();
  const session = await d.repo.session(claims.sid);
  if (!session || now > session.expires_at) {
    throw refused("Session is unknown or expired", "unknown_session");
  }
  if (session.site_id !== entry.id) {
    throw refused("Session was not created for this site", "wrong_site");
  }
  if (!d.verifier.verify(session.public_key, signedText(c), signature)) {
    throw refused("Token signature is not the session's", "bad_signature");
  }
  if (Math.abs(claims.iat - now) > TOKEN_DRIFT_MS) {
    throw refused(
      `Token time is more than ${TOKEN_DRIFT_MS / 1000} s from the server's`,
      "clock_drift",
    );
  }
  if (!hostnames(entry).has(claims.hn)) {
    throw refused(
      `Hostname ${JSON.stringify(claims.hn)} is not one of the site's`,
      "wrong_hostname",
    );
  }
  const site = await d.sites.byId(entry.id);
  if (!site) throw refused("Unknown site", "unknown_site");
  if (session.chain_length < site.min_chain || claims.chain > session.chain_length) {
    throw new ConflictError(
      `Chain too short: the session has ${session.chain_length} accepted heartbeats, the site needs ${site.min_chain}`,
      { field: "token", code: "chain_too_short" },
    );
  }
  const expiresAt = now + site.token_ttl_s * 1000;
  const fresh = await d.repo.insert({
    token_id: sha256Hex(token),
    site_id: site.id,
    session_id: claims.sid,
    issued_at: now,
    expires_at: expiresAt,
    chain_length: session.chain_length,
    session_age_ms: Math.max(0, now - session.created_at),
  });
  if (!fresh) {
    throw new ConflictError("Token was issued already", { field: "token", code: "duplicate" });
  }
  return { token, expires_at: new Date(expiresAt).toISOString() };
}
