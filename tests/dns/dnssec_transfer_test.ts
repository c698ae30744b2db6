/**
 * A signed zone travels signed: AXFR of it carries the DNSKEY, an RRSIG for
 * every RRset and the full NSEC chain, which BIND's `dnssec-verify` and
 * `ldns-verify-zone` accept as a completely signed zone; and NSD, as a
 * secondary that transferred it, serves answers that `delv` fully validates
 * with the same trust anchor as Palisade's own.
 */
import { assert, assertMatch } from "../assert.ts";
import { haveSystem, run } from "../helpers/system.ts";
import { waitFor } from "../helpers/wait.ts";
import { anchorFile, answerCases, delv, populateSigned, SIGNED_ZONE as Z } from "./dnssec_delv.ts";
import { dig } from "./dig.ts";
import { startNsd } from "./nsd.ts";
import { startDnsStack } from "./stack.ts";

Deno.test("AXFR of a signed zone passes dnssec-verify and ldns-verify-zone; NSD serves it validly as a secondary", async () => {
  if (!haveSystem("dnssec transfer", ["dig", "delv", "nsd", "dnssec-verify", "ldns-verify-zone"])) {
    return;
  }
  await using s = await startDnsStack();
  await populateSigned(s);
  const status = await s.service.setDnssec("test", Z, { enable: true, algorithm: "ED25519" });
  const ksk = status.keys.find((k) => k.key_type === "KSK")!;
  const dir = await Deno.makeTempDir({ prefix: "palisade-signed-xfr-" });
  try {
    const axfr = await run("dig", [
      "@127.0.0.1",
      "-p",
      String(s.port),
      "+noall",
      "+answer",
      "+onesoa",
      Z,
      "AXFR",
    ]);
    const file = `${dir}/${Z}.zone`;
    await Deno.writeTextFile(file, axfr.stdout);
    assertMatch(axfr.stdout, /\sNSEC\s/);
    assertMatch(axfr.stdout, /\sRRSIG\s+DNSKEY\s/);
    const bind = await run("dnssec-verify", ["-o", Z, file], { allowFail: true });
    assert(bind.code === 0, `dnssec-verify:\n${bind.stdout}${bind.stderr}`);
    const ldns = await run("ldns-verify-zone", [file], { allowFail: true });
    assert(ldns.code === 0, `ldns-verify-zone:\n${ldns.stdout}${ldns.stderr}`);

    await using nsd = await startNsd([{ name: Z, primary: { ip: "127.0.0.1", port: s.port } }], {
      minimalResponses: false,
    });
    const serial = (await s.service.getZone(Z)).serial;
    const transferred = await waitFor(async () => {
      const r = await dig(nsd.port, [Z, "SOA"]);
      return r.answer.some((l) => l.includes(` ${serial} `));
    }, 15_000);
    assert(transferred, `NSD did not transfer serial ${serial}:\n${await nsd.log()}`);
    const anchors = await anchorFile(dir, Z, "ED25519", ksk.public_key);
    for (const [name, type, expect] of answerCases()) {
      const out = await delv(nsd.port, anchors, Z, name, type);
      assertMatch(out, /; (negative response, )?fully validated/, `NSD ${name} ${type}:\n${out}`);
      assertMatch(out, expect, `NSD ${name} ${type}:\n${out}`);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
