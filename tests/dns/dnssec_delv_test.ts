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
import { anchorFile, answerCases, delv, populateSigned, SIGNED_ZONE as Z } from "./dnssec_delv.ts";
import { startDnsStack } from "./stack.ts";

for (const algorithm of ["ECDSAP256SHA256", "ED25519", "RSASHA256"]) {
  Deno.test(`delv fully validates every kind of answer of a zone signed with ${algorithm}`, async () => {
    if (!haveSystem("dnssec delv", ["delv", "kdig"])) return;
    await using s = await startDnsStack();
    await populateSigned(s);
    const status = await s.service.setDnssec("test", Z, { enable: true, algorithm });
    const ksk = status.keys.find((k) => k.key_type === "KSK")!;
    const dir = await Deno.makeTempDir({ prefix: "palisade-delv-" });
    try {
      const anchors = await anchorFile(dir, Z, algorithm, ksk.public_key);
      const cases = answerCases();
      for (const [name, type, expect] of cases) {
        const out = await delv(s.port, anchors, Z, name, type);
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
