/**
 * Ed25519 signing in the attestation core against node:crypto in the same
 * process, plus the module size. Run: deno run -A bench/attest_sign.ts
 * Prints per-call times and the ratio core/node (absolute figures drift on
 * shared machines; the ratio is the comparable figure).
 */
import { sign } from "node:crypto";
import { privateKeyFromSeed } from "../lib/attest/ed25519.ts";
import { ensureWasm } from "../scripts/build_wasm.ts";
import { loadAttestCore } from "../wasm/glue.ts";

const ITERATIONS = 5_000;
const path = await ensureWasm();
const bytes = await Deno.readFile(path);
const core = await loadAttestCore(bytes);
core.generate_keypair();

// A heartbeat-sized payload: the canonical JSON with ~40 mouse samples.
const events = Array.from({ length: 40 }, (_, i) => ({ t: i * 25, x: 100 + i * 3, y: 200 + i }));
const msg = JSON.stringify({
  entropyData: { events },
  fingerprint: { aspectRatio: "1.7777777778", devicePixelRatio: "1", hardwareConcurrency: 8 },
  geneCommitment: "00".repeat(32),
  mutationStep: 1,
  prevHash: "00".repeat(32),
  sessionId: "00".repeat(32),
  stackState: { ip: 12, stack: [1, 2, 3] },
  timestamp: Date.now(),
});

function time(fn: () => void): number {
  for (let i = 0; i < 200; i++) fn();
  const t0 = performance.now();
  for (let i = 0; i < ITERATIONS; i++) fn();
  return (performance.now() - t0) / ITERATIONS;
}

const seed = crypto.getRandomValues(new Uint8Array(32));
const key = privateKeyFromSeed(seed);
const encoded = new TextEncoder().encode(msg);

const coreMs = time(() => core.sign_message(msg));
const nodeMs = time(() => sign(null, encoded, key));
const keyMs = time(() => core.generate_keypair());
console.log(`attest.wasm size: ${bytes.length} bytes (limit 65536)`);
console.log(`payload: ${encoded.length} bytes`);
console.log(`sign_message (wasm): ${(coreMs * 1000).toFixed(1)} µs/call`);
console.log(`generate_keypair (wasm): ${(keyMs * 1000).toFixed(1)} µs/call`);
console.log(`node:crypto sign: ${(nodeMs * 1000).toFixed(1)} µs/call`);
console.log(`ratio wasm/node: ${(coreMs / nodeMs).toFixed(2)}`);
