/**
 * Byte-exact JSON for the heartbeat signature and the hash chain
 * (docs/attestation.md, "Hash chain and canonical payload"). Pure functions
 * with no imports, so the browser bundle and the server use the same code.
 * Objects are rebuilt field by field so that extra or reordered fields in the
 * input cannot change the bytes.
 */

/** One mouse sample. */
export interface EntropyEvent {
  x: number;
  y: number;
  t: number;
}

/** VM output as sent in stack_state. */
export interface StackState {
  stack: number[];
  ip: number;
}

/** Device fingerprint as sent in the heartbeat. */
export interface Fingerprint {
  aspectRatio: string;
  devicePixelRatio: string;
  hardwareConcurrency: number;
}

/** The signed fields of a heartbeat, in the request's terms. */
export interface HeartbeatFields {
  sessionId: string;
  prevHash: string;
  timestamp: number;
  events: EntropyEvent[];
  stackState: StackState;
  fingerprint: Fingerprint;
  mutationStep: number;
  geneCommitment: string;
}

function entropyObject(events: EntropyEvent[]) {
  return { events: events.map((e) => ({ t: e.t, x: e.x, y: e.y })) };
}

function stackObject(s: StackState) {
  return { ip: s.ip, stack: [...s.stack] };
}

/** JSON of entropy_data whose BLAKE3 enters H(n): {"events":[{"t":…,"x":…,"y":…},…]}. */
export function entropyJson(events: EntropyEvent[]): string {
  return JSON.stringify(entropyObject(events));
}

/** JSON of stack_state whose BLAKE3 enters H(n): {"ip":…,"stack":[…]}. */
export function stackJson(state: StackState): string {
  return JSON.stringify(stackObject(state));
}

/**
 * The canonical signing payload: keys sorted at every level, no whitespace.
 * `entropy` and `stack` may be passed when already serialized (the server
 * needs the same strings for the hash chain), so they are built once.
 */
export function canonicalPayload(
  h: HeartbeatFields,
  entropy = entropyJson(h.events),
  stack = stackJson(h.stackState),
): string {
  // Spliced by hand in key order; JSON.stringify quotes every string value.
  return `{"entropyData":${entropy},"fingerprint":${
    JSON.stringify({
      aspectRatio: h.fingerprint.aspectRatio,
      devicePixelRatio: h.fingerprint.devicePixelRatio,
      hardwareConcurrency: h.fingerprint.hardwareConcurrency,
    })
  },"geneCommitment":${JSON.stringify(h.geneCommitment)},"mutationStep":${
    JSON.stringify(h.mutationStep)
  },"prevHash":${JSON.stringify(h.prevHash)},"sessionId":${
    JSON.stringify(h.sessionId)
  },"stackState":${stack},"timestamp":${JSON.stringify(h.timestamp)}}`;
}
