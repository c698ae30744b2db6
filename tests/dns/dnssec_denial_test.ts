/**
 * White-lie NSEC records (lib/dns/dnssec/denial.ts) for a zone made through
 * the service: dnspython validates each one's RRSIG, decodes its types and
 * next name, and says, by its own canonical ordering, which names it covers.
 * Every proof must cover what it denies and never a name that exists (an
 * empty non-terminal only when the next name lies below it, which is how a
 * validator tells it exists).
 */
import { assert, assertEquals } from "../assert.ts";
import {
  nodataProof,
  type NsecRRset,
  nxdomainProof,
  wildcardAnswerProof,
  wildcardNodataProof,
} from "../../lib/dns/dnssec/denial.ts";
import { keysFor, ZoneSigner } from "../../lib/dns/dnssec/signer.ts";
import type { ZoneData } from "../../lib/dns/zone_index.ts";
import { testSigningKey } from "./dnssec_keys.ts";
import { dnspython, type NsecFacts, nsecFacts, validate } from "./dnssec_py.ts";
import { dnssecTestZone, ENTS, OWNERS, Z } from "./dnssec_zone.ts";

const NOW = 1_780_000_000;
const A = 1, NS = 2, SOA = 6, MX = 15, TXT = 16, AAAA = 28, DS = 43, DNAME = 39;
const RRSIG = 46, NSEC = 47, DNSKEY = 48;

interface Checked {
  nsecs: NsecRRset[];
  facts: NsecFacts[];
  /** Per NSEC, the probe names it covers. */
  covered: string[][];
}

let zone: ZoneData | undefined;
async function z(): Promise<ZoneData> {
  return zone ??= await dnssecTestZone();
}

/**
 * Signs `nsecs`, has dnspython validate them and report their contents and
 * coverage of `extra` names plus every owner and empty non-terminal, and
 * checks the invariants every proof must keep.
 */
async function check(py: string, nsecs: NsecRRset[], extra: string[]): Promise<Checked> {
  const key = testSigningKey(13);
  const signer = new ZoneSigner();
  const cases = nsecs.map((n) => {
    const [rrsig] = signer.sign(n, Z, keysFor(NSEC, [key]), NOW, { cache: n.reusable });
    return { ...n, rrsig, dnskey: key.dnskey, apex: Z, now: NOW };
  });
  assertEquals(await validate(py, cases), nsecs.map(() => "ok"));
  const probe = [...extra, ...OWNERS, ...ENTS];
  const facts = await nsecFacts(
    py,
    nsecs.map((n) => ({ owner: n.owner, rdata: n.rdatas[0], probe })),
  );
  const covered = facts.map((f) => probe.filter((_, i) => f.covers[i]));
  facts.forEach((f, i) => {
    for (const name of covered[i]) {
      assert(!OWNERS.includes(name), `${nsecs[i].owner} NSEC ${f.next} covers the owner ${name}`);
      if (ENTS.includes(name)) {
        assert(f.next.endsWith(`.${name}.`), `${nsecs[i].owner} covers ${name} but not as an ENT`);
      }
    }
  });
  assertEquals(new Set(nsecs.map((n) => n.owner)).size, nsecs.length, "one NSEC per owner");
  return { nsecs, facts, covered };
}

Deno.test("NXDOMAIN: NSECs cover the name and the wildcard at its closest encloser, and nothing that exists", async () => {
  const py = await dnspython("dnssec denial");
  if (!py) return;
  const zd = await z();
  for (
    const [qname, wildcard] of [
      [`nope.${Z}`, `*.${Z}`],
      [`zzz.b.c.${Z}`, `*.b.c.${Z}`],
      [`deep.er.www.${Z}`, `*.www.${Z}`],
      [`m\\254\\255.${Z}`, `*.${Z}`],
    ]
  ) {
    const { covered, facts } = await check(py, nxdomainProof(zd, qname), [qname, wildcard]);
    assert(covered.some((c) => c.includes(qname)), `${qname} covered`);
    assert(covered.some((c) => c.includes(wildcard)), `${wildcard} covered`);
    // White lies: an NSEC covering a name that does not exist lists only RRSIG and NSEC.
    for (const f of facts) assertEquals(f.types, [RRSIG, NSEC]);
  }
});

