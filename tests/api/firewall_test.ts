/**
 * The firewall rule routes over HTTP with the host layer off
 * (PALISADE_HOST_DRIVER = none): every status of docs/tunnels.md "Firewall
 * rules", order, enable/disable, events on /api/v1/ws and audit records. What
 * the host driver is given is lib/tunnel/net_host_test.ts.
 */
import { assertEquals, assertStringIncludes } from "../assert.ts";
import { apiClient, collectFrames } from "../helpers/api_client.ts";
import { startTestServer, type TestServer } from "../helpers/test_server.ts";

const UNKNOWN = "00000000-0000-4000-8000-000000000000";

async function setup() {
  const t = await startTestServer();
  const cookie = await t.login();
  const api = apiClient(t.admin, { cookie });
  const wg1 = (await api.post("/interfaces", { name: "wg1", address_v4: "10.8.0.1/24" })).body;
  return { t, cookie, api, wg1 };
}

async function auditOf(t: TestServer) {
  return (await t.services.audit.list({ resource_type: "firewall_rule", limit: 100, offset: 0 }))
    .records.reverse();
}

const ssh = { name: "ssh", protocol: "tcp", port: 22, action: "accept" };

Deno.test("POST /firewall/rules creates rules in creation order (201) with their defaults; GET lists them by position", async () => {
  const { t, api, wg1 } = await setup();
  await using _ = t;
  const a = await api.post("/firewall/rules", ssh);
  assertEquals(a.status, 201);
  assertEquals(
    [
      a.body.name,
      a.body.protocol,
      a.body.port,
      a.body.action,
      a.body.direction,
      a.body.interface_id,
      a.body.interface_name,
      a.body.source,
      a.body.enabled,
      a.body.position,
    ],
    ["ssh", "tcp", 22, "accept", "input", null, null, null, true, 1],
  );
  const b = await api.post("/firewall/rules", {
    name: "no ping from lan",
    protocol: "icmp",
    port: null,
    action: "drop",
    direction: "forward",
    interface_id: wg1.id,
    source: "192.168.1.0/24",
    enabled: false,
  });
  assertEquals(b.status, 201);
  assertEquals(
    [b.body.interface_name, b.body.source, b.body.enabled, b.body.direction, b.body.position],
    ["wg1", "192.168.1.0/24", false, "forward", 2],
  );
  const c = await api.post("/firewall/rules", { name: "dns", protocol: "udp", action: "reject" });
  assertEquals([c.status, c.body.port, c.body.position], [201, null, 3]);
  const any = await api.post("/firewall/rules", { name: "rest", protocol: "any", action: "drop" });
  assertEquals([any.status, any.body.position], [201, 4]);

  const list = await api.get("/firewall/rules");
  assertEquals(list.status, 200);
  assertEquals(list.body.rules.map((r: { name: string }) => r.name), [
    "ssh",
    "no ping from lan",
    "dns",
    "rest",
  ]);
  assertEquals((await api.get(`/firewall/rules/${b.body.id}`)).body, b.body);
  // A new rule goes after the highest position left.
  await api.del(`/firewall/rules/${any.body.id}`);
  const d = await api.post("/firewall/rules", { name: "late", protocol: "any", action: "accept" });
  assertEquals(d.body.position, 4);
});

Deno.test("POST /firewall/rules answers 400 naming the field for malformed input, with the canonical form of a source", async () => {
  const { t, api } = await setup();
  await using _ = t;
  const cases: [unknown, string][] = [
    [{ ...ssh, protocol: "sctp" }, "protocol"],
    [{ ...ssh, action: "allow" }, "action"],
    [{ ...ssh, direction: "output" }, "direction"],
    [{ ...ssh, name: "" }, "name"],
    [{ ...ssh, name: "x".repeat(65) }, "name"],
    [{ ...ssh, name: "a\nb" }, "name"],
    [{ ...ssh, source: "192.168.1.1/24" }, 'write it as "192.168.1.0/24"'],
    [{ ...ssh, source: "192.168.1.0" }, "source"],
    [{ ...ssh, port: "22" }, "port"],
    [{ ...ssh, port: 22.5 }, "port"],
    [{ ...ssh, interface_id: 3 }, "interface_id"],
    [{ ...ssh, enabled: "yes" }, "enabled"],
    [{ name: "x", protocol: "tcp" }, "action"],
    [{ ...ssh, priority: 1 }, "priority"],
  ];
  for (const [json, text] of cases) {
    const res = await api.post("/firewall/rules", json);
    assertEquals([res.status, res.body.status], [400, 400], JSON.stringify(json));
    assertStringIncludes(res.body.error, text, JSON.stringify(json));
  }
  // 64 characters is the longest name.
  assertEquals((await api.post("/firewall/rules", { ...ssh, name: "x".repeat(64) })).status, 201);
});

