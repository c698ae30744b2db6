/**
 * ZoneSigner: the validity it gives signatures, the signature cache (hits,
 * refresh before expiry, misses on any change, bound), and which keys sign
 * which types.
 */
import { assert, assertEquals, assertNotEquals } from "../assert.ts";
import { keysFor, ZoneSigner } from "../../lib/dns/dnssec/signer.ts";
import type { RRsetToSign } from "../../lib/dns/dnssec/types.ts";
import { testSigningKey } from "./dnssec_keys.ts";
import { dnspython, validate } from "./dnssec_py.ts";

const APEX = "example.test";
const NOW = 1_780_000_000;
const DAY = 86_400;

const a = (owner: string, last: number, ttl = 300): RRsetToSign => ({
  owner,
  type: 1,
  ttl,
  rdatas: [new Uint8Array([192, 0, 2, last])],
});

/** Inception and expiration of RRSIG RDATA (RFC 4034 §3.1: bytes 12–15 and 8–11). */
function times(rrsig: Uint8Array): { inception: number; expiration: number } {
  const v = new DataView(rrsig.buffer, rrsig.byteOffset);
  return { inception: v.getUint32(12), expiration: v.getUint32(8) };
}

Deno.test("signatures are valid from an hour back to 14 days ahead, and validate", async () => {
  const key = testSigningKey(15);
  const signer = new ZoneSigner();
  const [rrsig] = signer.sign(a("www.example.test", 1), APEX, [key], NOW);
  assertEquals(times(rrsig), { inception: NOW - 3600, expiration: NOW + 14 * DAY });
  const py = await dnspython("dnssec signer");
  if (!py) return;
  const set = a("www.example.test", 1);
  const verdicts = await validate(py, [
    { ...set, rrsig, dnskey: key.dnskey, apex: APEX, now: NOW - 3599 },
    { ...set, rrsig, dnskey: key.dnskey, apex: APEX, now: NOW + 14 * DAY - 1 },
  ]);
  assertEquals(verdicts, ["ok", "ok"]);
});

Deno.test("a cached signature is served until less than 7 days of it are left, then made again", () => {
  const key = testSigningKey(15);
  const signer = new ZoneSigner();
  const [first] = signer.sign(a("www.example.test", 1), APEX, [key], NOW);
  const [again] = signer.sign(a("www.example.test", 1), APEX, [key], NOW + 7 * DAY);
  assert(again === first, "the same signature object from the cache");
  assertEquals([signer.hits, signer.misses], [1, 1]);
  const [renewed] = signer.sign(a("www.example.test", 1), APEX, [key], NOW + 7 * DAY + 1);
  assertEquals(times(renewed).inception, NOW + 7 * DAY + 1 - 3600);
  assertEquals([signer.hits, signer.misses], [1, 2]);
  // A clock set back before the cached signature's inception gets a fresh one.
  const [back] = signer.sign(a("www.example.test", 1), APEX, [key], NOW);
  assertEquals(times(back).inception, NOW - 3600);
  assertEquals(signer.misses, 3);
});

Deno.test("the cache misses on any change to what is signed: data, TTL, owner, zone, key", () => {
  const key = testSigningKey(15);
  const twin = testSigningKey(15);
  // A different key with the same tag must not be served the first key's signature.
  const sameTag = { ...twin, keyTag: key.keyTag };
  const signer = new ZoneSigner();
  signer.sign(a("www.example.test", 1), APEX, [key], NOW);
  signer.sign(a("www.example.test", 2), APEX, [key], NOW);
  signer.sign(a("www.example.test", 1, 301), APEX, [key], NOW);
  signer.sign(a("web.example.test", 1), APEX, [key], NOW);
  signer.sign(a("www.example.test", 1), "test", [key], NOW);
  signer.sign(a("www.example.test", 1), APEX, [sameTag], NOW);
  assertEquals([signer.hits, signer.misses], [0, 6]);
  // The same records in another order are the same RRset (RFC 4034 §6.3).
  const two = (x: number, y: number): RRsetToSign => ({
    owner: "two.example.test",
    type: 1,
    ttl: 60,
    rdatas: [new Uint8Array([10, 0, 0, x]), new Uint8Array([10, 0, 0, y])],
  });
  const [s1] = signer.sign(two(1, 2), APEX, [key], NOW);
  const [s2] = signer.sign(two(2, 1), APEX, [key], NOW);
  assertEquals(s2, s1);
});

Deno.test("the cache holds at most maxEntries, dropping the least recently used", () => {
  const key = testSigningKey(15);
  const signer = new ZoneSigner({ maxEntries: 2 });
  signer.sign(a("a.example.test", 1), APEX, [key], NOW);
  signer.sign(a("b.example.test", 1), APEX, [key], NOW);
  signer.sign(a("a.example.test", 1), APEX, [key], NOW);
  signer.sign(a("c.example.test", 1), APEX, [key], NOW);
  assertEquals(signer.size, 2);
  assertEquals(signer.hits, 1);
  signer.sign(a("a.example.test", 1), APEX, [key], NOW);
  assertEquals(signer.hits, 2);
  signer.sign(a("b.example.test", 1), APEX, [key], NOW);
  assertEquals(signer.hits, 2, "b was dropped");
});

Deno.test("an RRset signed with cache: false is signed every time and never stored", () => {
  const key = testSigningKey(15);
  const signer = new ZoneSigner();
  const [x] = signer.sign(a("nx.example.test", 1), APEX, [key], NOW, { cache: false });
  const [y] = signer.sign(a("nx.example.test", 1), APEX, [key], NOW, { cache: false });
  assert(x !== y);
  assertEquals([signer.size, signer.hits, signer.misses], [0, 0, 2]);
});

Deno.test("one signature per key; KSKs sign DNSKEY, CDS and CDNSKEY, ZSKs the rest", () => {
  const ksk = testSigningKey(13, true);
  const zsk = testSigningKey(13);
  const keys = [ksk, zsk];
  assertEquals(keysFor(48, keys), [ksk]);
  assertEquals(keysFor(59, keys), [ksk]);
  assertEquals(keysFor(60, keys), [ksk]);
  assertEquals(keysFor(1, keys), [zsk]);
  assertEquals(keysFor(6, keys), [zsk]);
  // A single combined key signs everything.
  assertEquals(keysFor(1, [ksk]), [ksk]);
  const signer = new ZoneSigner();
  const sigs = signer.sign(a("www.example.test", 1), APEX, keys, NOW);
  assertEquals(sigs.length, 2);
  const tag = (r: Uint8Array) => (r[16] << 8) | r[17];
  assertEquals(sigs.map(tag), [ksk.keyTag, zsk.keyTag]);
  assertNotEquals(sigs[0], sigs[1]);
});
