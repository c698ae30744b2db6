/**
 * Signed answers judged by a validating resolver: BIND's `delv`, given the
 * zone's KSK as its trust anchor and pointed at Palisade's listener, must
 * report "fully validated" for every kind of answer — an A record, a CNAME
 * chain inside the zone, a wildcard answer, NXDOMAIN, NODATA (at a name and
 * from a wildcard), a delegation with DS and one without (DS query) — for
 * algorithms 13, 15 and 8. kdig +dnssec shows the RRSIGs and the NSECs.
 */
import { assert, assertEquals, assertMatch } from "../assert.ts";
import { haveSystem, run } from "../helpers/system.ts";
import { type DnsStack, startDnsStack } from "./stack.ts";

const Z = "signed.test";
const DS_OF_CHILD = "12345 13 2 " + "AB".repeat(32);

function populate(s: DnsStack) {
  s.service.createZone("test", { name: Z, admin_email: `h@${Z}` });
  const add = (domain: string, type: string, value: string) =>
    s.service.createRecord("test", Z, { domain: `${domain}.${Z}`, type, value });
  add("www", "A", "192.0.2.10");
  add("alias", "CNAME", `chain.${Z}`);
  add("chain", "CNAME", `www.${Z}`);
  add("*.wild", "A", "192.0.2.20");
  add("host.deep.ent", "A", "192.0.2.30");
  add("secure", "NS", `ns.secure.${Z}`);
  add("ns.secure", "A", "192.0.2.40");
  add("secure", "DS", DS_OF_CHILD);
  add("insecure", "NS", "ns.example.net");
}

/** delv's verdict line and answer lines for `name type`. */
async function delv(port: number, anchors: string, name: string, type: string) {
  const r = await run("delv", [
    "@127.0.0.1",
    "-p",
    String(port),
    "-a",
    anchors,
    `+root=${Z}`,
    "+nocrypto",
    name,
    type,
  ], { allowFail: true });
  return `${r.stdout}\n${r.stderr}`;
}

for (const algorithm of ["ECDSAP256SHA256", "ED25519", "RSASHA256"]) {
  Deno.test(`delv fully validates every kind of answer of a zone signed with ${algorithm}`, async () => {
    if (!haveSystem("dnssec delv", ["delv", "kdig"])) return;
    await using s = await startDnsStack();
    populate(s);
    const status = await s.service.setDnssec("test", Z, { enable: true, algorithm });
    const ksk = status.keys.find((k) => k.key_type === "KSK")!;
    const alg = { ECDSAP256SHA256: 13, ED25519: 15, RSASHA256: 8 }[algorithm];
    const dir = await Deno.makeTempDir({ prefix: "palisade-delv-" });
    try {
      const anchors = `${dir}/anchors.conf`;
      await Deno.writeTextFile(
        anchors,
        `trust-anchors { ${Z}. static-key 257 3 ${alg} "${ksk.public_key}"; };\n`,
      );
      const cases: [string, string, RegExp][] = [
        [`www.${Z}`, "A", /192\.0\.2\.10/],
        [`alias.${Z}`, "A", /192\.0\.2\.10/],
        [`x.wild.${Z}`, "A", /192\.0\.2\.20/],
        [`nope.${Z}`, "A", /NXDOMAIN|ncache nxdomain/],
        [`www.${Z}`, "TXT", /nxrrset/],
        [`ent.${Z}`, "A", /nxrrset/],
        [`x.wild.${Z}`, "TXT", /nxrrset/],
        [`secure.${Z}`, "DS", /12345 13 2/],
        [`insecure.${Z}`, "DS", /nxrrset/],
        [Z, "DNSKEY", /DNSKEY/],
      ];
      for (const [name, type, expect] of cases) {
        const out = await delv(s.port, anchors, name, type);
        assertMatch(out, /; (negative response, )?fully validated/, `${name} ${type}:\n${out}`);
        assertMatch(out, expect, `${name} ${type}:\n${out}`);
      }
      // kdig shows the signatures and the denial records.
      const k = await run("kdig", [
        "@127.0.0.1",
        "-p",
        String(s.port),
        "+dnssec",
        `nope.${Z}`,
        "A",
      ]);
      assertMatch(k.stdout, /\sNSEC\s/);
      assertMatch(k.stdout, /\sRRSIG\s+NSEC\s/);
      assertMatch(k.stdout, /\sRRSIG\s+SOA\s/);
      // Without DO the answer is as before: no RRSIG.
      const plain = await run("kdig", ["@127.0.0.1", "-p", String(s.port), `www.${Z}`, "A"]);
      assert(!/RRSIG/.test(plain.stdout), plain.stdout);
      assertEquals(/status: NOERROR/.test(plain.stdout), true);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
}
