/**
 * The request checks dig and dnspython cannot provoke: a truncated MAC that
 * is right (BADTRUNC, signed), a MAC below the RFC's minimum (FORMERR), a
 * TSIG that is not the last record (FORMERR), and a forwarded request whose
 * ID differs from the original ID (still valid: the MAC covers the original).
 */
import { assertEquals } from "../../../tests/assert.ts";
import { dnsPacket } from "../packet.ts";
import type { StoredTsigKey } from "./key_repo.ts";
import { materialOf, signRequest, verifyRequest } from "./sign.ts";
import { findTsig } from "./wire.ts";

const KEY: StoredTsigKey = {
  name: "k.example",
  algorithm: "hmac-sha256",
  secret: btoa("0123456789abcdef0123456789abcdef"),
  zones: [],
  permissions: ["transfer"],
  created_at: 0,
};
const keys = { withSecret: (n: string) => (n === KEY.name ? KEY : undefined) };
const now = 1_800_000_000;

function query(): Uint8Array {
  return new Uint8Array(dnsPacket.encode({
    type: "query",
    id: 4242,
    questions: [{ name: "example.com", type: "SOA", class: "IN" }],
  }));
}

/** `signed` with its MAC cut to `size` bytes (MAC size and RDLENGTH rewritten). */
function truncate(signed: Uint8Array, size: number): Uint8Array {
  const t = findTsig(signed)!;
  const macAt = signed.length - 6 - t.mac.length;
  const out = new Uint8Array(signed.length - (t.mac.length - size));
  out.set(signed.subarray(0, macAt - 2));
  out[macAt - 2] = size >> 8;
  out[macAt - 1] = size & 255;
  out.set(t.mac.subarray(0, size), macAt);
  out.set(signed.subarray(macAt + t.mac.length), macAt + size);
  // RDLENGTH sits just before the algorithm name, 2 bytes after TYPE, CLASS, TTL.
  const rdlenAt = t.start + t.keyWire.length + 8;
  const rdlen = ((out[rdlenAt] << 8) | out[rdlenAt + 1]) - (t.mac.length - size);
  out[rdlenAt] = rdlen >> 8;
  out[rdlenAt + 1] = rdlen & 255;
  return out;
}

Deno.test("verifyRequest(): full MAC ok, a right truncated MAC BADTRUNC, below max(10, half) FORMERR", () => {
  const { bytes } = signRequest(query(), materialOf(KEY), now);
  assertEquals(verifyRequest(bytes, keys, now).status, "ok");
  assertEquals(verifyRequest(truncate(bytes, 16), keys, now).status, "badtrunc");
  assertEquals(verifyRequest(truncate(bytes, 15), keys, now).status, "formerr");
  const wrong = truncate(bytes, 16);
  wrong[wrong.length - 7] ^= 1;
  assertEquals(verifyRequest(wrong, keys, now).status, "badsig");
});

Deno.test("verifyRequest(): time outside the fudge is BADTIME; a changed ID keeps the MAC valid", () => {
  const { bytes } = signRequest(query(), materialOf(KEY), now);
  assertEquals(verifyRequest(bytes, keys, now + 301).status, "badtime");
  assertEquals(verifyRequest(bytes, keys, now - 300).status, "ok");
  const forwarded = bytes.slice();
  forwarded[0] = 0x11;
  assertEquals(verifyRequest(forwarded, keys, now).status, "ok");
  const tampered = bytes.slice();
  tampered[3] ^= 0x01; // a flag bit the MAC covers
  assertEquals(verifyRequest(tampered, keys, now).status, "badsig");
});

Deno.test("verifyRequest(): a TSIG before another record is FORMERR", () => {
  const { bytes } = signRequest(query(), materialOf(KEY), now);
  const extra = new Uint8Array([0, 0, 41, 4, 208, 0, 0, 0, 0, 0, 0]); // an OPT after the TSIG
  const out = new Uint8Array(bytes.length + extra.length);
  out.set(bytes);
  out.set(extra, bytes.length);
  out[11] += 1;
  assertEquals(verifyRequest(out, keys, now).status, "formerr");
});
