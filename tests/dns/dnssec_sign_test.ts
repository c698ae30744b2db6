/**
 * RRSIGs from lib/dns/dnssec/rrsig.ts checked by dnspython's
 * validate_rrsig, for each algorithm: RRsets whose owners and RDATA names
 * are in mixed case (canonical form lowercases them, RFC 4034 §6.2), text
 * that must keep its case, duplicates, a wildcard owner (RFC 4034 §3.1.3
 * labels) validated for its expansions, and owners with escaped bytes.
 */
import { assertEquals, assertNotEquals } from "../assert.ts";
import { compareNames } from "../../lib/dns/dnssec/canonical.ts";
import { signRRset } from "../../lib/dns/dnssec/rrsig.ts";
import type { RRsetToSign, SigningKey } from "../../lib/dns/dnssec/types.ts";
import { ALGORITHMS, testSigningKey } from "./dnssec_keys.ts";
import { dnspython, type SignedCase, validate } from "./dnssec_py.ts";

const APEX = "example.test";
const NOW = 1_780_000_000;
const VALIDITY = { inception: NOW - 3600, expiration: NOW + 14 * 86_400 };

/** Wire name with the case as written (the test's own encoder, not the code under test's). */
function w(text: string): number[] {
  if (text === ".") return [0];
  return [...text.split("."), ""].flatMap((l) => [l.length, ...new TextEncoder().encode(l)]);
}

const u16 = (n: number) => [n >> 8, n & 255];
const u32 = (n: number) => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
const str = (s: string) => [s.length, ...new TextEncoder().encode(s)];
const rr = (owner: string, type: number, ...rdatas: number[][]): RRsetToSign => ({
  owner,
  type,
  ttl: 3600,
  rdatas: rdatas.map((r) => Uint8Array.from(r)),
});

/** RRsets covering the names-in-RDATA types, mixed case, duplicates and escapes. */
const RRSETS: RRsetToSign[] = [
  rr("WwW.Example.test", 1, [192, 0, 2, 2], [192, 0, 2, 1], [192, 0, 2, 1]),
  rr(APEX, 15, [...u16(10), ...w("MAIL.Example.TEST")], [...u16(20), ...w("mx2.example.test")]),
  rr(APEX, 2, w("NS1.EXAMPLE.TEST"), w("ns.provider.NET")),
  rr(APEX, 6, [
    ...w("NS1.Example.Test"),
    ...w("HostMaster.Example.Test"),
    ...u32(2026031401),
    ...u32(3600),
    ...u32(600),
    ...u32(604800),
    ...u32(300),
  ]),
  rr("txt.example.test", 16, str("Mixed Case TEXT"), str("lower")),
  rr("_sip._tcp.example.test", 33, [...u16(0), ...u16(5), ...u16(5060), ...w("SIP.Example.Test")]),
  rr("naptr.example.test", 35, [
    ...u16(100),
    ...u16(10),
    ...str("S"),
    ...str("SIP+D2U"),
    ...str(""),
    ...w("_SIP._udp.Example.test"),
  ]),
  rr("alias.example.test", 5, w("Target.Example.TEST")),
  rr("dn.example.test", 39, w("Other.TEST")),
  rr("rp.example.test", 17, [...w("Admin.Example.test"), ...w("Info.Example.TEST")]),
  rr("2.2.0.192.in-addr.example.test", 12, w("Host.Example.Test")),
  rr("afsdb.example.test", 18, [...u16(1), ...w("AFS.Example.Test")]),
  rr("kx.example.test", 36, [...u16(5), ...w("KX.Example.Test")]),
  rr("*.w.example.test", 1, [192, 0, 2, 9]),
  rr("a\\046b.example.test", 16, str("a label with a dot")),
  rr("\\000\\255.example.test", 16, str("bytes at both ends")),
];

/** The owner dnspython is given: a wildcard's RRset is also checked under names it expands to. */
function owners(set: RRsetToSign): string[] {
  return set.owner.startsWith("*.")
    ? [set.owner, `a.${set.owner.slice(2)}`, `x.y.z.${set.owner.slice(2)}`]
    : [set.owner];
}

function cases(key: SigningKey): SignedCase[] {
  return RRSETS.flatMap((set) => {
    const rrsig = signRRset(set, APEX, key, VALIDITY);
    return owners(set).map((owner) => ({
      owner,
      type: set.type,
      ttl: set.ttl,
      rdatas: set.rdatas,
      rrsig,
      dnskey: key.dnskey,
      apex: APEX,
      now: NOW,
    }));
  });
}

for (const alg of ALGORITHMS) {
  Deno.test(`RRSIGs of algorithm ${alg} validate in dnspython: mixed case, names in RDATA, wildcard, escapes`, async () => {
    const py = await dnspython("dnssec sign");
    if (!py) return;
    const key = testSigningKey(alg);
    const all = cases(key);
    const verdicts = await validate(py, all);
    assertEquals(
      verdicts.map((v, i) => `${all[i].owner} ${all[i].type}: ${v}`),
      all.map((c) => `${c.owner} ${c.type}: ok`),
    );
  });
}

Deno.test("dnspython refuses a signature with a flipped bit, a wrong labels count or an expired validity", async () => {
  const py = await dnspython("dnssec sign");
  if (!py) return;
  const key = testSigningKey(13);
  const [a, wildcard] = [RRSETS[0], RRSETS.find((s) => s.owner.startsWith("*."))!];
  const good = cases(key).find((c) => c.owner === a.owner)!;
  const flipped = good.rrsig.slice();
  flipped[flipped.length - 1] ^= 1;
  // Signed as if the wildcard were an ordinary name: its labels count includes the "*".
  const literal = signRRset({ ...wildcard, owner: "x.w.example.test" }, APEX, key, VALIDITY);
  const verdicts = await validate(py, [
    { ...good, rrsig: flipped },
    { ...good, owner: "x.w.example.test", type: 1, rdatas: wildcard.rdatas, rrsig: literal },
    { ...good, now: VALIDITY.expiration + 1 },
  ]);
  assertEquals(verdicts.map((v) => v === "ok"), [false, true, false]);
  const wrongLabels = literal.slice();
  wrongLabels[3] = 2;
  const [bad] = await validate(py, [{
    ...good,
    owner: "x.w.example.test",
    rdatas: wildcard.rdatas,
    rrsig: wrongLabels,
  }]);
  assertNotEquals(bad, "ok");
});

Deno.test("canonical name order is RFC 4034 §6.1's example order", () => {
  // RFC 4034 §6.1, in the order the RFC lists them.
  const rfc = [
    "example",
    "a.example",
    "yljkjljk.a.example",
    "Z.a.example",
    "zABC.a.EXAMPLE",
    "z.example",
    "\\001.z.example",
    "*.z.example",
    "\\200.z.example",
  ];
  const shuffled = [rfc[5], rfc[8], rfc[0], rfc[3], rfc[7], rfc[1], rfc[6], rfc[4], rfc[2]];
  assertEquals(shuffled.slice().sort(compareNames), rfc);
  assertEquals(compareNames("Z.a.example", "z.A.EXAMPLE"), 0);
});
