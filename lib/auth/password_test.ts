import { assert, assertEquals, assertMatch } from "../../tests/assert.ts";
import { hashPassword, verifyPassword } from "./password.ts";

Deno.test("hashPassword() uses scrypt at OWASP parameters with a random salt", async () => {
  const a = await hashPassword("correct horse battery staple");
  const b = await hashPassword("correct horse battery staple");
  assertMatch(a, /^\$scrypt\$ln=17,r=8,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
  assert(a !== b, "salts differ");
  assertEquals(await verifyPassword("correct horse battery staple", a), true);
  assertEquals(await verifyPassword("correct horse battery stapler", a), false);
  assertEquals(await verifyPassword("x", "not a hash"), false);
});
