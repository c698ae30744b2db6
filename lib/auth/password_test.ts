import { Buffer } from "node:buffer";
import { scryptSync } from "node:crypto";
import { assert, assertEquals } from "../../tests/assert.ts";
import { hashPassword, verifyPassword } from "./password.ts";

const b64 = (b: Uint8Array) => Buffer.from(b).toString("base64").replace(/=+$/, "");

Deno.test("hashPassword() uses scrypt at OWASP parameters with a random salt", async () => {
  const a = await hashPassword("correct horse battery staple");
  const b = await hashPassword("correct horse battery staple");
  const m = /^\$scrypt\$ln=17,r=8,p=1\$([A-Za-z0-9+/]{22})\$([A-Za-z0-9+/]{43})$/.exec(a);
  assert(m, `"${a}" is a PHC string of scrypt at ln=17, r=8, p=1`);
  assert(a !== b, "salts differ");
  // The stored hash is scrypt at the stated parameters, recomputed here by node:crypto.
  const salt = Buffer.from(m[1], "base64");
  const expected = scryptSync("correct horse battery staple", salt, 32, {
    N: 2 ** 17,
    r: 8,
    p: 1,
    maxmem: 256 * 1024 * 1024,
  });
  assertEquals(m[2], b64(expected));
  assertEquals(await verifyPassword("correct horse battery staple", a), true);
  assertEquals(await verifyPassword("correct horse battery stapler", a), false);
  assertEquals(await verifyPassword("x", "not a hash"), false);
});

Deno.test("verifyPassword() accepts the scrypt known-answer vector of RFC 7914", async () => {
  // RFC 7914 section 12, third vector (N=16384, r=8, p=1): the first 32 of its 64 bytes,
  // which is scrypt's 32-byte output (its last step, PBKDF2, makes each block on its own).
  const key = "7023bdcb3afd7348461c06cd81fd38ebfda8fbba904f8e3ea9b543f6545da1f2";
  const salt = new TextEncoder().encode("SodiumChloride");
  const stored = `$scrypt$ln=14,r=8,p=1$${b64(salt)}$${b64(Buffer.from(key, "hex"))}`;
  assertEquals(await verifyPassword("pleaseletmein", stored), true);
  assertEquals(await verifyPassword("pleaseletmeln", stored), false);
});