Deno.test("NXDOMAIN next to a real owner: the owner itself is the NSEC's owner, with its real types", async () => {
  const py = await dnspython("dnssec denial");
  if (!py) return;
  // x.www sorts between www and www\000: the epsilon name (www) would cover it.
  const qname = `www\\000.${Z}`;
  const nsecs = nxdomainProof(await z(), qname);
  const { covered, facts } = await check(py, nsecs, [qname]);
  const i = covered.findIndex((c) => c.includes(qname));
  assertEquals(nsecs[i].owner, `x.www.${Z}`);
  assertEquals(facts[i].types, [A, RRSIG, NSEC]);
});

Deno.test("NODATA at a name and at the apex: the NSEC at the name with its real types", async () => {
  const py = await dnspython("dnssec denial");
  if (!py) return;
  const zd = await z();
  const www = await check(py, nodataProof(zd, `www.${Z}`), []);
  assertEquals(www.nsecs.map((n) => n.owner), [`www.${Z}`]);
  assertEquals(www.facts[0].types, [A, AAAA, RRSIG, NSEC]);
  const apex = await check(py, nodataProof(zd, Z), []);
  assertEquals(apex.facts[0].types, [NS, SOA, MX, TXT, RRSIG, NSEC, DNSKEY]);
  const dname = await check(py, nodataProof(zd, `dn.${Z}`), [`x.dn.${Z}`]);
  assertEquals(dname.facts[0].types, [DNAME, RRSIG, NSEC]);
});

Deno.test("NODATA at an empty non-terminal: an NSEC covering it whose next name lies below it", async () => {
  const py = await dnspython("dnssec denial");
  if (!py) return;
  for (const ent of ENTS) {
    const { covered, facts } = await check(py, nodataProof(await z(), ent), []);
    assertEquals(covered.length, 1);
    assert(covered[0].includes(ent), `${ent} covered`);
    assert(facts[0].next.endsWith(`.${ent}.`), `next ${facts[0].next} below ${ent}`);
  }
});

Deno.test("a delegation without DS: the NSEC at the cut lists NS, RRSIG and NSEC only", async () => {
  const py = await dnspython("dnssec denial");
  if (!py) return;
  const { nsecs, facts } = await check(py, nodataProof(await z(), `sub.${Z}`), []);
  assertEquals(nsecs.map((n) => n.owner), [`sub.${Z}`]);
  assertEquals(facts[0].types, [NS, RRSIG, NSEC]);
  // The secure delegation's NSEC (a query for a type the parent does not hold there) lists its DS.
  const secure = await check(py, nodataProof(await z(), `secure.${Z}`), []);
  assertEquals(secure.facts[0].types, [NS, DS, RRSIG, NSEC]);
});

Deno.test("wildcard answers: the query name covered; wildcard NODATA adds the wildcard's NSEC", async () => {
  const py = await dnspython("dnssec denial");
  if (!py) return;
  const zd = await z();
  const qname = `foo.wild.${Z}`;
  const answer = await check(py, wildcardAnswerProof(zd, qname), [qname]);
  assertEquals(answer.covered.map((c) => c.includes(qname)), [true]);
  const nodata = await check(py, wildcardNodataProof(zd, qname), [qname]);
  assertEquals(nodata.nsecs.length, 2);
  assertEquals(nodata.nsecs[1].owner, `*.wild.${Z}`);
  assert(nodata.covered[0].includes(qname));
  assertEquals(nodata.facts[1].types, [TXT, RRSIG, NSEC]);
});

Deno.test("wildcard NODATA where the NSEC covering the name is the wildcard's own: one NSEC, not two at one owner", async () => {
  const py = await dnspython("dnssec denial");
  if (!py) return;
  // "*\000" sorts just after "*": the wildcard owns the NSEC that covers it.
  const qname = `\\042\\000.wild.${Z}`;
  const { nsecs, facts, covered } = await check(py, wildcardNodataProof(await z(), qname), [qname]);
  assertEquals(nsecs.map((n) => n.owner), [`*.wild.${Z}`]);
  assertEquals(facts[0].types, [TXT, RRSIG, NSEC]);
  assert(covered[0].includes(qname));
});

Deno.test("a name that does not exist has no NODATA proof", async () => {
  let threw = false;
  try {
    nodataProof(await z(), `nope.${Z}`);
  } catch (err) {
    threw = err instanceof RangeError;
  }
  assert(threw);
});
