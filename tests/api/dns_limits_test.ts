/**
 * What the DNS API accepts is bounded by what the DNS listener can serve:
 * the same TTL bounds through create, update, batch and zone-file import
 * (an import error names the line); TXT beyond what one record can carry is a
 * 400, never a 500; an RRset that would not fit one TCP message is refused
 * with 422 on `value`, and what is accepted is answered in full over TCP.
 */
import { assert, assertEquals, assertMatch } from "../assert.ts";
import { type DnsApi, dnsApi } from "../helpers/dns_api.ts";
import { haveSystem } from "../helpers/system.ts";
import { startTestServer } from "../helpers/test_server.ts";
import { dig } from "../dns/dig.ts";

const Z = "example.com";
const SOA = `$ORIGIN ${Z}.
@ 3600 IN SOA ns1 hostmaster 2024010101 3600 900 1209600 300
@ 3600 IN NS ns1
ns1 3600 IN A 192.0.2.53
`;

function importText(api: DnsApi, zone: string, text: string) {
  return api.raw(`/zones/${zone}/import`, {
    method: "POST",
    headers: { "Content-Type": "text/dns" },
    body: text,
  }).then(async (res) => ({ status: res.status, body: await res.json() }));
}

async function newZone(api: DnsApi, name = Z): Promise<void> {
  const res = await api.post("/zones", {
    name,
    admin_email: `hostmaster@${name}`,
    default_ttl: 600,
    nameservers: [`ns1.${name}`],
  });
  assertEquals(res.status, 201, JSON.stringify(res.body));
}

Deno.test("zone-file import takes TTLs and SOA numbers within the API's bounds only, and an error names the line", async () => {
  await using t = await startTestServer();
  const api = await dnsApi(t);
  const refused: [string, RegExp][] = [
    [`${SOA}big 9999999999999 IN A 192.0.2.5\n`, /^Line 5: .*TTL "9999999999999"/],
    [`${SOA}huge 4294967296 IN A 192.0.2.7\n`, /^Line 5: .*TTL "4294967296"/],
    [`${SOA}edge 2147483648 IN A 192.0.2.8\n`, /^Line 5: .*TTL "2147483648"/],
    [`${SOA}$TTL 4294967296\nx IN A 192.0.2.9\n`, /^Line 5: .*TTL "4294967296"/],
    [
      `$ORIGIN ${Z}.\n@ 3600 IN SOA ns1 hostmaster 4294967296 3600 900 1209600 300\n`,
      /^Line 2: .*serial "4294967296"/,
    ],
    [
      `$ORIGIN ${Z}.\n\n@ 3600 IN SOA ns1 hostmaster 1 99999999999 900 1209600 300\n`,
      /^Line 3: .*refresh "99999999999"/,
    ],
    [
      `$ORIGIN ${Z}.\n@ 3600 IN SOA ns1 hostmaster 1 3600 900 1209600 86401\n`,
      /^Line 2: .*"minimum"/,
    ],
  ];
  for (const [text, said] of refused) {
    const res = await importText(api, Z, text);
    assertEquals(res.status, 400, `${text}: ${JSON.stringify(res.body)}`);
    assertMatch(res.body.error as string, said);
  }
  // Nothing was created by the refused imports.
  assertEquals((await api.get(`/zones/${Z}`)).status, 404);

  // The largest TTL the record API takes is the largest an import takes.
  const ok = await importText(api, Z, `${SOA}max 2147483647 IN A 192.0.2.10\n`);
  assertEquals(ok.status, 200, JSON.stringify(ok.body));
  const body = { domain: `api.${Z}`, type: "A", value: "192.0.2.11" };
  assertEquals((await api.post(`/zones/${Z}/records`, { ...body, ttl: 2147483647 })).status, 201);
  assertEquals((await api.post(`/zones/${Z}/records`, { ...body, ttl: 2147483648 })).status, 400);
  if (haveSystem("maximum TTL served", ["dig"])) {
    const a = await dig(t.dns.port, [`max.${Z}`, "A"]);
    assertEquals(a.answer, [`max.${Z}. 2147483647 IN A 192.0.2.10`]);
  }
});

Deno.test("TXT and SPF values longer than a record can carry are 400 through create, update, batch and import, never 500", async () => {
  await using t = await startTestServer();
  const api = await dnsApi(t);
  await newZone(api);
  const long = "v".repeat(65_280);
  const txt = await api.post(`/zones/${Z}/records`, { domain: `t.${Z}`, type: "TXT", value: "x" });
  assertEquals(txt.status, 201);
  const replies = [
    await api.post(`/zones/${Z}/records`, { domain: `t.${Z}`, type: "TXT", value: long }),
    await api.post(`/zones/${Z}/records`, { domain: `s.${Z}`, type: "SPF", value: long }),
    await api.put(`/zones/${Z}/records/${txt.body.id}`, { value: long }),
    await api.post(`/zones/${Z}/records/batch`, {
      operations: [{ operation: "create", domain: `b.${Z}`, type: "TXT", value: long }],
    }),
    await importText(api, Z, `${SOA}\nimported 60 IN TXT "${long}"\n`),
  ];
  for (const [i, res] of replies.entries()) {
    assertEquals(res.status, 400, `reply ${i}: ${JSON.stringify(res.body).slice(0, 300)}`);
    assertMatch(res.body.error as string, /value: text takes 65536 bytes/, `reply ${i}`);
  }
  assertMatch(replies[4].body.error as string, /^Line 6: /);
});

