/**
 * Server-side generation of attestation VM programs. Every byte is a valid
 * instruction (high nibble opcode, low nibble operand; docs/attestation.md,
 * "VM"), so a random program is random bytes of a random valid length.
 */
import { PROGRAM_MAX_OPS, PROGRAM_MIN_OPS } from "./core.ts";
import { toBase64 } from "../bytes.ts";

/** Source of random bytes; crypto.getRandomValues by default, injectable for tests. */
export type RandomBytes = (n: number) => Uint8Array;

const cryptoBytes: RandomBytes = (n) => crypto.getRandomValues(new Uint8Array(n));

/** Uniform integer in [0, bound) by rejection sampling (no modulo bias). */
export function randomBelow(bound: number, random: RandomBytes = cryptoBytes): number {
  if (!Number.isInteger(bound) || bound < 1 || bound > 256) {
    throw new RangeError(`Bound ${bound} is outside 1..256`);
  }
  const limit = 256 - (256 % bound);
  for (;;) {
    const b = random(1)[0];
    if (b < limit) return b % bound;
  }
}

/** A random VM program of 8..16 instructions, as raw bytes. */
export function randomProgramBytes(random: RandomBytes = cryptoBytes): Uint8Array {
  const len = PROGRAM_MIN_OPS + randomBelow(PROGRAM_MAX_OPS - PROGRAM_MIN_OPS + 1, random);
  return random(len);
}

/** A random VM program of 8..16 instructions, base64 (the `opcodes_b64` of POST /init). */
export function randomProgram(random: RandomBytes = cryptoBytes): string {
  return toBase64(randomProgramBytes(random));
}
