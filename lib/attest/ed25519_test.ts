import { Buffer } from "node:buffer";
import { generateKeyPairSync, sign } from "node:crypto";
import { assert, assertEquals } from "../../tests/assert.ts";
import { Ed25519Verifier, rawPublicKeyHex } from "./ed25519.ts";

Deno.test("Ed25519Verifier: accepts the signer's signature only, with a primed key or not", () => {
  const { privateKey, publicKey } = generateKeyPairSync("ed25519");
  const key = rawPublicKeyHex(publicKey);
  const message = "payload ✓";
  const signature = sign(null, Buffer.from(message, "utf8"), privateKey).toString("hex");
  const cold = new Ed25519Verifier();
  assert(cold.verify(key, message, signature), "parsed on first use");
  const primed = new Ed25519Verifier();
  assert(primed.prime(key));
  assert(primed.verify(key, message, signature), "parsed at prime()");
  assert(primed.verify(key, message, signature.toUpperCase()), "hex in either case");
  assertEquals(primed.verify(key, message + ".", signature), false, "another message");
  const flipped = (signature[0] === "0" ? "1" : "0") + signature.slice(1);
  assertEquals(primed.verify(key, message, flipped), false, "another signature");
  assertEquals(primed.verify(key, message, signature.slice(2)), false, "a short signature");
  assertEquals(primed.verify(key, message, "zz" + signature.slice(2)), false, "not hex");
  assertEquals(primed.prime("zz".repeat(32)), false, "a key that is not hex");
  assertEquals(primed.verify("zz".repeat(32), message, signature), false);
});
