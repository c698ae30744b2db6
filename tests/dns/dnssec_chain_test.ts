/**
 * The signed zone a full transfer would carry: the zone's records, the DNSKEY
 * RRset, the NSEC chain (lib/dns/dnssec/nsec_chain.ts) and an RRSIG for every
 * RRset that takes one, written as a master file (by dnspython) and judged by
 * BIND's dnssec-verify and ldns's ldns-verify-zone, for each algorithm.
 */
import { assert, assertEquals } from "../assert.ts";
import { nsecChain, signedRRsets } from "../../lib/dns/dnssec/nsec_chain.ts";
import { keysFor, ZoneSigner } from "../../lib/dns/dnssec/signer.ts";
import type { RRsetToSign, SigningKey } from "../../lib/dns/dnssec/types.ts";
import type { ZoneData } from "../../lib/dns/zone_index.ts";
import { haveSystem, run } from "../helpers/system.ts";
import { ALGORITHMS, testSigningKey } from "./dnssec_keys.ts";
import { dnspython, zoneText } from "./dnssec_py.ts";
import { dnssecTestZone, Z } from "./dnssec_zone.ts";

const RRSIG = 46;
const SOA = 6;

interface Rec {
  owner: string;
  type: number;
  ttl: number;
  rdata: Uint8Array;
}

/** Every record of the signed zone, SOA first; `dropNsec` leaves one NSEC out (the negative control). */
function signedZone(z: ZoneData, keys: SigningKey[], dropNsec?: string): Rec[] {
  const now = Math.floor(Date.now() / 1000);
  const signer = new ZoneSigner();
  const records: Rec[] = [];
  const add = (set: RRsetToSign) => {
    for (const rdata of set.rdatas) records.push({ ...set, rdata });
  };
  const sign = (set: RRsetToSign) => {
    for (const rdata of signer.sign(set, Z, keysFor(set.type, keys), now)) {
      records.push({ owner: set.owner, type: RRSIG, ttl: set.ttl, rdata });
    }
  };
  for (const [owner, node] of z.nodes) {
    for (const set of node.values()) add({ owner, ...set });
  }
  const dnskey = { owner: Z, type: 48, ttl: 3600, rdatas: keys.map((k) => k.dnskey) };
  add(dnskey);
  sign(dnskey);
  for (const { owner, set } of signedRRsets(z)) sign({ owner, ...set });
  for (const nsec of nsecChain(z)) {
    if (nsec.owner === dropNsec) continue;
    add(nsec);
    sign(nsec);
  }
  return records.sort((a, b) => Number(b.type === SOA) - Number(a.type === SOA));
}

async function verify(py: string, records: Rec[]): Promise<{ bind: string; ldns: string }> {
  const dir = await Deno.makeTempDir({ prefix: "palisade-dnssec-" });
  try {
    const file = `${dir}/${Z}.zone`;
    await Deno.writeTextFile(file, await zoneText(py, records));
    const bind = await run("dnssec-verify", ["-o", Z, file], { allowFail: true });
    const ldns = await run("ldns-verify-zone", [file], { allowFail: true });
    return {
      bind: `${bind.code} ${bind.stdout} ${bind.stderr}`,
      ldns: `${ldns.code} ${ldns.stdout} ${ldns.stderr}`,
    };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

for (const alg of ALGORITHMS) {
  Deno.test(`a zone signed with algorithm ${alg} and its NSEC chain passes dnssec-verify and ldns-verify-zone`, async () => {
    if (!haveSystem("dnssec chain", ["dnssec-verify", "ldns-verify-zone"])) return;
    const py = await dnspython("dnssec chain");
    if (!py) return;
    const z = await dnssecTestZone();
    const keys = [testSigningKey(alg, true), testSigningKey(alg)];
    const { bind, ldns } = await verify(py, signedZone(z, keys));
    assert(bind.startsWith("0 "), `dnssec-verify: ${bind}`);
    assert(ldns.startsWith("0 "), `ldns-verify-zone: ${ldns}`);
  });
}

Deno.test("the chain has every authoritative owner in canonical order, ending at the apex", async () => {
  const z = await dnssecTestZone();
  const chain = nsecChain(z);
  // Canonical order of the zone's owners worked out by hand (RFC 4034 §6.1): glue and data below the cut left out.
  const expected = [
    "",
    "_sip._tcp",
    "alias",
    "a.b.c",
    "dn",
    "mail",
    "m\\255",
    "ns1",
    "secure",
    "sub",
    "*.wild",
    "www",
    "x.www",
  ].map((n) => (n ? `${n}.${Z}` : Z));
  assertEquals(chain.map((n) => n.owner), expected);
  assertEquals(chain.map((n) => n.next), [...expected.slice(1), Z]);
});

Deno.test("the verifiers refuse the zone with one NSEC left out (negative control)", async () => {
  if (!haveSystem("dnssec chain", ["dnssec-verify", "ldns-verify-zone"])) return;
  const py = await dnspython("dnssec chain");
  if (!py) return;
  const z = await dnssecTestZone();
  const keys = [testSigningKey(13, true), testSigningKey(13)];
  const { bind, ldns } = await verify(py, signedZone(z, keys, `mail.${Z}`));
  assert(!bind.startsWith("0 "), `dnssec-verify accepted: ${bind}`);
  assert(!ldns.startsWith("0 "), `ldns-verify-zone accepted: ${ldns}`);
});
