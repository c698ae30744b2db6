/**
 * DNSSEC keys through the DNS management API (specs/dns.md,
 * `/zones/{name}/dnssec`; docs/dns.md, "DNSSEC"): enabling with each
 * algorithm makes a KSK and a ZSK of the right size, and DS records whose key
 * tag and digest dnspython computes alike from the DNSKEY the status shows;
 * disabling keeps the keys, enabling again reuses them; the error statuses;
 * audit records and ZoneChanged events.
 */
import { assert, assertEquals, assertMatch } from "../assert.ts";
import { auditRows, type DnsApi, dnsApi, watchEvents } from "../helpers/dns_api.ts";
import { rawRow } from "../helpers/raw_sql.ts";
import { startTestServer } from "../helpers/test_server.ts";
import { dnssecOracle } from "../dns/dnssec_oracle.ts";

const ISO_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const NUMBERS: Record<string, number> = { RSASHA256: 8, ECDSAP256SHA256: 13, ED25519: 15 };

interface Key {
  id: string;
  algorithm: string;
  key_type: string;
  bits: number;
  created_at: string;
  expires_at: string | null;
  key_tag: number;
  flags: number;
  public_key: string;
}
interface Ds {
  key_tag: string;
  algorithm: string;
  digest_type: string;
  digest: string;
}

async function zone(api: DnsApi, name: string): Promise<void> {
  const r = await api.post("/zones", { name, admin_email: `hostmaster@${name}` });
  assertEquals(r.status, 201, JSON.stringify(r.body));
}

/** [request algorithm, key_size, the mnemonic answered, bits] */
const CASES: [string | undefined, number | undefined, string, number][] = [
  [undefined, undefined, "ECDSAP256SHA256", 256],
  ["ED25519", undefined, "ED25519", 256],
  ["13", 256, "ECDSAP256SHA256", 256],
  ["RSASHA256", undefined, "RSASHA256", 2048],
  ["8", 3072, "RSASHA256", 3072],
];

Deno.test("POST /zones/{name}/dnssec enables each algorithm: a KSK and a ZSK, DS records as dnspython makes them", async () => {
  await using t = await startTestServer();
  await using events = await watchEvents(t);
  const api = await dnsApi(t);
  for (const [i, [algorithm, key_size, name, bits]] of CASES.entries()) {
    const z = `z${i}.example.com`;
    await zone(api, z);
    const before = (await api.get(`/zones/${z}`)).body;
    assertEquals(before.dnssec_enabled, false);
    assertEquals((await api.get(`/zones/${z}/dnssec`)).body, {
      enabled: false,
      keys: [],
      keys_total: 0,
      keys_next_cursor: null,
      ds_records: [],
      rollover: null,
      zsk_rotation_days: null,
    });

    const res = await api.post(`/zones/${z}/dnssec`, { enable: true, algorithm, key_size });
    assertEquals(res.status, 200, JSON.stringify(res.body));
    assertEquals(res.body.enabled, true);
    const keys = res.body.keys as Key[];
    assertEquals(keys.map((k) => [k.key_type, k.flags, k.algorithm, k.bits]), [
      ["KSK", 257, name, bits],
      ["ZSK", 256, name, bits],
    ]);
    for (const k of keys) {
      assertMatch(k.created_at, ISO_UTC);
      assertEquals(k.expires_at, null);
    }
    assertEquals((await api.get(`/zones/${z}/dnssec`)).body, res.body, "GET shows the same");
    const after = (await api.get(`/zones/${z}`)).body;
    assertEquals(after.dnssec_enabled, true);
    assertEquals(after.serial, (before.serial as number) + 1);

    const oracle = await dnssecOracle(
      "dnssec DS oracle",
      keys.map((k) => ({
        owner: z,
        dnskey: `${k.flags} 3 ${NUMBERS[k.algorithm]} ${k.public_key}`,
      })),
    );
    if (oracle) {
      keys.forEach((k, j) => assertEquals(k.key_tag, oracle[j].key_id, `${name} ${k.key_type}`));
      if (name === "RSASHA256") assertEquals(oracle.map((o) => o.rsa_bits), [bits, bits]);
      // DS records come from the KSK: SHA-256, and SHA-384 for the elliptic-curve algorithms.
      const expected = oracle[0].ds.slice(0, name === "RSASHA256" ? 1 : 2).map((d) => {
        const [tag, alg, type, digest] = d.split(" ");
        return { key_tag: tag, algorithm: alg, digest_type: type, digest: digest.toUpperCase() };
      });
      assertEquals(res.body.ds_records as Ds[], expected, name);
    }
    await events.waitFor((f) =>
      f.type === "ZoneChanged" && f.payload.zone === z && f.payload.action === "dnssec_enabled" &&
      f.payload.serial === after.serial
    );
  }
  const audit = await auditRows(t, { event_type: "dns.dnssec.enabled" });
  assertEquals(audit.map((a) => a.resource_id), CASES.map((_, i) => `z${i}.example.com`));
  assert(audit.every((a) => a.actor === "admin" && a.resource_type === "dns_zone"));
});

