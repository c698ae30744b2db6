/**
 * DNSSEC key material against independent tools (docs/dns.md, "Keys and
 * algorithms"): for keys of each algorithm, the key tag and DS records agree
 * with dnspython and BIND's dnssec-dsfromkey, RSA keys have the modulus length
 * asked for, and what `sign()` makes validates in dnspython as the signature
 * of an RRSIG. The RRSIG's signing input is built here by hand from RFC 4034
 * §3.1.8.1, not by the signer.
 */
import { Buffer } from "node:buffer";
import { assert, assertEquals } from "../assert.ts";
import { haveSystem, run } from "../helpers/system.ts";
import { dnssecOracle, type OracleCase } from "./dnssec_oracle.ts";
import { digestTypes, dsPresentation, dsRecord } from "../../lib/dns/dnssec/ds.ts";
import type { StoredKey } from "../../lib/dns/dnssec/key_repo.ts";
import { dnskeyOf, keyTag, newKey, signingKey } from "../../lib/dns/dnssec/keys.ts";
import type { DnssecAlgorithm, KeyType } from "../../lib/dns/dnssec/types.ts";

const OWNER = "example.com";
const NOW = Math.floor(Date.UTC(2026, 2, 14, 12) / 1000);
const RRSET = ["192.0.2.1", "192.0.2.2"];
const TTL = 3600;

const u16 = (n: number) => [n >> 8, n & 255];
const u32 = (n: number) => [n >>> 24, (n >> 16) & 255, (n >> 8) & 255, n & 255];

/** The owner's wire form, lowercase (RFC 4034 §6.2), written out here. */
function wireName(name: string): number[] {
  return [
    ...name.toLowerCase().split(".").flatMap((l) => [l.length, ...new TextEncoder().encode(l)]),
    0,
  ];
}

/** YYYYMMDDHHmmSS of Unix seconds, as RRSIG presentation writes times. */
function sigTime(s: number): string {
  return new Date(s * 1000).toISOString().replace(/[-:T]/g, "").slice(0, 14);
}

/**
 * RFC 4034 §3.1.8.1: RRSIG RDATA without the signature, then each A record
 * of RRSET (already in canonical order) as owner | type | class | TTL |
 * RDLENGTH | RDATA. Returns the data to sign and the RRSIG text with `sig`.
 */
function rrsigInput(
  algorithm: number,
  tag: number,
): { data: Uint8Array; text: (sig: Uint8Array) => string } {
  const [inception, expiration] = [NOW - 3600, NOW + 86400];
  const head = [
    ...u16(1), // type covered: A
    algorithm,
    2, // labels of example.com
    ...u32(TTL),
    ...u32(expiration),
    ...u32(inception),
    ...u16(tag),
    ...wireName(OWNER),
  ];
  const rrs = RRSET.flatMap((a) => [
    ...wireName(OWNER),
    ...u16(1),
    ...u16(1),
    ...u32(TTL),
    ...u16(4),
    ...a.split(".").map(Number),
  ]);
  return {
    data: new Uint8Array([...head, ...rrs]),
    text: (sig) =>
      `A ${algorithm} 2 ${TTL} ${sigTime(expiration)} ${sigTime(inception)} ${tag} ${OWNER}. ${
        Buffer.from(sig).toString("base64")
      }`,
  };
}

function dnskeyText(k: StoredKey): string {
  return `${k.flags} 3 ${k.algorithm} ${k.public_key}`;
}

const ALGORITHMS: [DnssecAlgorithm, number][] = [[13, 256], [15, 256], [8, 2048]];

async function keys(): Promise<StoredKey[]> {
  const out: StoredKey[] = [];
  for (const [algorithm, bits] of ALGORITHMS) {
    for (const type of ["KSK", "ZSK"] as KeyType[]) {
      out.push(await newKey(OWNER, type, algorithm, bits, NOW * 1000));
    }
  }
  return out;
}

