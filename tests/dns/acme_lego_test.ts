/**
 * lego obtains a certificate from pebble over DNS-01 with its `pdns` provider
 * against Palisade's PowerDNS-compatible API on the DNS-API listener, with an
 * ACME-only scoped key (TXT, `_acme-challenge.*`, write, one zone) and with the
 * server-wide `PALISADE_PDNS_API_KEY`; a key for another zone is refused and
 * nothing is issued. Pebble's resolver is Palisade's DNS listener.
 *
 * What lego 4.9.1 sends (recorded against a stand-in): GET /api (expects
 * `[{"url": "/api/v1", "version": 1}]`; without it every later path lacks
 * `/api/v1`), then per phase three GET /api/v1/servers/localhost/zones/acme.test.
 * (the zone with `rrsets`), one PATCH of that URL (Present: changetype REPLACE
 * with the quoted TXT content, ttl 10; CleanUp: changetype DELETE, no
 * records), and PUT …/acme.test./notify, whatever the zone's kind. Every
 * request carries X-API-Key; any status outside 2xx and 422 fails the run.
 */
import { X509Certificate } from "node:crypto";
import { assert, assertEquals, assertMatch } from "../assert.ts";
import { dnsApi } from "../helpers/dns_api.ts";
import { LEGO_TOOLS, type LegoRun, runLego } from "../helpers/lego.ts";
import { type Pebble, PEBBLE_TOOLS, startPebble } from "../helpers/pebble.ts";
import { haveSystem } from "../helpers/system.ts";
import { startTestServer, type TestServer } from "../helpers/test_server.ts";
import { dig } from "./dig.ts";

const Z = "acme.test";
const DOMAIN = `www.${Z}`;
const CHALLENGE = `_acme-challenge.${DOMAIN}`;
const TOOLS = [...PEBBLE_TOOLS, ...LEGO_TOOLS, "dig"];
const SERVER_KEY = "palisade-pdns-test-key-0123456789";

async function withZones(env: Record<string, string> = {}): Promise<TestServer> {
  const s = await startTestServer({ env });
  await s.services.dns.createZone("test", { name: Z, admin_email: `hostmaster@${Z}` });
  await s.services.dns.createRecord("test", Z, { domain: DOMAIN, type: "A", value: "192.0.2.80" });
  await s.services.dns.createZone("test", { name: "other.test", admin_email: "h@other.test" });
  return s;
}

/** A scoped key made over the API as the administrator; the raw key, shown once. */
async function scopedKey(s: TestServer, name: string, zones: string[]): Promise<string> {
  const api = await dnsApi(s);
  const made = await api.post("/api-keys", {
    name,
    scope: { zones, types: ["TXT"], names: ["_acme-challenge.*"], access: "write" },
  });
  assertEquals(made.status, 201, JSON.stringify(made.body));
  const key = made.body.key as string;
  assertMatch(key, /^pdk_/);
  return key;
}

/** The TXT of the challenge name as Palisade answers it ("" when there is none). */
async function challengeTxt(s: TestServer): Promise<string> {
  return (await dig(s.dns.port, [CHALLENGE, "TXT"])).answer.join("\n");
}

/**
 * Runs lego while asking Palisade for the challenge TXT every 200 ms: whether
 * it appeared during the run (lego holds it for pebble's validation, seconds).
 */
async function legoWatched(
  s: TestServer,
  pebble: Pebble,
  apiKey: string,
  dir: string,
): Promise<{ run: LegoRun; seen: boolean }> {
  let done = false;
  let seen = false;
  const watch = (async () => {
    while (!done && !seen) {
      seen = (await challengeTxt(s)).includes(" TXT ");
      await new Promise((r) => setTimeout(r, 200));
    }
  })();
  try {
    const run = await runLego({
      dir,
      pebble,
      dnsPort: s.dns.port,
      apiUrl: s.dnsApi,
      apiKey,
      domain: DOMAIN,
    });
    return { run, seen };
  } finally {
    done = true;
    await watch;
  }
}

async function assertIssued(s: TestServer, pebble: Pebble, key: string, label: string) {
  const dir = await Deno.makeTempDir({ prefix: "palisade-lego-" });
  try {
    const { run, seen } = await legoWatched(s, pebble, key, dir);
    console.log(`lego run (${label}): ${run.ms} ms`);
    assertEquals(run.code, 0, `lego failed:\n${run.out}\n--- pebble ---\n${pebble.log()}`);
    const leaf = new X509Certificate(await Deno.readTextFile(run.certFile));
    const intermediate = new X509Certificate(await pebble.intermediate());
    assert(leaf.subjectAltName?.split(", ").includes(`DNS:${DOMAIN}`), leaf.subjectAltName);
    assert(leaf.checkIssued(intermediate), `issuer ${leaf.issuer}, not pebble's intermediate`);
    assert(leaf.verify(intermediate.publicKey), "signed by pebble's intermediate");
    assert(seen, "the challenge TXT was served by Palisade during the run");
    assert(pebble.log().includes("set VALID by completed challenge"), pebble.log());
    assertEquals(await challengeTxt(s), "", "the challenge TXT is gone");
    assertEquals((await s.services.dns.listRecords(Z, "TXT")).records, []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("lego with an ACME-only scoped key gets a certificate through the PowerDNS API", async () => {
  if (!haveSystem("acme lego", TOOLS)) return;
  await using s = await withZones();
  const key = await scopedKey(s, "lego", [Z]);
  await using pebble = await startPebble({ dnsPort: s.dns.port });
  await assertIssued(s, pebble, key, "scoped key");
});

Deno.test("lego with the server's PALISADE_PDNS_API_KEY gets a certificate", async () => {
  if (!haveSystem("acme lego", TOOLS)) return;
  await using s = await withZones({ PALISADE_PDNS_API_KEY: SERVER_KEY });
  await using pebble = await startPebble({ dnsPort: s.dns.port });
  await assertIssued(s, pebble, SERVER_KEY, "server key");
});

Deno.test("lego with a scoped key for another zone is refused and nothing is issued", async () => {
  if (!haveSystem("acme lego", TOOLS)) return;
  await using s = await withZones();
  const key = await scopedKey(s, "lego-other", ["other.test"]);
  await using pebble = await startPebble({ dnsPort: s.dns.port });
  const dir = await Deno.makeTempDir({ prefix: "palisade-lego-" });
  try {
    const { run, seen } = await legoWatched(s, pebble, key, dir);
    console.log(`lego run (refused): ${run.ms} ms`);
    assert(run.code !== 0, `lego succeeded with a key for another zone:\n${run.out}`);
    assertMatch(run.out, /error presenting token: pdns: unexpected HTTP status code 403/);
    const issued = await Deno.stat(run.certFile).then(() => true, () => false);
    assertEquals(issued, false, "no certificate");
    assertEquals(seen, false, "no challenge TXT at any time");
    assertEquals((await s.services.dns.listRecords(Z, "TXT")).records, []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
