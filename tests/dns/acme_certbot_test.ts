/**
 * certbot obtains a certificate from pebble over DNS-01 with Palisade as the
 * zone's server: the rfc2136 plugin adds `_acme-challenge` TXT by a TSIG-signed
 * UPDATE, pebble's resolver (pointed at Palisade's DNS listener) finds it,
 * the plugin deletes it. A key not allowed for the zone gets nothing issued.
 */
import { X509Certificate } from "node:crypto";
import { assert, assertEquals, assertMatch } from "../assert.ts";
import { CERTBOT_TOOLS, runCertbot } from "../helpers/certbot.ts";
import { PEBBLE_TOOLS, startPebble } from "../helpers/pebble.ts";
import { rawRows } from "../helpers/raw_sql.ts";
import { haveSystem } from "../helpers/system.ts";
import { startTestServer, type TestServer } from "../helpers/test_server.ts";
import { dig } from "./dig.ts";

const Z = "acme.test";
const DOMAIN = `www.${Z}`;
const CHALLENGE = `_acme-challenge.${DOMAIN}`;
const TOOLS = [...PEBBLE_TOOLS, ...CERTBOT_TOOLS, "dig"];

async function withZone(): Promise<TestServer> {
  const s = await startTestServer();
  await s.services.dns.createZone("test", { name: Z, admin_email: `hostmaster@${Z}` });
  await s.services.dns.createRecord("test", Z, { domain: DOMAIN, type: "A", value: "192.0.2.80" });
  await s.services.dns.createZone("test", { name: "other.test", admin_email: "h@other.test" });
  return s;
}

/** The audit records a TSIG key's updates left: event type and the record's owner name. */
function updatesBy(s: TestServer, key: string): { event_type: string; message: string }[] {
  return rawRows<{ event_type: string; message: string }>(
    s.store,
    "audit",
    ["event_type", "message"],
    "id",
    { actor: `tsig:${key}` },
  );
}

async function tempDir(): Promise<string> {
  return await Deno.makeTempDir({ prefix: "palisade-certbot-" });
}

Deno.test("certbot with the rfc2136 plugin gets a certificate from pebble through Palisade", async () => {
  if (!haveSystem("acme certbot", TOOLS)) return;
  await using s = await withZone();
  const key = await s.services.dns.tsig.create("test", {
    name: "certbot-key",
    permissions: ["update"],
    zones: [Z],
  });
  await using pebble = await startPebble({ dnsPort: s.dns.port });
  const dir = await tempDir();
  try {
    const r = await runCertbot({ dir, pebble, dnsPort: s.dns.port, key, domain: DOMAIN });
    console.log(`certbot run (issued): ${r.ms} ms`);
    assertEquals(r.code, 0, `certbot failed:\n${r.out}\n--- pebble ---\n${pebble.log()}`);

    const leaf = new X509Certificate(await Deno.readTextFile(r.certFile));
    const intermediate = new X509Certificate(await pebble.intermediate());
    assert(leaf.subjectAltName?.split(", ").includes(`DNS:${DOMAIN}`), leaf.subjectAltName);
    assert(leaf.checkIssued(intermediate), `issuer ${leaf.issuer}, not pebble's intermediate`);
    assert(leaf.verify(intermediate.publicKey), "signed by pebble's intermediate");

    // The challenge record was made and removed by the key's updates, and is gone.
    const updates = updatesBy(s, key.name);
    assertEquals(updates.map((u) => u.event_type), ["dns.record.created", "dns.record.deleted"]);
    assert(updates.every((u) => u.message.includes(CHALLENGE)), JSON.stringify(updates));
    // Pebble's resolver is Palisade's listener: the only place the TXT could come from.
    assert(pebble.log().includes("set VALID by completed challenge"), pebble.log());
    const after = await dig(s.dns.port, [CHALLENGE, "TXT"]);
    assert(
      after.status === "NXDOMAIN" || (after.status === "NOERROR" && after.answer.length === 0),
      after.raw,
    );
    assertEquals((await s.services.dns.listRecords(Z, "TXT")).records, []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("certbot with a TSIG key not allowed for the zone fails and nothing is issued", async () => {
  if (!haveSystem("acme certbot", TOOLS)) return;
  await using s = await withZone();
  const key = await s.services.dns.tsig.create("test", {
    name: "other-key",
    permissions: ["update"],
    zones: ["other.test"],
  });
  await using pebble = await startPebble({ dnsPort: s.dns.port });
  const dir = await tempDir();
  try {
    const r = await runCertbot({ dir, pebble, dnsPort: s.dns.port, key, domain: DOMAIN });
    console.log(`certbot run (refused): ${r.ms} ms`);
    assert(r.code !== 0, `certbot succeeded with a key for another zone:\n${r.out}`);
    // dnspython's words for NOTAUTH with TSIG error BADKEY: refused by Palisade, not lost on the way.
    assertMatch(r.out, /Encountered error adding TXT record: The peer didn't know the key we used/);
    const issued = await Deno.stat(r.certFile).then(() => true, () => false);
    assertEquals(issued, false, "no certificate");
    assertEquals(updatesBy(s, key.name), [], "no record written by the key");
    assertEquals((await s.services.dns.listRecords(Z, "TXT")).records, []);
    assertEquals((await dig(s.dns.port, [CHALLENGE, "TXT"])).status, "NXDOMAIN");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
