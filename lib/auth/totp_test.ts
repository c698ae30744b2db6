/**
 * TOTP against the SHA-1 test vectors of RFC 6238, appendix B (the last six
 * of their eight digits), and base32 against RFC 4648, section 10.
 */
import { assertEquals } from "../../tests/assert.ts";
import { base32Decode, base32Encode, matchStep, stepAt, totpCode } from "./totp.ts";

const RFC_SECRET = new TextEncoder().encode("12345678901234567890");

Deno.test("totpCode matches the RFC 6238 SHA-1 vectors", async () => {
  const vectors: [number, string][] = [
    [59, "94287082"],
    [1111111109, "07081804"],
    [1111111111, "14050471"],
    [1234567890, "89005924"],
    [2000000000, "69279037"],
    [20000000000, "65353130"],
  ];
  for (const [seconds, eight] of vectors) {
    assertEquals(
      await totpCode(RFC_SECRET, stepAt(seconds * 1000)),
      eight.slice(2),
      `T=${seconds}`,
    );
  }
});

Deno.test("matchStep takes one step either side and refuses two", async () => {
  const now = 1234567890_000;
  const here = stepAt(now);
  assertEquals(await matchStep(RFC_SECRET, "005924", now), here);
  for (const d of [-1, 1]) {
    assertEquals(await matchStep(RFC_SECRET, await totpCode(RFC_SECRET, here + d), now), here + d);
  }
  for (const d of [-2, 2]) {
    assertEquals(await matchStep(RFC_SECRET, await totpCode(RFC_SECRET, here + d), now), null);
  }
  assertEquals(await matchStep(RFC_SECRET, "abcdef", now), null);
});

Deno.test("base32 follows RFC 4648", () => {
  const cases: [string, string][] = [
    ["f", "MY"],
    ["fo", "MZXQ"],
    ["foo", "MZXW6"],
    [
      "foob",
      "MZXW6YQ",
    ],
    ["fooba", "MZXW6YTB"],
    ["foobar", "MZXW6YTBOI"],
  ];
  for (const [plain, encoded] of cases) {
    assertEquals(base32Encode(new TextEncoder().encode(plain)), encoded);
    assertEquals(new TextDecoder().decode(base32Decode(`${encoded.toLowerCase()}==`)), plain);
  }
});
