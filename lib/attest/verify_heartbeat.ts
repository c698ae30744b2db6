/**
 * Checks 4–11 of the spec's table and the next chain head (step 12), as one
 * pure function of the heartbeat and a snapshot of its session, so that every
 * thread serving the listener reaches the same verdict for the same reason.
 */
import { canonicalPayload, entropyJson, stackJson } from "./canonical.ts";
import { checkDrift, checkFingerprint, checkMouse } from "./checks.ts";
import type { Core } from "./core.ts";
import type { Ed25519Verifier } from "./ed25519.ts";
import type { RejectReason } from "./metrics.ts";
import type { HeartbeatRequest } from "./messages.ts";
import type { HeartbeatSnapshot } from "./session_repo.ts";

/** The session fields the checks read. */
export type SessionSnapshot = Omit<HeartbeatSnapshot, "chain_length" | "expires_at">;

export type Verdict =
  | { ok: true; nextHash: string; nextGene: Uint8Array }
  | { ok: false; reason: RejectReason };

/** Runs checks 4–11 in order; on success returns H(n) and the advanced gene state. */
export function verifyHeartbeat(
  hb: HeartbeatRequest,
  s: SessionSnapshot,
  now: number,
  core: Core,
  verifier: Ed25519Verifier,
): Verdict {
  // 4. Signature over the canonical payload rebuilt from the request.
  const entropy = entropyJson(hb.entropy_data.events);
  const stack = stackJson(hb.stack_state);
  const payload = canonicalPayload(
    {
      sessionId: hb.session_id,
      prevHash: hb.prev_hash,
      timestamp: hb.timestamp,
      events: hb.entropy_data.events,
      stackState: hb.stack_state,
      fingerprint: hb.fingerprint,
      mutationStep: hb.mutation_step,
      geneCommitment: hb.gene_commitment,
    },
    entropy,
    stack,
  );
  if (!verifier.verify(s.public_key, payload, hb.signature)) {
    return { ok: false, reason: "signature" };
  }
  // 5. Hash chain.
  if (hb.prev_hash.toLowerCase() !== s.last_hash) return { ok: false, reason: "hash_chain" };
  // 6. Mutation step.
  if (hb.mutation_step !== s.pending_step) return { ok: false, reason: "mutation_step" };
  // 7. The pending mutation, applied to a copy of the gene state.
  const advanced = core.advanceGene(s.gene_state, s.pending_order, s.session_id, s.pending_step);
  if (!advanced) return { ok: false, reason: "mutation" };
  // 8. Gene commitment.
  if (hb.gene_commitment.toLowerCase() !== advanced.commitment) {
    return { ok: false, reason: "gene_commitment" };
  }
  // 9–11. Timestamp drift, mouse path, fingerprint.
  const behaviour = checkDrift(hb.timestamp, now) ?? checkMouse(hb.entropy_data.events) ??
    checkFingerprint(hb.fingerprint);
  if (behaviour) return { ok: false, reason: behaviour };
  // 12. H(n), with the salt that was current when the heartbeat was sent.
  const nextHash = core.nextHash(s.last_hash, hb.timestamp, entropy, stack, s.salt);
  // Inputs were validated, so this means a fault in the core, not a bad heartbeat.
  if (!nextHash) return { ok: false, reason: "internal_error" };
  return { ok: true, nextHash, nextGene: advanced.state };
}