Deno.test("POST /firewall/rules answers 422 for a port out of bounds, a port with icmp or any, and an unknown interface", async () => {
  const { t, api } = await setup();
  await using _ = t;
  const cases: [unknown, string][] = [
    [{ ...ssh, port: 0 }, "port 0 is outside 1-65535"],
    [{ ...ssh, port: 65536 }, "port 65536 is outside 1-65535"],
    [{ ...ssh, protocol: "icmp" }, 'port 22 needs protocol tcp or udp, not "icmp"'],
    [{ ...ssh, protocol: "any" }, 'port 22 needs protocol tcp or udp, not "any"'],
    [{ ...ssh, interface_id: UNKNOWN }, `interface_id "${UNKNOWN}" is not a managed interface`],
  ];
  for (const [json, text] of cases) {
    const res = await api.post("/firewall/rules", json);
    assertEquals([res.status, res.body.status], [422, 422], JSON.stringify(json));
    assertStringIncludes(res.body.error, text);
  }
  assertEquals((await api.post("/firewall/rules", { ...ssh, port: 65535 })).status, 201);
  assertEquals((await api.post("/firewall/rules", { ...ssh, name: "one", port: 1 })).status, 201);
});

Deno.test("POST /firewall/rules answers 409 for a name already used", async () => {
  const { t, api } = await setup();
  await using _ = t;
  assertEquals((await api.post("/firewall/rules", ssh)).status, 201);
  const dup = await api.post("/firewall/rules", { ...ssh, port: 2222 });
  assertEquals(dup.status, 409);
  assertEquals(dup.body.error, 'Cannot create firewall rule "ssh": name "ssh" is already used');
  assertEquals((await api.get("/firewall/rules")).body.rules.length, 1);
});

Deno.test("disable and enable toggle a rule and are idempotent: a repeat answers 200 without an event or audit record", async () => {
  const { t, api, cookie } = await setup();
  await using _ = t;
  await using ws = await collectFrames(t.admin, { cookie });
  const rule = (await api.post("/firewall/rules", ssh)).body;
  const off = await api.post(`/firewall/rules/${rule.id}/disable`);
  assertEquals([off.status, off.body.enabled, off.body.position], [200, false, 1]);
  const again = await api.post(`/firewall/rules/${rule.id}/disable`);
  assertEquals([again.status, again.body.enabled], [200, false]);
  const on = await api.post(`/firewall/rules/${rule.id}/enable`);
  assertEquals([on.status, on.body.enabled], [200, true]);
  assertEquals((await api.post(`/firewall/rules/${rule.id}/enable`)).status, 200);
  const del = await api.del(`/firewall/rules/${rule.id}`);
  assertEquals([del.status, del.body], [200, { success: true, message: "Firewall rule deleted" }]);
  await ws.waitFor(
    (f) => f.type === "FirewallChanged" && f.payload.action === "deleted",
    5000,
    "FirewallChanged deleted",
  );
  assertEquals(ws.frames.filter((f) => f.type === "FirewallChanged").map((f) => f.payload), [
    { id: rule.id, action: "created" },
    { id: rule.id, action: "disabled" },
    { id: rule.id, action: "enabled" },
    { id: rule.id, action: "deleted" },
  ]);
  const audit = await auditOf(t);
  assertEquals(audit.map((a) => [a.event_type, a.resource_id, a.actor]), [
    ["firewall.created", rule.id, "admin"],
    ["firewall.disabled", rule.id, "admin"],
    ["firewall.enabled", rule.id, "admin"],
    ["firewall.deleted", rule.id, "admin"],
  ]);
  assertEquals(
    audit[0].message,
    'Created firewall rule "ssh": accept tcp port 22 (input, position 1)',
  );
  assertEquals(
    ws.frames.filter((f) => f.type === "AuditEvent" && f.payload.resource_type === "firewall_rule")
      .length,
    4,
  );
});

