/**
 * Zone files over HTTP: `POST /zones/{name}/import` (raw text/dns or
 * text/plain, or JSON) and `GET /zones/{name}/export`. BIND's parser
 * (named-checkzone -D) is the oracle for "every record kept"; named-checkzone
 * and nsd-checkzone must accept the export.
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../assert.ts";
import { auditRows, type DnsApi, dnsApi, watchEvents } from "../helpers/dns_api.ts";
import { haveSystem, run } from "../helpers/system.ts";
import { startTestServer } from "../helpers/test_server.ts";
import { dig } from "../dns/dig.ts";

const FIXTURES = new URL("../fixtures/dns/", import.meta.url);

/** The zone as BIND reads it: one normalized line per record, sorted. */
async function bindRecords(zone: string, file: string): Promise<string[]> {
  const r = await run("named-checkzone", ["-D", "-o", "-", zone, file]);
  return r.stdout.split("\n").filter((l) => l.trim() && !l.startsWith(";"))
    .map((l) => l.trim().split(/\s+/).join(" ").toLowerCase()).sort();
}

function importRaw(api: DnsApi, zone: string, text: string | Uint8Array, opts: {
  type?: string;
  query?: string;
} = {}) {
  return api.raw(`/zones/${zone}/import${opts.query ?? ""}`, {
    method: "POST",
    headers: { "Content-Type": opts.type ?? "text/dns" },
    body: text as BodyInit,
  }).then(async (res) => ({ status: res.status, body: await res.json() }));
}

