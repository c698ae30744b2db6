import { Buffer } from "node:buffer";
import { assert, assertEquals } from "../tests/assert.ts";
import { fromBase64, isHex, toBase64, toHex, writeBase64, writeHex } from "./bytes.ts";

// node:buffer is the independent oracle for both encodings.
function randomBytes(n: number): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(n));
}

Deno.test("toHex() and toBase64() agree with node:buffer for every length up to 100", () => {
  for (let n = 0; n <= 100; n++) {
    const bytes = randomBytes(n);
    assertEquals(toHex(bytes), Buffer.from(bytes).toString("hex"));
    assertEquals(toBase64(bytes), Buffer.from(bytes).toString("base64"));
  }
});

Deno.test("writeHex() and isHex() take exactly the declared length of hex in either case", () => {
  const bytes = randomBytes(32);
  const hex = Buffer.from(bytes).toString("hex");
  const target = new Uint8Array(32);
  assert(writeHex(target, hex.toUpperCase()));
  assertEquals(target, bytes);
  assert(isHex(hex, 32));
  assert(isHex(randomHexOf(100), 100), "longer than the scratch buffer");
  for (const bad of [hex.slice(2), hex + "00", hex.slice(0, 62) + "zz", ` ${hex.slice(1)}`, 42]) {
    assert(!writeHex(new Uint8Array(32), bad), String(bad));
    assert(!isHex(bad, 32), String(bad));
  }
});

function randomHexOf(n: number): string {
  return Buffer.from(randomBytes(n)).toString("hex");
}

Deno.test("writeBase64() and fromBase64() accept canonical base64 only", () => {
  for (let n = 0; n <= 40; n++) {
    const bytes = randomBytes(n);
    const b64 = Buffer.from(bytes).toString("base64");
    assertEquals(fromBase64(b64), bytes);
    const target = new Uint8Array(64);
    assertEquals(writeBase64(target, b64), n);
    assertEquals(target.subarray(0, n), bytes);
    assertEquals(writeBase64(new Uint8Array(Math.max(0, n - 1)), b64), n === 0 ? 0 : -1);
  }
  // Missing padding, whitespace, non-zero padding bits, foreign alphabets, non-strings.
  for (const bad of ["QQ", "QQ=", "QR==", "QUJD\n", "QU JD", "QU-_", "====", "Q===", null, 7]) {
    assertEquals(fromBase64(bad), null, String(bad));
    assertEquals(writeBase64(new Uint8Array(8), bad), -1, String(bad));
  }
});
