/** A session's first state, as `POST /init` creates it (specs/attestation.md, "States and transitions"). */
import { AttestInitError } from "../errors.ts";
import type { Core } from "./core.ts";
import { isValidPublicKey } from "./ed25519.ts";
import { randomMutationOrder } from "./mutation_order.ts";
import { randomProgram } from "./program.ts";
import { randomHex } from "./random_pool.ts";
import type { Logger } from "../log/log.ts";
import type { InitResponse } from "./messages.ts";
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

/** `/init`'s answer for a session just stored (both engines answer alike). */
export function initResponse(
  s: AttestSession,
  options: { heartbeatMinMs: number; heartbeatMaxMs: number },
): InitResponse {
  return {
    session_id: s.session_id,
    salt: s.salt,
    opcodes_b64: s.program,
    initial_hash: s.last_hash,
    expires_at: s.expires_at,
    heartbeat_min_interval_ms: options.heartbeatMinMs,
    heartbeat_max_interval_ms: options.heartbeatMaxMs,
    gene_size: s.gene_state.length,
    mutation_step: 1,
    mutation_order_b64: s.pending_order,
  };
}

/**
 * A failed `/init`, counted and logged by reason only; the client gets the
 * spec's bare AttestInitError, whatever the cause.
 */
export function initFailure(
  err: unknown,
  counters: { add(name: "initFailures"): void },
  log: Logger,
): AttestInitError {
  counters.add("initFailures");
  log.warn("attestation init failed", { reason: (err as Error).message });
  return err instanceof AttestInitError ? err : new AttestInitError("Session creation failed");
}
