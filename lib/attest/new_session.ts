/** A session's first state, as `POST /init` creates it (specs/attestation.md, "States and transitions"). */
import { AttestInitError } from "../errors.ts";
import type { Core } from "./core.ts";
import { isValidPublicKey } from "./ed25519.ts";
import { randomMutationOrder } from "./mutation_order.ts";
import { randomProgram } from "./program.ts";
import { randomHex } from "./random_pool.ts";
import type { AttestSession } from "./session_repo.ts";

/** Sessions expire after 30 minutes without an accepted heartbeat. */
export const SESSION_TTL_MS = 30 * 60_000;

/** Random id, salt, program and order; the chain's first hash; the spec's 500 for a bad key. */
export function newSession(
  env: { core: Core; geneSize: number; now: number },
  publicKeyHex: unknown,
  siteId: string | null,
): AttestSession {
  if (typeof publicKeyHex !== "string" || !isValidPublicKey(publicKeyHex)) {
    throw new AttestInitError("Public key is not 64 hex characters of a valid Ed25519 point");
  }
  const publicKey = publicKeyHex.toLowerCase();
  const geneState = env.core.initialGeneState(env.geneSize);
  const sessionId = randomHex(32);
  const salt = randomHex(16);
  const initialHash = env.core.initialHash(sessionId, publicKey, salt);
  if (!initialHash) throw new AttestInitError("Cannot compute the initial hash");
  return {
    session_id: sessionId,
    public_key: publicKey,
    salt,
    last_hash: initialHash,
    pending_step: 1,
    pending_order: randomMutationOrder(),
    gene_state: geneState,
    chain_length: 0,
    program: randomProgram(),
    created_at: env.now,
    expires_at: env.now + SESSION_TTL_MS,
    site_id: siteId,
  };
}
