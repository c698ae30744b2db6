/**
 * The OpenAPI documents state the rules the server enforces: fixed lists as
 * enums, names with their patterns, numeric bounds, the e-mail format, at
 * least one field to update, the zone import's bodies, the WebSocket's 101.
 * Expected values are written out here, as the spec and the services' errors
 * state them.
 */
import { assert, assertEquals } from "../assert.ts";
import { dnsApi } from "../helpers/dns_api.ts";
import { call, startTestServer } from "../helpers/test_server.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

function param(op: Json, name: string): Json {
  const p = op.parameters.find((p: Json) => p.name === name);
  assert(p, `parameter ${name}`);
  return p.schema;
}

const OCTET = "(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])";

const body = (op: Json, type = "application/json"): Json => op.requestBody.content[type].schema;

/** The integer branch of a nullable integer, or the schema itself. */
const int = (s: Json): Json => s.anyOf?.find((b: Json) => b.type === "integer") ?? s;

Deno.test("the admin document lists the fixed values, name patterns and bounds the server checks", async () => {
  await using t = await startTestServer();
  const doc: Json = (await call(`${t.admin}/api/v1/openapi.json`)).body;
  const p = doc.paths;
  const devices = ["desktop", "mobile", "router"];
  const connections = ["ipv4", "ipv6", "pppoe", "cellular", "restrictive-nat"];
  for (const op of [p["/api/v1/peers/{id}/qr"].get, p["/api/v1/peers/{id}/config"].get]) {
    assertEquals(param(op, "device").enum, devices);
    assertEquals(param(op, "connection").enum, connections);
  }
  assertEquals(param(p["/api/v1/client-profiles/resolve"].get, "device").enum, devices);
  assertEquals(param(p["/api/v1/client-profiles/resolve"].get, "connection").enum, connections);
  assertEquals(param(p["/api/v1/peers/{id}/qr"].get, "qr_format").enum, ["svg", "png"]);
  assertEquals(body(p["/api/v1/system/settings"].put).properties.key.enum, [
    "wireguard.server_host",
    "wireguard.server_port",
    "wireguard.server_endpoint_enabled",
    "auth.two_factor_roles",
  ]);

  for (const op of [p["/api/v1/interfaces"].post, p["/api/v1/interfaces/{id}"].put]) {
    const s = body(op).properties;
    assertEquals(s.name.pattern, "^[a-z0-9_-]{1,15}$");
    assertEquals([s.mtu.minimum, s.mtu.maximum], [1280, 9000]);
    assertEquals([s.listen_port.minimum, s.listen_port.maximum], [1, 65535]);
  }
  for (const op of [p["/api/v1/interfaces/{id}/peers"].post, p["/api/v1/peers/{id}"].put]) {
    const s = body(op).properties;
    assertEquals(s.name.pattern, "^[A-Za-z0-9][A-Za-z0-9 ._@+-]{0,63}$");
    assertEquals([int(s.mtu).minimum, int(s.mtu).maximum], [1280, 9000]);
    assertEquals([int(s.keepalive).minimum, int(s.keepalive).maximum], [0, 65535]);
  }

  const network = body(p["/api/v1/networks"].post).properties;
  assertEquals(network.name.pattern, "^[A-Za-z0-9._-]{1,64}$");
  assertEquals(network.cidr.pattern, `^${OCTET}(\\.${OCTET}){3}/([89]|[12][0-9]|30)$`);
  const limit = param(p["/api/v1/networks/{id}/available"].get, "limit");
  assertEquals([limit.minimum, limit.maximum], [1, 1000]);

  const ws = p["/api/v1/ws"].get.responses;
  assert(ws["101"], "GET /ws answers 101");
  assertEquals(ws["200"], undefined);
  // Statuses are listed, not left to a catch-all.
  assertEquals(p["/api/v1/peers/{id}"].put.responses.default, undefined);
  for (const status of ["400", "401", "403", "404", "409", "413", "415", "422"]) {
    assert(p["/api/v1/peers/{id}"].put.responses[status], `PUT /peers/{id} documents ${status}`);
  }
});

Deno.test("the DNS API document lists record types, the e-mail format, bounds and the import bodies", async () => {
  await using t = await startTestServer();
  const doc: Json = (await call(`${t.dnsApi}/api/v1/openapi.json`)).body;
  const p = doc.paths;
  const types = [
    "A",
    "AAAA",
    "AFSDB",
    "CAA",
    "CDNSKEY",
    "CDS",
    "CERT",
    "CNAME",
    "DNAME",
    "DS",
    "HINFO",
    "HTTPS",
    "KX",
    "LOC",
    "MX",
    "NAPTR",
    "NS",
    "OPENPGPKEY",
    "PTR",
    "RP",
    "SMIMEA",
    "SOA",
    "SPF",
    "SRV",
    "SSHFP",
    "SVCB",
    "TLSA",
    "TXT",
    "URI",
  ];
  assertEquals(param(p["/api/v1/zones/{name}/records"].get, "type").enum, types);
  const create = body(p["/api/v1/zones/{name}/records"].post);
  assertEquals(create.properties.type.enum, types.filter((t) => t !== "SOA"));
  assertEquals([create.properties.ttl.minimum, create.properties.ttl.maximum], [0, 2147483647]);

  const zone = body(p["/api/v1/zones"].post).properties;
  assertEquals(zone.admin_email.format, "email");
  assertEquals([zone.refresh.minimum, zone.refresh.maximum], [60, 2419200]);
  assertEquals([zone.expire.minimum, zone.expire.maximum], [3600, 31536000]);
  const update = body(p["/api/v1/zones/{name}"].put);
  assertEquals(update.minProperties, 1);
  assertEquals(update.properties.admin_email.format, "email");

  const imp = p["/api/v1/zones/{name}/import"].post.requestBody.content;
  assertEquals(Object.keys(imp).sort(), ["application/json", "text/dns", "text/plain"]);
  assertEquals(imp["application/json"].schema.oneOf, [
    { required: ["zone_file"] },
    { required: ["content"] },
  ]);
  assertEquals(imp["text/dns"].schema.type, "string");
});

Deno.test("an admin e-mail whose domain has a label ending or starting in a hyphen is refused with 400", async () => {
  await using t = await startTestServer();
  const api = await dnsApi(t);
  for (const admin_email of ["a@b-.example.com", "a@-b.example.com"]) {
    const created = await api.post("/zones", { name: "hyphen.example", admin_email });
    assertEquals(created.status, 400, JSON.stringify(created.body));
    assertEquals(created.body.error, `Address "${admin_email}" has an invalid domain`);
  }
  assertEquals(
    (await api.post("/zones", { name: "hyphen.example", admin_email: "a@b-c.example.com" })).status,
    201,
  );
  const updated = await api.put("/zones/hyphen.example", { admin_email: "a@b-.example.com" });
  assertEquals(updated.status, 400, JSON.stringify(updated.body));
});
