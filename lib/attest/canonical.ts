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

/** The canonical signing payload: keys sorted at every level, no whitespace. */
export function canonicalPayload(h: HeartbeatFields): string {
  return JSON.stringify({
    entropyData: entropyObject(h.events),
    fingerprint: {
      aspectRatio: h.fingerprint.aspectRatio,
      devicePixelRatio: h.fingerprint.devicePixelRatio,
      hardwareConcurrency: h.fingerprint.hardwareConcurrency,
    },
    geneCommitment: h.geneCommitment,
    mutationStep: h.mutationStep,
    prevHash: h.prevHash,
    sessionId: h.sessionId,
    stackState: stackObject(h.stackState),
    timestamp: h.timestamp,
  });
}
