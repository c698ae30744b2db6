/** The attestation protocol's messages (specs/attestation.md), snake_case as on the wire. */
import type { EntropyEvent, Fingerprint, StackState } from "./canonical.ts";
import type { RejectReason } from "./metrics.ts";

/** `/init`'s answer. */
export interface InitResponse {
  session_id: string;
  salt: string;
  opcodes_b64: string;
  initial_hash: string;
  expires_at: number;
  heartbeat_min_interval_ms: number;
  heartbeat_max_interval_ms: number;
  gene_size: number;
  mutation_step: number;
  mutation_order_b64: string;
}

/** A decoded heartbeat request. */
export interface HeartbeatRequest {
  session_id: string;
  prev_hash: string;
  timestamp: number;
  entropy_data: { events: EntropyEvent[] };
  stack_state: StackState;
  fingerprint: Fingerprint;
  mutation_step: number;
  gene_commitment: string;
  signature: string;
}

/** `/hb`'s answer to an accepted heartbeat. */
export interface Accepted {
  status: "ok";
  next_salt: string;
  next_mutation_step: number;
  next_mutation_order_b64: string;
}

export type HeartbeatOutcome =
  | { accepted: true; response: Accepted }
  | { accepted: false; reason: RejectReason };