async function exportText(api: DnsApi, zone: string, accept?: string) {
  const res = await api.raw(`/zones/${zone}/export`, {
    headers: accept ? { Accept: accept } : {},
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

for (
  const [zone, fixture, probe] of [
    ["example.com", "bind_example.zone", "www.example.com"],
    ["example.org", "nsd_example.zone", "www.example.org"],
  ]
) {
  Deno.test(`POST /zones/{name}/import → GET /zones/{name}/export keeps every record of ${fixture}, and BIND and NSD accept the export`, async () => {
    if (
      !haveSystem(`HTTP zone round trip ${fixture}`, ["named-checkzone", "nsd-checkzone", "dig"])
    ) {
      return;
    }
    await using t = await startTestServer();
    const api = await dnsApi(t);
    const original = new URL(fixture, FIXTURES).pathname;
    const text = await Deno.readTextFile(original);

    const imported = await importRaw(api, zone, text);
    assertEquals(imported.status, 200, JSON.stringify(imported.body));
    assertEquals(imported.body.zone, zone);
    assertEquals(imported.body.created, true);
    assert(imported.body.added > 5, JSON.stringify(imported.body));

    const out = await exportText(api, zone);
    assertEquals(out.status, 200);
    assertEquals(out.headers.get("content-type"), "text/dns; charset=utf-8");
    assertEquals(out.headers.get("content-disposition"), `attachment; filename="${zone}.zone"`);
    const file = `${t.dir}/${zone}.zone`;
    await Deno.writeTextFile(file, out.text);
    assertEquals(await bindRecords(zone, file), await bindRecords(zone, original));
    assertStringIncludes((await run("named-checkzone", [zone, file])).stdout, "OK");
    await run("nsd-checkzone", [zone, file]);

    // The imported zone is served at once.
    const a = await dig(t.dns.port, [probe, "A"]);
    assertEquals(a.status, "NOERROR");
    assert(a.answer.length > 0, a.raw);

    // Second trip, JSON form into a fresh zone: the export is a fixed point.
    assertEquals((await api.del(`/zones/${zone}`)).status, 200);
    const again = await api.post(`/zones/${zone}/import`, { zone_file: out.text });
    assertEquals(again.status, 200, JSON.stringify(again.body));
    assertEquals(again.body.created, true);
    assertEquals((await exportText(api, zone)).text, out.text);
  });
}

Deno.test("POST /zones/{name}/import merges by default, replaces on request, and takes raw text or JSON", async () => {
  await using t = await startTestServer();
  const api = await dnsApi(t);
  await using events = await watchEvents(t);
  assertEquals(
    (await api.post("/zones", {
      name: "example.com",
      admin_email: "hostmaster@example.com",
      nameservers: ["ns1.example.com"],
    })).status,
    201,
  );
  const serial = async () => (await api.get("/zones/example.com")).body.serial as number;
  const s0 = await serial();
  const three = "$ORIGIN example.com.\n$TTL 300\nwww IN A 192.0.2.1\nmail IN A 192.0.2.25\n" +
    "@ IN MX 10 mail ; preference and a relative host\n";

  const first = await importRaw(api, "example.com", three, { type: "text/plain; charset=utf-8" });
  assertEquals(first.status, 200, JSON.stringify(first.body));
  assertEquals(first.body, {
    zone: "example.com",
    created: false,
    added: 3,
    skipped: 0,
    removed: 0,
    serial: s0 + 1,
  });
  const merged = await importRaw(api, "example.com", three);
  assertEquals([merged.body.added, merged.body.skipped, merged.body.removed], [0, 3, 0]);
  assertEquals(await serial(), s0 + 2);

  const replaced = await importRaw(
    api,
    "example.com",
    "$ORIGIN example.com.\nwww 60 IN A 192.0.2.2\n",
    { query: "?replace=true" },
  );
  assertEquals([replaced.body.added, replaced.body.skipped, replaced.body.removed], [1, 0, 3]);
  const listed = (await api.get("/zones/example.com/records")).body.records as {
    domain: string;
    type: string;
    value: string;
    ttl: number;
  }[];
  assertEquals(listed.map((r) => [r.domain, r.type, r.value, r.ttl]).slice(1), [
    ["www.example.com", "A", "192.0.2.2", 60],
  ]);

  const json = await api.post("/zones/example.com/import", {
    content: "$ORIGIN example.com.\napi 120 IN AAAA 2001:db8::7\n",
    replace: false,
  });
  assertEquals(json.status, 200, JSON.stringify(json.body));
  assertEquals([json.body.added, json.body.removed], [1, 0]);
  assertEquals(await serial(), s0 + 4);
  assertEquals((await api.get("/zones/example.com")).body.records_count, 3);

  // Refusals change nothing.
  const before = await exportText(api, "example.com");
  const refusals: [number, Promise<{ status: number; body: Record<string, unknown> }>, RegExp][] = [
    [
      400,
      importRaw(
        api,
        "example.com",
        "$ORIGIN example.com.\nok 60 IN A 192.0.2.3\nbad 60 IN A 999.0.0.1\n",
      ),
      /^Line 3: /,
    ],
    [400, importRaw(api, "example.com", "$INCLUDE /etc/passwd\n"), /INCLUDE/],
    [400, importRaw(api, "example.com", "   \n"), /empty/],
    [400, importRaw(api, "example.com", new Uint8Array([0x77, 0xff, 0xfe, 0x0a])), /UTF-8/],
    [400, importRaw(api, "example.com", "x", { type: "application/octet-stream" }), /Content-Type/],
    [400, importRaw(api, "example.com", "x", { query: "?replace=maybe" }), /"replace"/],
    [400, api.post("/zones/example.com/import", { zone_file: "a", content: "b" }), /exactly one/],
    [400, api.post("/zones/example.com/import", { replace: true }), /exactly one/],
    [400, api.post("/zones/example.com/import", { zone_file: 7 }), /"zone_file"/],
    [
      413,
      importRaw(api, "example.com", `; ${"x".repeat(1024 * 1024)}\n`),
      /larger than 1048576 bytes/,
    ],
    [
      409,
      importRaw(
        api,
        "example.com",
        "$ORIGIN example.com.\nwww 60 IN CNAME elsewhere.example.org.\n",
      ),
      /CNAME/,
    ],
    [422, importRaw(api, "new.example", "www 300 IN A 192.0.2.1\n"), /SOA/],
  ];
  for (const [status, pending, said] of refusals) {
    const r = await pending;
    assertEquals(r.status, status, JSON.stringify(r.body));
    assertEquals(r.body.status, status);
    assertMatch(r.body.error as string, said);
  }
  assertEquals((await exportText(api, "example.com")).text, before.text);
  assertEquals((await api.get("/zones/nothere.example")).status, 404);
  assertEquals((await api.get("/zones/new.example")).status, 404);

  // A missing zone with an SOA in the file is created from it, keeping the file's serial.
  const created = await importRaw(
    api,
    "new.example",
    "$ORIGIN new.example.\n$TTL 900\n@ IN SOA ns.new.example. admin.new.example. 2024010107 7200 1800 604800 600\n" +
      "@ IN NS ns.new.example.\nns IN A 192.0.2.53\n",
  );
  assertEquals(created.status, 200, JSON.stringify(created.body));
  assertEquals([created.body.created, created.body.serial], [true, 2024010107]);
  const details = (await api.get("/zones/new.example")).body;
  assertEquals(
    [details.admin_email, details.refresh, details.default_ttl, details.nameservers],
    ["admin@new.example", 7200, 900, ["ns.new.example"]],
  );

  // Viewing the export in a browser-like client gets text/plain.
  const plain = await exportText(api, "new.example", "text/plain");
  assertEquals(plain.headers.get("content-type"), "text/plain; charset=utf-8");
  assertStringIncludes(plain.text, "$ORIGIN new.example.");

  const imports = await auditRows(t, { event_type: "dns.zone.imported" });
  assertEquals(imports.map((r) => r.resource_id), [
    "example.com",
    "example.com",
    "example.com",
    "example.com",
    "new.example",
  ]);
  await events.waitFor((f) => f.type === "ZoneChanged" && f.payload.zone === "new.example");
  assertEquals(
    events.frames.filter((f) => f.type === "ZoneChanged" && f.payload.action === "imported")
      .length,
    5,
  );
});
