/**
 * The heartbeat request validated by hand: the same rules as
 * `HeartbeatRequestSchema` (schema.ts), which stays the documented contract
 * and the oracle of this parser's test, without zod's copy of every nested
 * object on the hottest path of the attestation listener.
 */
import { ValidationError } from "../errors.ts";
import type { HeartbeatRequest } from "./messages.ts";
import { MAX_EVENTS } from "./schema.ts";
import { isHex } from "../bytes.ts";

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

function fail(path: string, value: unknown, what: string): never {
  if (value === undefined) throw new ValidationError(`Missing field "${path}"`, path);
  throw new ValidationError(`Invalid field "${path}": expected ${what}`, path);
}

function hex(o: Obj, key: string, bytes: number, path = key): string {
  const v = o[key];
  if (!isHex(v, bytes)) fail(path, v, `${bytes * 2} hex characters`);
  return v as string;
}

function int(o: Obj, key: string, min: number, max: number, path = key): number {
  const v = o[key];
  if (typeof v !== "number" || !Number.isInteger(v) || v < min || v > max) {
    fail(path, v, `an integer from ${min} to ${max}`);
  }
  return v;
}

const isNum = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);

function num(o: Obj, key: string, path: string): number {
  const v = o[key];
  if (!isNum(v)) fail(path, v, "a number");
  return v;
}

function str(o: Obj, key: string, max: number, path: string): string {
  const v = o[key];
  if (typeof v !== "string" || v.length > max) {
    fail(path, v, `a string of at most ${max} characters`);
  }
  return v;
}

function obj(o: Obj, key: string): Obj {
  const v = o[key];
  if (!isObj(v)) fail(key, v, "an object");
  return v;
}

/** A validated heartbeat request; throws ValidationError naming the first bad field. */
export function parseHeartbeat(value: unknown): HeartbeatRequest {
  if (!isObj(value)) throw new ValidationError("Invalid request body: expected an object");
  const entropy = obj(value, "entropy_data");
  const rawEvents = entropy.events;
  if (!Array.isArray(rawEvents) || rawEvents.length > MAX_EVENTS) {
    fail("entropy_data.events", rawEvents, `an array of at most ${MAX_EVENTS} samples`);
  }
  // An index loop, not map(): map() would skip holes in a sparse array.
  const events = new Array<{ x: number; y: number; t: number }>(rawEvents.length);
  for (let i = 0; i < rawEvents.length; i++) {
    const e = rawEvents[i];
    // Field paths are only built for the error: a heartbeat carries dozens of samples.
    if (isObj(e) && isNum(e.x) && isNum(e.y) && isNum(e.t)) {
      events[i] = { x: e.x, y: e.y, t: e.t };
      continue;
    }
    const path = `entropy_data.events.${i}`;
    if (!isObj(e)) fail(path, e, "an object");
    num(e, "x", `${path}.x`);
    num(e, "y", `${path}.y`);
    num(e, "t", `${path}.t`);
  }
  const stackState = obj(value, "stack_state");
  const stack = stackState.stack;
  if (!Array.isArray(stack) || stack.length > 256) {
    fail("stack_state.stack", stack, "an array of at most 256 numbers");
  }
  for (let i = 0; i < stack.length; i++) {
    int(stack as unknown as Obj, String(i), 0, 0xffff_ffff, `stack_state.stack.${i}`);
  }
  const fp = obj(value, "fingerprint");
  return {
    session_id: hex(value, "session_id", 32),
    prev_hash: hex(value, "prev_hash", 32),
    timestamp: int(value, "timestamp", 0, Number.MAX_SAFE_INTEGER),
    entropy_data: { events },
    stack_state: {
      stack: stack as number[],
      ip: int(stackState, "ip", 0, 0xffff, "stack_state.ip"),
    },
    fingerprint: {
      aspectRatio: str(fp, "aspectRatio", 64, "fingerprint.aspectRatio"),
      devicePixelRatio: str(fp, "devicePixelRatio", 64, "fingerprint.devicePixelRatio"),
      hardwareConcurrency: int(
        fp,
        "hardwareConcurrency",
        0,
        1_000_000,
        "fingerprint.hardwareConcurrency",
      ),
    },
    mutation_step: int(value, "mutation_step", 0, Number.MAX_SAFE_INTEGER),
    gene_commitment: hex(value, "gene_commitment", 32),
    signature: hex(value, "signature", 64),
  };
}
