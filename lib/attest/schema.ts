/**
 * Wire schemas of the attestation API. A body that is not JSON or does not
 * have the spec's fields and types is refused with 400 before any check runs;
 * every check after decoding answers the bare `{"status":"ok"}`.
 */
import { z } from "zod";

const hex = (bytes: number) => z.string().regex(new RegExp(`^[0-9a-fA-F]{${bytes * 2}}$`));
// JSON has no Infinity or NaN, and zod 4's number() refuses them anyway.
const finite = z.number();
/** Bounded so a single request cannot make the checks do unbounded work. */
export const MAX_EVENTS = 4096;
const u32 = z.number().int().min(0).max(0xffff_ffff);

export const InitRequest = z.object({
  // Any value is accepted here: an invalid key is the spec's HTTP 500, decided by the service.
  public_key: z.unknown().optional(),
});

export const InitResponseSchema = z.object({
  session_id: z.string(),
  salt: z.string(),
  opcodes_b64: z.string(),
  initial_hash: z.string(),
  expires_at: z.number().int(),
  heartbeat_min_interval_ms: z.number().int(),
  heartbeat_max_interval_ms: z.number().int(),
  gene_size: z.number().int(),
  mutation_step: z.number().int(),
  mutation_order_b64: z.string(),
});

export const HeartbeatRequestSchema = z.object({
  session_id: hex(32),
  prev_hash: hex(32),
  timestamp: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  entropy_data: z.object({
    events: z.array(z.object({ x: finite, y: finite, t: finite })).max(MAX_EVENTS),
  }),
  stack_state: z.object({
    stack: z.array(u32).max(256),
    ip: z.number().int().min(0).max(0xffff),
  }),
  fingerprint: z.object({
    aspectRatio: z.string().max(64),
    devicePixelRatio: z.string().max(64),
    hardwareConcurrency: z.number().int().min(0).max(1_000_000),
  }),
  mutation_step: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  gene_commitment: hex(32),
  signature: hex(64),
});

export const HeartbeatResponseSchema = z.object({
  status: z.literal("ok"),
  next_salt: z.string().optional(),
  next_mutation_step: z.number().int().optional(),
  next_mutation_order_b64: z.string().optional(),
});

export const StatsSchema = z.object({
  sessions: z.number().int(),
  expired_sessions: z.number().int(),
  max_chain_length: z.number().int(),
});
