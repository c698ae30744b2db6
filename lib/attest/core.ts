/**
 * The attestation core on the server: the same .wasm the browser runs, loaded
 * from disk, with typed functions for session handling. The server keeps each
 * session's gene state as bytes (e.g. a BLOB column) and uses advanceGene()
 * on a copy to get the expected commitment and the next state, so browser
 * and server cannot disagree about the rules.
 *
 * One instance serves the whole process: every call is synchronous and the
 * instance keeps no per-session state in these functions.
 */
import { ValidationError } from "../errors.ts";
import {
  type AttestCore,
  GENE_SIZE_MAX,
  GENE_SIZE_MIN,
  type GeneAdvance,
  loadAttestCore,
  type ProgramResult,
} from "../../wasm/glue.ts";

export type { GeneAdvance, ProgramResult };
// The core's protocol limits, for the modules that build programs and orders.
export {
  GENE_SIZE_MAX,
  GENE_SIZE_MIN,
  MUTATION_OP_BYTES,
  MUTATION_OP_KINDS,
  MUTATION_ORDER_HEADER_BYTES,
  MUTATION_ORDER_MAX_OPS,
  MUTATION_ORDER_MAX_ROUNDS,
  MUTATION_ORDER_VERSION,
  PROGRAM_MAX_OPS,
  PROGRAM_MIN_OPS,
} from "../../wasm/glue.ts";

/** Where `deno task build` writes the module. */
export const DEFAULT_ATTEST_WASM = new URL("../../wasm/build/attest.wasm", import.meta.url);

/** Typed server functions of the attestation core. */
export interface Core {
  /** Initial gene state of size bytes; throws ValidationError for sizes outside 64..65536. */
  initialGeneState(size: number): Uint8Array;
  /** Next state and its commitment after the order, or null when any input is malformed. */
  advanceGene(
    state: Uint8Array,
    orderB64: string,
    sessionIdHex: string,
    step: number | bigint,
  ): GeneAdvance | null;
  /** Commitment hex of a state, "" when an input is malformed. */
  geneCommitment(state: Uint8Array, sessionIdHex: string, step: number | bigint): string;
  /** The rounds byte of an order, 0 when it is malformed. */
  orderRounds(orderB64: string): number;
  /** H(0) hex, "" when an input is malformed. */
  initialHash(sessionIdHex: string, publicKeyHex: string, saltHex: string): string;
  /** H(n) hex, "" when an input is malformed. */
  nextHash(
    prevHex: string,
    timestamp: number | bigint,
    entropyJson: string,
    stackJson: string,
    saltHex: string,
  ): string;
  /** Runs a VM program as the browser does. */
  runProgram(programB64: string): ProgramResult;
  /** BLAKE3 of bytes (32 bytes). */
  blake3(bytes: Uint8Array): Uint8Array;
  /** The underlying glue object, for tests and tools. */
  readonly raw: AttestCore;
}

/** True when size is a valid gene size (an integer in 64..65536). */
export function isValidGeneSize(size: number): boolean {
  return Number.isInteger(size) && size >= GENE_SIZE_MIN && size <= GENE_SIZE_MAX;
}

/** Loads the core from a .wasm file (default wasm/build/attest.wasm). */
export async function loadCore(path: string | URL = DEFAULT_ATTEST_WASM): Promise<Core> {
  let bytes: Uint8Array;
  try {
    bytes = await Deno.readFile(path);
  } catch (err) {
    throw new Error(
      `Cannot read attestation core "${String(path)}": ${
        (err as Error).message
      } (run deno task build)`,
    );
  }
  return coreOf(await loadAttestCore(bytes));
}

/** Wraps an already loaded glue object. */
export function coreOf(raw: AttestCore): Core {
  return {
    raw,
    initialGeneState(size) {
      const state = isValidGeneSize(size) ? raw.initialGeneState(size) : null;
      if (!state) {
        throw new ValidationError(
          `Gene size ${size} is outside ${GENE_SIZE_MIN}..${GENE_SIZE_MAX}`,
          "gene_size",
        );
      }
      return state;
    },
    advanceGene: (state, orderB64, sessionIdHex, step) =>
      raw.applyMutationAndCommit(state, orderB64, sessionIdHex, step),
    geneCommitment: (state, sessionIdHex, step) => raw.commitment(state, sessionIdHex, step),
    orderRounds: (orderB64) => raw.mutation_order_rounds(orderB64),
    initialHash: (sid, pk, salt) => raw.initialHash(sid, pk, salt),
    nextHash: (prev, ts, entropy, stack, salt) =>
      raw.compute_next_hash(prev, ts, entropy, stack, salt),
    runProgram: (b64) => raw.run_program(b64),
    blake3: (bytes) => raw.blake3(bytes),
  };
}