Deno.test("key tags, DS records and RSA sizes of generated keys agree with dnspython", async () => {
  const all = await keys();
  const oracle = await dnssecOracle(
    "dnssec key oracle",
    all.map((k) => ({ owner: OWNER, dnskey: dnskeyText(k) })),
  );
  if (!oracle) return;
  all.forEach((k, i) => {
    const what = `${k.key_type} of algorithm ${k.algorithm}`;
    const tag = keyTag(dnskeyOf(k));
    assertEquals(tag, oracle[i].key_id, `${what}: key tag`);
    assertEquals(k.key_tag, oracle[i].key_id, `${what}: stored key tag`);
    assertEquals(k.flags, k.key_type === "KSK" ? 257 : 256, what);
    const ours = digestTypes(k.algorithm).map((t) => {
      const ds = dsRecord(OWNER, dnskeyOf(k), t);
      return `${ds.key_tag} ${ds.algorithm} ${ds.digest_type} ${ds.digest.toLowerCase()}`;
    });
    // dnspython writes the digest lowercase and in one piece.
    const theirs = oracle[i].ds.map((d) => d.toLowerCase());
    assertEquals(ours, k.algorithm === 8 ? theirs.slice(0, 1) : theirs, `${what}: DS`);
    // The owner's case does not change the digest (canonical form).
    assertEquals(dsRecord("EXAMPLE.Com.", dnskeyOf(k), 2), dsRecord(OWNER, dnskeyOf(k), 2));
    if (k.algorithm === 8) assertEquals(oracle[i].rsa_bits, 2048, `${what}: modulus`);
  });
});

Deno.test("sign() of each algorithm makes RRSIG signatures dnspython validates, and only over the signed data", async () => {
  const all = await keys();
  const cases: OracleCase[] = [];
  for (const k of all) {
    const key = signingKey(k);
    const input = rrsigInput(k.algorithm, key.keyTag);
    const sig = key.sign(input.data);
    if (k.algorithm === 13) assertEquals(sig.length, 64, "ECDSA P-256: r and s of 32 bytes");
    if (k.algorithm === 15) assertEquals(sig.length, 64, "Ed25519: 64 bytes");
    if (k.algorithm === 8) assertEquals(sig.length, 256, "RSA-2048: 256 bytes");
    const rrsig = { rrset: RRSET, ttl: TTL, now: NOW };
    cases.push({ owner: OWNER, dnskey: dnskeyText(k), rrsig: { ...rrsig, text: input.text(sig) } });
    // A signature over other data (one more second of validity) must not validate.
    const other = input.data.slice();
    other[11] ^= 1;
    cases.push({
      owner: OWNER,
      dnskey: dnskeyText(k),
      rrsig: { ...rrsig, text: input.text(key.sign(other)) },
    });
  }
  const oracle = await dnssecOracle("dnssec sign oracle", cases);
  if (!oracle) return;
  for (let i = 0; i < all.length; i++) {
    const what = `${all[i].key_type} of algorithm ${all[i].algorithm}`;
    assertEquals(oracle[2 * i].valid, true, `${what}: signature`);
    assert(oracle[2 * i + 1].valid !== true, `${what}: a signature over other data validated`);
  }
});

Deno.test("DS records of generated keys agree with BIND's dnssec-dsfromkey", async () => {
  if (!haveSystem("dnssec-dsfromkey oracle", ["dnssec-dsfromkey"])) return;
  const all = await keys();
  const dir = await Deno.makeTempDir({ prefix: "palisade-ds-" });
  try {
    const file = `${dir}/keys.zone`;
    await Deno.writeTextFile(
      file,
      all.map((k) => `${OWNER}. ${TTL} IN DNSKEY ${dnskeyText(k)}\n`).join(""),
    );
    for (const [digest, type] of [["SHA-256", 2], ["SHA-384", 4]] as const) {
      const r = await run("dnssec-dsfromkey", ["-A", "-a", digest, "-f", file, OWNER]);
      const theirs = r.stdout.trim().split("\n").sort();
      const ours = all.map((k) => dsPresentation(OWNER, dsRecord(OWNER, dnskeyOf(k), type))).sort();
      assertEquals(ours, theirs, digest);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
