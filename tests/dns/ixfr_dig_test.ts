/**
 * IXFR (RFC 1995) checked with dig: after a few changes through the service
 * (what the DNS API's routes call), `dig IXFR=<old serial>` returns exactly
 * the difference, record by record, against values written here; the current
 * serial gets the SOA alone; a serial the journal no longer holds (trimmed)
 * or never held gets a full transfer; over UDP the difference comes when it
 * fits one message, else the SOA alone (RFC 1995 §2).
 */
import { assert, assertEquals } from "../assert.ts";
import { haveSystem, run } from "../helpers/system.ts";
import { type DnsStack, startDnsStack } from "./stack.ts";

const Z = "ixfr.test";

/** dig's transfer output as records "owner ttl type data", in order. */
async function xfr(s: DnsStack, query: string, extra: string[] = []): Promise<string[]> {
  const r = await run("dig", [
    "@127.0.0.1",
    "-p",
    String(s.port),
    "+norec",
    "+time=3",
    "+tries=1",
    ...extra,
    Z,
    query,
  ], { allowFail: true });
  return r.stdout.split("\n")
    .filter((l) => l.trim() && !l.startsWith(";"))
    .map((l) => l.trim().split(/\s+/).filter((_, i) => i !== 2).join(" "));
}

function soa(serial: number): string {
  return `${Z}. 600 SOA ns1.${Z}. hostmaster.${Z}. ${serial} 3600 600 604800 120`;
}

async function setup(s: DnsStack) {
  await s.service.createZone("test", {
    name: Z,
    admin_email: `hostmaster@${Z}`,
    refresh: 3600,
    retry: 600,
    expire: 604800,
    minimum: 120,
    default_ttl: 600,
    nameservers: [`ns1.${Z}`, `ns2.${Z}`],
  });
  const add = async (domain: string, type: string, value: string, ttl?: number) =>
    (await s.service.createRecord("test", Z, { domain, type, value, ttl })).id;
  return {
    www: await add(`www.${Z}`, "A", "192.0.2.1"),
    txt: await add(`txt.${Z}`, "TXT", "hello", 300),
    mx: await add(Z, "MX", "10 mail.ixfr.test"),
  };
}

/** Four changes: a record added, one changed, one deleted, a nameserver added; the serials. */
async function changes(s: DnsStack, ids: Awaited<ReturnType<typeof setup>>): Promise<number[]> {
  const serial = async () => (await s.service.getZone(Z)).serial;
  const serials = [await serial()];
  await s.service.createRecord("test", Z, { domain: `new.${Z}`, type: "A", value: "192.0.2.10" });
  serials.push(await serial());
  await s.service.updateRecord("test", Z, ids.www, { value: "192.0.2.2" });
  serials.push(await serial());
  await s.service.deleteRecord("test", Z, ids.txt);
  serials.push(await serial());
  await s.service.updateZone("test", Z, {
    nameservers: [`ns1.${Z}`, `ns2.${Z}`, "ns3.example.net"],
  });
  serials.push(await serial());
  return serials;
}

Deno.test("dig IXFR=<old serial> returns exactly the changes made since, step by step", async () => {
  if (!haveSystem("ixfr dig", ["dig"])) return;
  await using s = await startDnsStack();
  const [s0, s1, s2, s3, s4] = await changes(s, await setup(s));

  assertEquals(await xfr(s, `IXFR=${s0}`), [
    soa(s4),
    soa(s0),
    soa(s1),
    `new.${Z}. 600 A 192.0.2.10`,
    soa(s1),
    `www.${Z}. 600 A 192.0.2.1`,
    soa(s2),
    `www.${Z}. 600 A 192.0.2.2`,
    soa(s2),
    `txt.${Z}. 300 TXT "hello"`,
    soa(s3),
    soa(s3),
    soa(s4),
    `${Z}. 600 NS ns3.example.net.`,
    soa(s4),
  ]);
  // From a later serial, only the steps after it.
  assertEquals(await xfr(s, `IXFR=${s2}`), [
    soa(s4),
    soa(s2),
    `txt.${Z}. 300 TXT "hello"`,
    soa(s3),
    soa(s3),
    soa(s4),
    `${Z}. 600 NS ns3.example.net.`,
    soa(s4),
  ]);
  // Up to date: the SOA alone.
  assertEquals(await xfr(s, `IXFR=${s4}`), [soa(s4)]);
  // Over UDP the difference fits one message.
  assertEquals(await xfr(s, `IXFR=${s3}`, ["+notcp"]), [
    soa(s4),
    soa(s3),
    soa(s4),
    `${Z}. 600 NS ns3.example.net.`,
    soa(s4),
  ]);
});

/** A full transfer: the SOA first and last, every record of the zone once between. */
function assertFull(lines: string[], serial: number) {
  assertEquals(lines[0], soa(serial));
  assertEquals(lines[lines.length - 1], soa(serial));
  assertEquals(lines.filter((l) => l.includes(" SOA ")).length, 2, lines.join("\n"));
  assertEquals(lines.slice(1, -1).sort(), [
    `${Z}. 600 MX 10 mail.ixfr.test.`,
    `${Z}. 600 NS ns1.${Z}.`,
    `${Z}. 600 NS ns2.${Z}.`,
    `${Z}. 600 NS ns3.example.net.`,
    `new.${Z}. 600 A 192.0.2.10`,
    `www.${Z}. 600 A 192.0.2.2`,
  ]);
}

Deno.test("IXFR from a serial the journal no longer holds, or never held, is a full transfer", async () => {
  if (!haveSystem("ixfr dig", ["dig"])) return;
  await using s = await startDnsStack({
    journal: { maxVersions: 2, maxAgeDays: 30, maxRows: 1000 },
  });
  const [s0, s1, s2, _s3, s4] = await changes(s, await setup(s));
  // Only the last two steps are kept: s2 → s3 → s4.
  assertFull(await xfr(s, `IXFR=${s0}`), s4);
  assertFull(await xfr(s, `IXFR=${s1}`), s4);
  assertFull(await xfr(s, `IXFR=${s0 - 7}`), s4);
  const kept = await xfr(s, `IXFR=${s2}`);
  assertEquals(kept.length, 8, kept.join("\n"));
  assertEquals(kept[1], soa(s2));
  // Over UDP, what the journal cannot answer gets the SOA alone.
  assertEquals(await xfr(s, `IXFR=${s0}`, ["+notcp"]), [soa(s4)]);
});

Deno.test("an IXFR difference too large for one UDP message is the SOA alone over UDP, all over TCP", async () => {
  if (!haveSystem("ixfr dig", ["dig"])) return;
  await using s = await startDnsStack();
  await setup(s);
  const before = (await s.service.getZone(Z)).serial;
  const operations = Array.from({ length: 40 }, (_, i) => ({
    operation: "create" as const,
    domain: `bulk${i}.${Z}`,
    type: "TXT",
    value: "x".repeat(100),
  }));
  await s.service.batch("test", Z, operations);
  const after = (await s.service.getZone(Z)).serial;
  assertEquals(await xfr(s, `IXFR=${before}`, ["+notcp"]), [soa(after)]);
  const tcp = await xfr(s, `IXFR=${before}`);
  assertEquals(tcp.length, 44, tcp.join("\n"));
  assertEquals(tcp.slice(0, 3), [soa(after), soa(before), soa(after)]);
  assert(tcp.slice(3, -1).every((l) => / TXT "x{100}"$/.test(l)), tcp.join("\n"));
});
