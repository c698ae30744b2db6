/**
 * Plain TypeScript restatements of the deterministic parts of the core, written
 * from docs/attestation.md with @noble/hashes. Tests compare the WASM against
 * them on random inputs, which checks the document as much as the code.
 */
import { blake3 } from "@noble/hashes/blake3.js";

const enc = new TextEncoder();

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

function u64le(v: bigint): Uint8Array {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, v, true);
  return b;
}

function u32le(v: number): Uint8Array {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, v, true);
  return b;
}

/** The VM of docs/attestation.md. */
export function referenceVm(prog: Uint8Array): { stack: number[]; ip: number } | null {
  if (prog.length < 8 || prog.length > 16) return null;
  const stack: number[] = [];
  const push = (v: number) => {
    if (stack.length === 32) stack.shift();
    stack.push(v >>> 0);
  };
  const pop = () => stack.pop() ?? 0;
  const rotl = (x: number, r: number) => ((x << r) | (x >>> (32 - r))) >>> 0;
  let ip = 0;
  let steps = 0;
  while (ip < prog.length && steps < 256) {
    steps++;
    const here = ip;
    const op = prog[ip] >> 4;
    const n = prog[ip] & 15;
    ip++;
    switch (op) {
      case 0x0:
        push(n);
        break;
      case 0x1:
        push(Math.imul(n + 1, 0x9e3779b9));
        break;
      case 0x2:
        push(stack.length === 0 ? 0 : stack[stack.length - 1 - (n % stack.length)]);
        break;
      case 0x3: {
        const b = pop(), a = pop();
        push(a + b);
        break;
      }
      case 0x4: {
        const b = pop(), a = pop();
        push(a - b);
        break;
      }
      case 0x5: {
        const b = pop(), a = pop();
        push(Math.imul(a, b));
        break;
      }
      case 0x6: {
        const b = pop(), a = pop();
        push(a ^ b);
        break;
      }
      case 0x7: {
        const b = pop(), a = pop();
        push(a & b);
        break;
      }
      case 0x8: {
        const b = pop(), a = pop();
        push(a | b);
        break;
      }
      case 0x9:
        push(rotl(pop(), n + 1));
        break;
      case 0xa:
        push(pop() >>> (n + 1));
        break;
      case 0xb:
        if (stack.length >= 2) {
          const top = stack.length - 1;
          const j = top - 1 - (n % (stack.length - 1));
          [stack[top], stack[j]] = [stack[j], stack[top]];
        }
        break;
      case 0xc:
        pop();
        break;
      case 0xd:
        if (pop() !== 0) ip = Math.max(0, here - (n + 1));
        break;
      case 0xe:
        if (pop() === 0) ip = Math.min(prog.length, here + n + 2);
        break;
      default: {
        const b = pop(), a = pop();
        const x = Math.imul((a ^ rotl(b, n + 1)) >>> 0, 0x9e3779b1) >>> 0;
        push(x ^ (x >>> 15));
      }
    }
  }
  return { stack, ip };
}

/** Initial gene state of docs/attestation.md. */
export function referenceGeneInit(size: number): Uint8Array {
  return blake3(concat(enc.encode("palisade.attest.v1.gene-init"), u32le(size)), { dkLen: size });
}

/** Gene commitment of docs/attestation.md. */
export function referenceCommit(gene: Uint8Array, sid: Uint8Array, step: bigint): Uint8Array {
  return blake3(
    concat(
      enc.encode("palisade.attest.v1.gene-commit"),
      sid,
      u64le(step),
      u32le(gene.length),
      gene,
    ),
  );
}

/** Mutation of docs/attestation.md; returns a new array, null for a malformed order. */
export function referenceMutate(
  gene: Uint8Array,
  order: Uint8Array,
  sid: Uint8Array,
  step: bigint,
): Uint8Array | null {
  const n = gene.length;
  if (order.length < 8 || order[0] !== 1) return null;
  const rounds = order[1];
  const ops = order[2];
  if (rounds < 1 || rounds > 16 || ops < 1 || ops > 32 || order.length !== 3 + 5 * ops) return null;
  for (let i = 0; i < ops; i++) if (order[3 + 5 * i] > 5) return null;
  const g = gene.slice();
  const orderHash = blake3(order);
  const rotl8 = (v: number, r: number) => ((v << r) | (v >> (8 - r))) & 0xff;
  for (let r = 0; r < rounds; r++) {
    // The XOF output is consumed in order; 64 KiB of it covers any order
    // (32 ops × (256 + 2) bytes at most per round).
    const ks = blake3(
      concat(
        enc.encode("palisade.attest.v1.mutation-keystream"),
        sid,
        u64le(step),
        new Uint8Array([r]),
        orderHash,
        blake3(g),
      ),
      { dkLen: 32 * 258 },
    );
    let k = 0;
    for (let i = 0; i < ops; i++) {
      const o = order.subarray(3 + 5 * i, 8 + 5 * i);
      const kind = o[0];
      const off = (o[1] | (o[2] << 8)) % n;
      const w = Math.min(o[3] + 1, n);
      const arg = o[4];
      const at = (j: number) => (off + j) % n;
      if (kind === 0) { for (let j = 0; j < w; j++) g[at(j)] ^= ks[k++]; }
      else if (kind === 1) { for (let j = 0; j < w; j++) g[at(j)] = (g[at(j)] + ks[k++]) & 0xff; }
      else if (kind === 2) {
        for (let j = 0; j < w; j++) g[at(j)] = rotl8(g[at(j)], (arg % 7) + 1);
      } else if (kind === 3) {
        const off2 = (ks[k] | (ks[k + 1] << 8)) % n;
        k += 2;
        for (let j = 0; j < w; j++) {
          const p = at(j), q = (off2 + j) % n;
          [g[p], g[q]] = [g[q], g[p]];
        }
      } else if (kind === 4) {
        for (let j = 0; j < Math.floor(w / 2); j++) {
          const p = at(j), q = at(w - 1 - j);
          [g[p], g[q]] = [g[q], g[p]];
        }
      } else {
        for (let j = 0; j < w; j++) {
          const p = at(j);
          g[p] = (g[p] + (rotl8(g[(p + n - 1) % n], 3) ^ arg)) & 0xff;
        }
      }
    }
  }
  return g;
}

/** Hash-chain step H(n) of the spec. */
export function referenceNextHash(
  salt: Uint8Array,
  prev: Uint8Array,
  ts: bigint,
  entropy: string,
  stack: string,
): Uint8Array {
  return blake3(
    concat(salt, prev, u64le(ts), blake3(enc.encode(entropy)), blake3(enc.encode(stack))),
  );
}
