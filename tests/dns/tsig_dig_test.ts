/**
 * TSIG (RFC 8945) against independent tools: dig -y and kdig -y transfer a
 * zone with a key from the API's service from an address outside the AXFR
 * ACL, with each algorithm; a wrong secret gets NOTAUTH with BADSIG, an
 * unknown key BADKEY, and a key that lacks the zone NOTAUTH.
 */
import { assert, assertEquals, assertMatch } from "../assert.ts";
import { haveSystem, run } from "../helpers/system.ts";
import { type DnsStack, startDnsStack } from "./stack.ts";

const Z = "tsig.test";
/** What dig prints when a transfer or a signature fails. */
const DIG_FAILURE =
  /Transfer failed|Couldn't verify|verify failure|tsig indicates error|BAD(SIG|KEY|TIME)/;

async function populate(s: DnsStack): Promise<void> {
  await s.service.createZone("test", { name: Z, admin_email: "hostmaster@tsig.test" });
  for (let i = 0; i < 5; i++) {
    await s.service.createRecord("test", Z, {
      domain: `h${i}.${Z}`,
      type: "A",
      value: `192.0.2.${i + 1}`,
    });
  }
}

/** dig AXFR with `key` ("alg:name:secret"), its stdout and stderr together. */
async function digAxfr(port: number, key: string | null, zone = Z): Promise<string> {
  const r = await run("dig", [
    "@127.0.0.1",
    "-p",
    String(port),
    "+time=2",
    "+tries=1",
    ...(key ? ["-y", key] : []),
    zone,
    "AXFR",
  ], { allowFail: true });
  return r.stdout + r.stderr;
}

/** The records of a dig AXFR listing (comments and the TSIG lines left out). */
function records(out: string): string[] {
  return out.split("\n").filter((l) => l.trim() !== "" && !l.startsWith(";"))
    .map((l) => l.trim().split(/\s+/)).filter((p) => p[3] !== "TSIG").map((p) => p.join(" "));
}

Deno.test("dig -y transfers the zone from an address outside the ACL with each HMAC algorithm", async () => {
  if (!haveSystem("tsig dig", ["dig"])) return;
  await using s = await startDnsStack({ axfrAllow: ["192.0.2.99"] });
  await populate(s);
  const unsigned = await digAxfr(s.port, null);
  assertMatch(unsigned, /Transfer failed/);
  for (const algorithm of ["hmac-sha256", "hmac-sha512", "hmac-sha1"] as const) {
    const key = await s.tsig.create("test", { name: `xfr-${algorithm}`, algorithm, zones: [Z] });
    const out = await digAxfr(s.port, `${algorithm}:${key.name}:${key.secret}`);
    assert(!DIG_FAILURE.test(out), out);
    const rrs = records(out);
    assertEquals(rrs.filter((r) => r.includes(" SOA ")).length, 2, out);
    for (let i = 0; i < 5; i++) assert(rrs.some((r) => r.endsWith(`A 192.0.2.${i + 1}`)), out);
    // dig prints each message's TSIG record: the transfer was signed with our key.
    assertMatch(out, new RegExp(`^${key.name}\\.\\s+0\\s+ANY\\s+TSIG\\s+${algorithm}\\.`, "m"));
  }
});

Deno.test("a wrong secret gets NOTAUTH with BADSIG, an unknown key BADKEY, a key without the zone NOTAUTH", async () => {
  if (!haveSystem("tsig dig", ["dig"])) return;
  await using s = await startDnsStack({ axfrAllow: ["192.0.2.99"] });
  await populate(s);
  await s.service.createZone("test", { name: "other.test", admin_email: "hostmaster@other.test" });
  const key = await s.tsig.create("test", { name: "xfr", zones: [Z] });
  const wrong = btoa("x".repeat(32));
  const soa = async (k: string, zone = Z) =>
    (await run("dig", [
      "@127.0.0.1",
      "-p",
      String(s.port),
      "+time=2",
      "+tries=1",
      "-y",
      k,
      zone,
      "SOA",
    ], {
      allowFail: true,
    })).stdout;
  const badSig = await soa(`hmac-sha256:xfr:${wrong}`);
  assertMatch(badSig, /status: NOTAUTH/);
  assertMatch(badSig, /BADSIG/);
  const badKey = await soa(`hmac-sha256:nosuchkey:${wrong}`);
  assertMatch(badKey, /status: NOTAUTH/);
  assertMatch(badKey, /BADKEY/);
  const wrongAlg = await soa(`hmac-sha512:xfr:${key.secret}`);
  assertMatch(wrongAlg, /BADKEY/);
  // A valid key answers queries signed, and transfers only its zones.
  const ok = await soa(`hmac-sha256:xfr:${key.secret}`);
  assertMatch(ok, /status: NOERROR/);
  assertMatch(ok, /TSIG PSEUDOSECTION/);
  assert(!DIG_FAILURE.test(ok), ok);
  const other = await digAxfr(s.port, `hmac-sha256:xfr:${key.secret}`, "other.test");
  assertMatch(other, /Transfer failed|NOTAUTH/);
  assertEquals(records(other).length, 0, other);
  const viaAddress = await digAxfr(s.port, null, "other.test");
  assertMatch(viaAddress, /Transfer failed/);
});

Deno.test("kdig -y transfers the zone", async () => {
  if (!haveSystem("tsig kdig", ["kdig"])) return;
  await using s = await startDnsStack({ axfrAllow: ["192.0.2.99"] });
  await populate(s);
  const key = await s.tsig.create("test", { name: "kdig.key", algorithm: "hmac-sha512" });
  const r = await run("kdig", [
    "@127.0.0.1",
    "-p",
    String(s.port),
    "+time=2",
    "+retry=0",
    "-y",
    `hmac-sha512:kdig.key:${key.secret}`,
    Z,
    "AXFR",
  ], { allowFail: true });
  const out = r.stdout + r.stderr;
  assert(!/failed|;; ERROR|;; WARNING|BAD(SIG|KEY|TIME)/i.test(out), out);
  assertMatch(out, /h4\.tsig\.test\.\s+\d+\s+IN\s+A\s+192\.0\.2\.5/);
  assertEquals(records(out).filter((l) => l.includes(" SOA ")).length, 2, out);
});