Deno.test("an RRset that would not fit one TCP message is refused with 422, and what is accepted is answered in full over TCP", async () => {
  await using t = await startTestServer();
  const api = await dnsApi(t);
  await newZone(api);
  const a = (i: number) => `10.${i >> 16 & 255}.${i >> 8 & 255}.${i & 255}`;
  const batch = (from: number, n: number) =>
    api.post(`/zones/${Z}/records/batch`, {
      operations: Array.from({ length: n }, (_, k) => ({
        operation: "create",
        domain: `many.${Z}`,
        type: "A",
        value: a(from + k),
      })),
    });
  // 5 000 A records at one name cannot be answered, even over TCP: somewhere a batch is refused.
  let stored = 0;
  let refusedAt = -1;
  for (let b = 0; b < 5 && refusedAt < 0; b++) {
    const res = await batch(stored, 1000);
    if (res.status === 200) {
      stored += 1000;
      continue;
    }
    assertEquals(res.status, 422, JSON.stringify(res.body).slice(0, 500));
    const results = res.body.results as { status: string }[];
    refusedAt = results.findIndex((r) => r.status === "failed");
    assertMatch(res.body.error as string, /fit in one DNS message over TCP/);
  }
  assert(refusedAt >= 0, "5 000 A records at one name were accepted");
  // Everything up to the refused record fits, and is answered whole over TCP.
  if (refusedAt > 0) assertEquals((await batch(stored, refusedAt)).status, 200);
  stored += refusedAt;
  const one = await api.post(`/zones/${Z}/records`, {
    domain: `many.${Z}`,
    type: "A",
    value: a(stored),
  });
  assertEquals(one.status, 422, JSON.stringify(one.body));

  // Two 40 KB TXT records at one name: the second is refused, with the reason.
  const text = (c: string) => c.repeat(40_000);
  const first = await api.post(`/zones/${Z}/records`, {
    domain: `k.${Z}`,
    type: "TXT",
    value: text("a"),
  });
  assertEquals(first.status, 201);
  const second = await api.post(`/zones/${Z}/records`, {
    domain: `k.${Z}`,
    type: "TXT",
    value: text("b"),
  });
  assertEquals(second.status, 422, JSON.stringify(second.body).slice(0, 300));
  assertMatch(second.body.error as string, /TXT records of "k\.example\.com" would take \d+ bytes/);
  // The same through an import, naming the line of the record that does not fit.
  const imported = await importText(
    api,
    "example.net",
    `${SOA.replaceAll(Z, "example.net")}k 60 IN TXT "${text("a")}"\nk 60 IN TXT "${text("b")}"\n`,
  );
  assertEquals(imported.status, 422, JSON.stringify(imported.body).slice(0, 300));
  assertMatch(imported.body.error as string, /^Line 6: /);

  if (!haveSystem("large RRsets over TCP", ["dig"])) return;
  const many = await dig(t.dns.port, ["+tcp", `many.${Z}`, "A"]);
  assertEquals([many.status, many.flags.includes("tc"), many.answer.length], [
    "NOERROR",
    false,
    stored,
  ]);
  const k = await dig(t.dns.port, ["+tcp", `k.${Z}`, "TXT"]);
  assertEquals([k.status, k.flags.includes("tc"), k.answer.length], ["NOERROR", false, 1]);
});

Deno.test("zone and owner names must be DNS names: no slash, a top label that starts with a letter, A-labels for IDN; service labels and wildcards stay", async () => {
  await using t = await startTestServer();
  const api = await dnsApi(t);
  const zone = (name: string) =>
    api.post("/zones", { name, admin_email: "hostmaster@example.org" });
  for (
    const bad of ["a/b", "1e999", "123", "example.123", "xn--zz.example", "ex ample.org", "a..b"]
  ) {
    const res = await zone(bad);
    assertEquals(res.status, 400, `${bad}: ${JSON.stringify(res.body)}`);
  }
  const imported = await importText(api, "1e999", SOA.replaceAll(Z, "1e999"));
  assertEquals(imported.status, 400, JSON.stringify(imported.body));
  const created: [string, string][] = [
    ["Example.ORG.", "example.org"],
    ["München.Example", "xn--mnchen-3ya.example"],
    ["xn--mnchen-3ya.test", "xn--mnchen-3ya.test"],
    ["0-25.2.0.192.in-addr.arpa", "0-25.2.0.192.in-addr.arpa"],
    ["_tcp.example.net", "_tcp.example.net"],
  ];
  for (const [name, stored] of created) {
    const res = await zone(name);
    assertEquals([res.status, res.body.name], [201, stored], JSON.stringify(res.body));
  }
  const record = (domain: string, type = "TXT", value = "v=DMARC1; p=none") =>
    api.post("/zones/example.org/records", { domain, type, value });
  // "*" first is a wildcard; "*" below it is a literal label (RFC 4592 §2.1.1, a name below a wildcard).
  const owners = ["_dmarc.example.org", "_acme-challenge.www.example.org", "*.example.org"];
  for (const ok of [...owners, "x.*.example.org"]) {
    assertEquals((await record(ok)).status, 201, ok);
  }
  assertEquals(
    (await record("_sip._tcp.example.org", "SRV", "0 5 5060 sip.example.org")).status,
    201,
  );
  for (
    const bad of ["a/b.example.org", "x*.example.org", "*x.example.org", "xn--zz.example.org"]
  ) {
    const res = await record(bad);
    assertEquals(res.status, 400, `${bad}: ${JSON.stringify(res.body)}`);
  }
});