Deno.test("every firewall rule route answers 404 for an unknown id", async () => {
  const { t, api } = await setup();
  await using _ = t;
  for (
    const res of [
      await api.get(`/firewall/rules/${UNKNOWN}`),
      await api.del(`/firewall/rules/${UNKNOWN}`),
      await api.post(`/firewall/rules/${UNKNOWN}/enable`),
      await api.post(`/firewall/rules/${UNKNOWN}/disable`),
    ]
  ) {
    assertEquals(res.body, { error: `Firewall rule "${UNKNOWN}" does not exist`, status: 404 });
  }
});

Deno.test("an interface a rule matches cannot be deleted (409 naming the rules and routes); renaming it renames the rule's interface", async () => {
  const { t, api, wg1 } = await setup();
  await using _ = t;
  const rule = (await api.post("/firewall/rules", { ...ssh, interface_id: wg1.id })).body;
  await api.post("/firewall/rules", { ...ssh, name: "other" });
  const route = (await api.post("/routes", { destination: "10.50.0.0/24", gateway: "10.8.0.2" }))
    .body;
  const del = await api.del(`/interfaces/${wg1.id}`);
  assertEquals(del.status, 409);
  assertEquals(
    del.body.error,
    'Cannot delete interface "wg1": routes "10.50.0.0/24" and firewall rules "ssh" use it; delete them first',
  );
  await api.put(`/interfaces/${wg1.id}`, { name: "office" });
  assertEquals((await api.get(`/firewall/rules/${rule.id}`)).body.interface_name, "office");
  await api.del(`/routes/${route.id}`);
  await api.del(`/firewall/rules/${rule.id}`);
  assertEquals((await api.del(`/interfaces/${wg1.id}`)).status, 200);
});

Deno.test("a viewer lists and reads rules but gets 403 on create, delete, enable and disable", async () => {
  const { t, api } = await setup();
  await using _ = t;
  const rule = (await api.post("/firewall/rules", ssh)).body;
  await t.addUser("vera", "viewer");
  const viewer = apiClient(t.admin, { cookie: await t.login("vera", "vera-password-123") });
  assertEquals((await viewer.get("/firewall/rules")).status, 200);
  assertEquals((await viewer.get(`/firewall/rules/${rule.id}`)).status, 200);
  for (
    const res of [
      await viewer.post("/firewall/rules", { ...ssh, name: "x" }),
      await viewer.del(`/firewall/rules/${rule.id}`),
      await viewer.post(`/firewall/rules/${rule.id}/disable`),
      await viewer.post(`/firewall/rules/${rule.id}/enable`),
    ]
  ) assertEquals(res.status, 403);
  assertEquals((await api.get(`/firewall/rules/${rule.id}`)).body.enabled, true);
});

Deno.test("the admin document states the firewall and route rules: enums, bounds, the port only with tcp or udp", async () => {
  const { t, api } = await setup();
  await using _ = t;
  const doc = (await api.get("/openapi.json")).body;
  const fw = doc.paths["/api/v1/firewall/rules"].post.requestBody.content["application/json"]
    .schema;
  assertEquals(fw.properties.protocol.enum, ["tcp", "udp", "icmp", "any"]);
  assertEquals(fw.properties.action.enum, ["accept", "drop", "reject"]);
  assertEquals(fw.properties.direction.enum, ["input", "forward"]);
  const port = fw.properties.port.anyOf.find((s: { type: string }) => s.type === "integer");
  assertEquals([port.minimum, port.maximum], [1, 65535]);
  assertEquals(
    fw.oneOf.map((b: { properties: { protocol: { enum: string[] } } }) =>
      b.properties.protocol.enum
    ),
    [["tcp", "udp"], ["icmp", "any"]],
  );
  assertEquals(fw.required, ["name", "protocol", "action"]);
  const rt = doc.paths["/api/v1/routes"].post.requestBody.content["application/json"].schema;
  assertEquals([rt.properties.metric.minimum, rt.properties.metric.maximum], [0, 4294967295]);
  assertEquals(rt.required, ["destination", "gateway"]);
  for (const path of ["/api/v1/routes/{id}", "/api/v1/firewall/rules/{id}"]) {
    assertEquals(Object.keys(doc.paths[path]).sort(), ["delete", "get"]);
  }
});