Deno.test("disabling keeps the keys: enabling again with the same algorithm reuses them, another algorithm replaces them", async () => {
  await using t = await startTestServer();
  const api = await dnsApi(t);
  await zone(api, "example.org");
  const on = (await api.post("/zones/example.org/dnssec", { enable: true })).body;
  const ids = (on.keys as Key[]).map((k) => k.id);
  // Enabling again changes nothing.
  assertEquals((await api.post("/zones/example.org/dnssec", { enable: true })).body, on);
  const serial = (await api.get("/zones/example.org")).body.serial as number;

  const off = await api.post("/zones/example.org/dnssec", { enable: false });
  assertEquals(off.status, 200, JSON.stringify(off.body));
  assertEquals(off.body.enabled, false);
  assertEquals(off.body.ds_records, []);
  assertEquals((off.body.keys as Key[]).map((k) => k.id), ids);
  assert(typeof off.body.warning === "string" && off.body.warning.includes("DS"));
  const details = (await api.get("/zones/example.org")).body;
  assertEquals([details.dnssec_enabled, details.serial], [false, serial + 1]);
  const status = (await api.get("/zones/example.org/dnssec")).body;
  assertEquals(status, {
    enabled: false,
    keys: off.body.keys,
    keys_total: 2,
    keys_next_cursor: null,
    ds_records: [],
    rollover: null,
    zsk_rotation_days: null,
  });
  // Disabling again changes nothing and warns no more.
  assertEquals((await api.post("/zones/example.org/dnssec", { enable: false })).body, status);

  const again = (await api.post("/zones/example.org/dnssec", {
    enable: true,
    algorithm: "ECDSAP256SHA256",
  })).body;
  assertEquals(again, on, "the same keys and DS records");

  await api.post("/zones/example.org/dnssec", { enable: false });
  const other = await api.post("/zones/example.org/dnssec", { enable: true, algorithm: "ED25519" });
  assertEquals(other.status, 200);
  const keys = other.body.keys as Key[];
  assertEquals(keys.map((k) => k.algorithm), ["ED25519", "ED25519"]);
  assert(keys.every((k) => !ids.includes(k.id)), "new keys");

  const audit = await auditRows(t, { resource_id: "example.org" });
  assertEquals(audit.map((a) => a.event_type), [
    "dns.zone.created",
    "dns.dnssec.enabled",
    "dns.dnssec.disabled",
    "dns.dnssec.enabled",
    "dns.dnssec.disabled",
    "dns.dnssec.enabled",
  ]);
  // Deleting the zone deletes its keys.
  assertEquals((await api.del("/zones/example.org")).status, 200);
  const left = rawRow(t.store, "dnssec_keys", ["id"], { zone_name: "example.org" });
  assertEquals(left, undefined);
});

Deno.test("DNSSEC errors: 404 unknown zone, 422 algorithm or key size, 409 another algorithm while enabled, 400 malformed", async () => {
  await using t = await startTestServer();
  const api = await dnsApi(t);
  await zone(api, "example.net");
  assertEquals((await api.get("/zones/nowhere.example/dnssec")).status, 404);
  assertEquals((await api.post("/zones/nowhere.example/dnssec", { enable: true })).status, 404);
  const status = async (body: unknown) =>
    (await api.post("/zones/example.net/dnssec", body)).status;
  for (const algorithm of ["RSASHA1", "7", "ED448", "16", "DSA", ""]) {
    assertEquals(await status({ enable: true, algorithm }), algorithm ? 422 : 400, algorithm);
  }
  for (
    const [algorithm, key_size] of [
      ["RSASHA256", 1024],
      ["RSASHA256", 4097],
      ["ECDSAP256SHA256", 384],
      ["ED25519", 2048],
      [undefined, 512],
    ] as const
  ) {
    assertEquals(
      await status({ enable: true, algorithm, key_size }),
      422,
      `${algorithm} ${key_size}`,
    );
  }
  assertEquals(await status({ enable: false, algorithm: "RSASHA1" }), 422);
  for (
    const body of [
      {},
      { enable: "yes" },
      { enable: true, key_size: 2048.5 },
      { enable: true, key_size: "2048" },
      { enable: true, algorithm: 13 },
      { enable: true, rotate: true },
      [],
    ]
  ) {
    assertEquals(await status(body), 400, JSON.stringify(body));
  }
  // Nothing of the refused requests was applied.
  assertEquals((await api.get("/zones/example.net/dnssec")).body.keys, []);

  assertEquals(await status({ enable: true, algorithm: "ED25519" }), 200);
  assertEquals(await status({ enable: true, algorithm: "RSASHA256" }), 409);
  assertEquals(await status({ enable: true, algorithm: "15" }), 200);
  const viewer = await dnsApi(t, "vera", "viewer");
  assertEquals((await viewer.get("/zones/example.net/dnssec")).status, 200);
  assertEquals((await viewer.post("/zones/example.net/dnssec", { enable: false })).status, 403);
});
