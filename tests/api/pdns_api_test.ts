/**
 * Palisade's PowerDNS-compatible API (docs/dns.md, "PowerDNS-compatible
 * API") on its own: the key (absent, wrong, unset setting), PowerDNS's error
 * shape, atomic PATCH, refusals that must never succeed (disabled records,
 * SOA writes, secondary zones: 501), and that every route under
 * /api/v1/servers in the manifest refuses a request without the key. The
 * comparison with PowerDNS itself is tests/dns/pdns_differential_test.ts.
 */
import { assert, assertEquals } from "../assert.ts";
import { startTestServer } from "../helpers/test_server.ts";
import { METHODS } from "../../server/http/define.ts";

const KEY = "pdns-test-key-0123456789";
const Z = "/api/v1/servers/localhost/zones";

function client(base: string, key: string | null = KEY) {
  return async (method: string, path: string, body?: unknown) => {
    const headers: Record<string, string> = key === null ? {} : { "X-API-Key": key };
    const res = await fetch(`${base}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let json: unknown = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = text;
    }
    return { status: res.status, body: json as Record<string, unknown>, text };
  };
}

function errorOnly(res: { status: number; body: Record<string, unknown> }, status: number) {
  assertEquals(res.status, status, JSON.stringify(res.body));
  assertEquals(Object.keys(res.body), ["error"], JSON.stringify(res.body));
  assertEquals(typeof res.body.error, "string");
}

Deno.test("every PowerDNS API route refuses a missing or wrong key with 401 {error}, and all of it when no key is configured", async () => {
  await using t = await startTestServer({ env: { PALISADE_PDNS_API_KEY: KEY } });
  await using unset = await startTestServer();
  let checked = 0;
  for (const route of t.server.routes.dnsApi) {
    if (!route.pattern.startsWith("/api/v1/servers") && route.pattern !== "/api") continue;
    const path = route.pattern.replace(/:([A-Za-z_]+)(\{[^}]*\})?/g, "example.org.");
    for (const method of METHODS) {
      if (!route.module.meta?.[method]) continue;
      for (
        const send of [client(t.dnsApi, null), client(t.dnsApi, KEY + "x"), client(unset.dnsApi)]
      ) {
        const res = await send(method, path, method === "GET" ? undefined : {});
        errorOnly(res, 401);
        checked++;
      }
    }
  }
  assert(checked >= 30, `only ${checked} checks`);
});

Deno.test("PowerDNS API: zone life cycle, trailing dots, TTL per RRset, atomic PATCH, PowerDNS error statuses", async () => {
  await using t = await startTestServer({ env: { PALISADE_PDNS_API_KEY: KEY } });
  const api = client(t.dnsApi);
  const made = await api("POST", Z, {
    name: "example.org.",
    kind: "Native",
    nameservers: ["ns1.example.org.", "ns2.example.org."],
    rrsets: [{ name: "www.example.org.", type: "A", ttl: 60, records: [{ content: "192.0.2.1" }] }],
  });
  assertEquals(made.status, 201, made.text);
  assertEquals(made.body.id, "example.org.");
  errorOnly(await api("POST", Z, { name: "example.org.", kind: "Native", nameservers: [] }), 409);
  errorOnly(await api("POST", Z, { name: "nodot.org", kind: "Native", nameservers: [] }), 422);
  const serial0 = made.body.serial as number;

  const ok = await api("PATCH", `${Z}/example.org.`, {
    rrsets: [
      {
        name: "example.org.",
        type: "MX",
        ttl: 600,
        changetype: "REPLACE",
        records: [{ content: "10 mail.example.org.", disabled: false }],
      },
      { name: "www.example.org.", type: "A", changetype: "DELETE" },
    ],
  });
  assertEquals(ok.status, 204, ok.text);
  const zone = await api("GET", `${Z}/example.org.`);
  const sets = zone.body.rrsets as { name: string; type: string; ttl: number }[];
  assertEquals(sets.map((s) => `${s.name} ${s.type} ${s.ttl}`), [
    "example.org. MX 600",
    "example.org. NS 3600",
    "example.org. SOA 3600",
  ]);
  assert((zone.body.serial as number) > serial0, "the serial moves on a PATCH");

  // One bad record refuses the whole PATCH: the good RRset before it is not applied.
  const bad = await api("PATCH", `${Z}/example.org.`, {
    rrsets: [
      {
        name: "a.example.org.",
        type: "A",
        ttl: 60,
        changetype: "REPLACE",
        records: [{ content: "192.0.2.9" }],
      },
      {
        name: "b.example.org.",
        type: "A",
        ttl: 60,
        changetype: "REPLACE",
        records: [{ content: "300.1.1.1" }],
      },
    ],
  });
  errorOnly(bad, 422);
  const after = await api("GET", `${Z}/example.org.?rrset_name=a.example.org.`);
  assertEquals(after.body.rrsets, []);
  assertEquals(after.body.serial, zone.body.serial);

  errorOnly(await api("GET", `${Z}/nope.org.`), 404);
  errorOnly(await api("PATCH", `${Z}/nope.org.`, { rrsets: [] }), 404);
  errorOnly(
    await api("PATCH", `${Z}/example.org.`, {
      rrsets: [{ name: "x.example.org.", type: "A", changetype: "FOO" }],
    }),
    422,
  );
  errorOnly(
    await api("PATCH", `${Z}/example.org.`, {
      rrsets: [{ name: "x.other.org.", type: "A", ttl: 1, changetype: "REPLACE", records: [] }],
    }),
    422,
  );
  errorOnly(
    await api("PATCH", `${Z}/example.org.`, {
      rrsets: [{
        name: "t.example.org.",
        type: "TXT",
        ttl: 1,
        changetype: "REPLACE",
        records: [{ content: "bare" }],
      }],
    }),
    422,
  );
  assertEquals((await api("DELETE", `${Z}/example.org.`)).status, 204);
  errorOnly(await api("GET", `${Z}/example.org.`), 404);
});

Deno.test("PowerDNS API: what Palisade cannot honour answers 501, never a success", async () => {
  await using t = await startTestServer({ env: { PALISADE_PDNS_API_KEY: KEY } });
  const api = client(t.dnsApi);
  assertEquals(
    (await api("POST", Z, {
      name: "example.org.",
      kind: "Native",
      nameservers: ["ns1.example.org."],
    })).status,
    201,
  );
  const disabled = await api("PATCH", `${Z}/example.org.`, {
    rrsets: [{
      name: "d.example.org.",
      type: "A",
      ttl: 60,
      changetype: "REPLACE",
      records: [{ content: "192.0.2.1", disabled: true }],
    }],
  });
  errorOnly(disabled, 501);
  assertEquals((await api("GET", `${Z}/example.org.?rrset_name=d.example.org.`)).body.rrsets, []);
  errorOnly(
    await api("PATCH", `${Z}/example.org.`, {
      rrsets: [{ name: "example.org.", type: "SOA", changetype: "DELETE" }],
    }),
    501,
  );
  errorOnly(
    await api("POST", Z, {
      name: "sec.org.",
      kind: "Slave",
      masters: ["192.0.2.1"],
      nameservers: [],
    }),
    501,
  );
  errorOnly(await api("PUT", `${Z}/example.org.`, { dnssec: true }), 501);
  assertEquals(
    (await api("PUT", `${Z}/example.org.`, { kind: "Master", soa_edit_api: "DEFAULT" })).status,
    204,
  );
  errorOnly(await api("GET", "/api/v1/servers/localhost/config"), 501);
  errorOnly(await api("GET", `${Z}/example.org./metadata`), 501);
  errorOnly(await api("POST", "/api/v1/servers/localhost"), 405);
  assertEquals((await api("PUT", `${Z}/example.org./notify`)).body, {
    result: "Notification queued",
  });
  assertEquals((await api("GET", "/api")).body, [{ url: "/api/v1", version: 1 }]);
});
