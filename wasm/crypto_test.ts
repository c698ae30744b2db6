/**
 * The cryptographic primitives of the attestation core, through the compiled
 * .wasm and the glue: RFC 8032 and official BLAKE3 vectors, then random
 * cross-checks against node:crypto and @noble/hashes.
 */
import { blake3 } from "@noble/hashes/blake3.js";
import { createHash, createPublicKey, sign, verify } from "node:crypto";
import { assert, assertEquals } from "../tests/assert.ts";
import { loadTestCore } from "../tests/helpers/attest_core.ts";
import { fromHex, toHex } from "./glue.ts";
import { privateKeyFromSeed, rawPublicKeyHex } from "../lib/attest/ed25519.ts";
import { BLAKE3_VECTORS } from "./testdata/blake3_vectors.ts";
import { ED25519_VECTORS } from "./testdata/ed25519_vectors.ts";

function hexBytes(hex: string): Uint8Array {
  return fromHex(hex, hex.length / 2)!;
}

/** Deterministic PRNG (xorshift32) so that a failing random case can be replayed. */
function prng(seed: number): (n: number) => Uint8Array {
  let s = seed >>> 0 || 1;
  return (n) => {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      s ^= s << 13;
      s >>>= 0;
      s ^= s >>> 17;
      s ^= s << 5;
      s >>>= 0;
      out[i] = s & 0xff;
    }
    return out;
  };
}

function randomLength(rand: (n: number) => Uint8Array, max: number): number {
  const b = rand(4);
  return ((b[0] | (b[1] << 8) | (b[2] << 16)) >>> 0) % (max + 1);
}

Deno.test("keypair_from_seed() and sign_message() reproduce the RFC 8032 section 7.1 vectors", async () => {
  const core = await loadTestCore();
  for (const v of ED25519_VECTORS) {
    const seed = hexBytes(v.secretKey);
    const msg = hexBytes(v.message);
    // The typed-in vectors are first checked against node:crypto, so a typo in
    // them cannot masquerade as a bug in the core (or hide one).
    const key = privateKeyFromSeed(seed);
    assertEquals(rawPublicKeyHex(key), v.publicKey, `${v.name}: node public key`);
    assertEquals(sign(null, msg, key).toString("hex"), v.signature, `${v.name}: node signature`);

    assertEquals(core.keypair_from_seed(seed), v.publicKey, `${v.name}: public key`);
    assertEquals(core.get_public_key(), v.publicKey, `${v.name}: get_public_key`);
    assertEquals(toHex(core.signBytes(msg)!), v.signature, `${v.name}: signature`);
  }
});

Deno.test("sign_message() signs the UTF-8 bytes of the string", async () => {
  const core = await loadTestCore();
  const seed = new Uint8Array(32).fill(7);
  core.keypair_from_seed(seed);
  const msg = '{"prevHash":"é✓","x":[1,2]}';
  const sig = core.sign_message(msg);
  assertEquals(
    sig,
    sign(null, new TextEncoder().encode(msg), privateKeyFromSeed(seed)).toString("hex"),
  );
});

Deno.test("blake3() reproduces the official BLAKE3 test vectors, default and extended output", async () => {
  const core = await loadTestCore();
  for (const v of BLAKE3_VECTORS) {
    const input = new Uint8Array(v.inputLen).map((_, i) => i % 251);
    assertEquals(toHex(core.blake3(input)), v.hash.slice(0, 64), `len ${v.inputLen}`);
    assertEquals(toHex(core.blake3(input, 131)), v.hash, `len ${v.inputLen} extended`);
    assertEquals(toHex(blake3(input)), v.hash.slice(0, 64), `noble, len ${v.inputLen}`);
  }
  assertEquals(
    toHex(core.blake3(new Uint8Array(0))),
    "af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262",
  );
});

Deno.test("blake3() matches @noble/hashes for 10,000 random inputs", async () => {
  const core = await loadTestCore();
  const rand = prng(0xb1a3e3);
  for (let i = 0; i < 10_000; i++) {
    // Mostly short inputs, every 50th up to 20 KiB to cover deep trees.
    const len = randomLength(rand, i % 50 === 0 ? 20_480 : 2_100);
    const input = rand(len);
    const outLen = i % 10 === 0 ? 1 + randomLength(rand, 1023) : 32;
    assertEquals(
      toHex(core.blake3(input, outLen)),
      toHex(blake3(input, { dkLen: outLen })),
      `case ${i}, len ${len}, outLen ${outLen}`,
    );
  }
});

Deno.test("sha512() matches node:crypto for 10,000 random inputs", async () => {
  const core = await loadTestCore();
  assertEquals(
    toHex(core.sha512(new TextEncoder().encode("abc"))),
    "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a" +
      "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f",
  );
  const rand = prng(0x5a512);
  for (let i = 0; i < 10_000; i++) {
    const len = randomLength(rand, i % 50 === 0 ? 10_000 : 600);
    const input = rand(len);
    assertEquals(
      toHex(core.sha512(input)),
      createHash("sha512").update(input).digest("hex"),
      `case ${i}, len ${len}`,
    );
  }
});

Deno.test("sign_message() matches node:crypto for 10,000 random keys", async () => {
  const core = await loadTestCore();
  const rand = prng(0xed25519);
  for (let i = 0; i < 10_000; i++) {
    const seed = rand(32);
    const msg = rand(randomLength(rand, 300));
    const key = privateKeyFromSeed(seed);
    const pub = core.keypair_from_seed(seed);
    assertEquals(pub, rawPublicKeyHex(key), `case ${i}: public key`);
    const sig = core.signBytes(msg)!;
    assertEquals(toHex(sig), sign(null, msg, key).toString("hex"), `case ${i}: signature`);
  }
});

Deno.test("generate_keypair() makes distinct keys whose signatures verify with node:crypto", async () => {
  const core = await loadTestCore();
  const seen = new Set<string>();
  for (let i = 0; i < 50; i++) {
    const pub = core.generate_keypair();
    assertEquals(pub.length, 64);
    assert(!seen.has(pub));
    seen.add(pub);
    const msg = `heartbeat ${i}`;
    const sig = core.sign_message(msg);
    const spki = new Uint8Array(44);
    spki.set([0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00]);
    spki.set(fromHex(pub, 32)!, 12);
    const pk = createPublicKey({ key: Buffer.from(spki), format: "der", type: "spki" });
    assert(verify(null, new TextEncoder().encode(msg), pk, Buffer.from(sig, "hex")));
  }
});
