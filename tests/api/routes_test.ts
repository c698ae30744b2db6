/**
 * The route routes over HTTP with the host layer off (PALISADE_HOST_DRIVER =
 * none): every status of docs/tunnels.md "Routes", events on /api/v1/ws and
 * audit records. What the host driver is given is lib/tunnel/net_host_test.ts.
 */
import { assert, assertEquals, assertStringIncludes } from "../assert.ts";
import { apiClient, collectFrames } from "../helpers/api_client.ts";
import { startTestServer, type TestServer } from "../helpers/test_server.ts";

const UNKNOWN = "00000000-0000-4000-8000-000000000000";

/** A server with wg1 on 10.8.0.1/24 and wg2 on 10.9.0.1/24, and an admin client. */
async function setup() {
  const t = await startTestServer();
  const cookie = await t.login();
  const api = apiClient(t.admin, { cookie });
  const wg1 = (await api.post("/interfaces", { name: "wg1", address_v4: "10.8.0.1/24" })).body;
  const wg2 = (await api.post("/interfaces", { name: "wg2", address_v4: "10.9.0.1/24" })).body;
  return { t, cookie, api, wg1, wg2 };
}

async function auditOf(t: TestServer, resourceType: string) {
  return (await t.services.audit.list({ resource_type: resourceType, limit: 100, offset: 0 }))
    .records
    .reverse();
}

Deno.test("POST /routes creates a route through the interface whose block holds the gateway (201); GET lists and reads it", async () => {
  const { t, api, wg1, wg2 } = await setup();
  await using _ = t;
  const created = await api.post("/routes", { destination: "10.50.0.0/24", gateway: "10.8.0.2" });
  assertEquals(created.status, 201);
  const r = created.body;
  assertEquals(
    [r.destination, r.gateway, r.metric, r.interface_id, r.interface_name, r.active],
    ["10.50.0.0/24", "10.8.0.2", 0, wg1.id, "wg1", true],
  );
  assert(!Number.isNaN(Date.parse(r.created_at)));
  // interface_id picks the interface; the gateway must be in its block.
  const second = await api.post("/routes", {
    destination: "0.0.0.0/0",
    gateway: "10.9.0.7",
    metric: 4294967295,
    interface_id: wg2.id,
  });
  assertEquals(second.status, 201);
  assertEquals([second.body.interface_name, second.body.metric], ["wg2", 4294967295]);
  // The same destination with another metric is another route.
  const third = await api.post("/routes", {
    destination: "10.50.0.0/24",
    gateway: "10.9.0.2",
    metric: 100,
    interface_id: null,
  });
  assertEquals([third.status, third.body.interface_name], [201, "wg2"]);

  const list = await api.get("/routes");
  assertEquals(list.status, 200);
  // By destination block, then metric.
  assertEquals(
    list.body.routes.map((x: { destination: string; metric: number }) =>
      `${x.destination} ${x.metric}`
    ),
    ["0.0.0.0/0 4294967295", "10.50.0.0/24 0", "10.50.0.0/24 100"],
  );
  assertEquals((await api.get(`/routes/${r.id}`)).body, r);
});

Deno.test("POST /routes answers 400 naming the field for malformed input, with the canonical form of a destination", async () => {
  const { t, api } = await setup();
  await using _ = t;
  const cases: [unknown, string][] = [
    [{ destination: "10.50.0.1/24", gateway: "10.8.0.2" }, 'write it as "10.50.0.0/24"'],
    [{ destination: "10.50.0.0/08", gateway: "10.8.0.2" }, 'write it as "10.0.0.0/8"'],
    [{ destination: "10.50.0/24", gateway: "10.8.0.2" }, "destination"],
    [{ destination: "10.50.0.0/33", gateway: "10.8.0.2" }, "destination"],
    [{ destination: "10.50.0.0", gateway: "10.8.0.2" }, "destination"],
    [{ destination: "10.50.0.0/24", gateway: "10.8.0.300" }, "gateway"],
    [{ destination: "10.50.0.0/24", gateway: "10.8.0.2/32" }, "gateway"],
    [{ destination: "10.50.0.0/24", gateway: "10.8.0.2", metric: "5" }, "metric"],
    [{ destination: "10.50.0.0/24", gateway: "10.8.0.2", metric: 1.5 }, "metric"],
    [{ destination: "10.50.0.0/24", gateway: "10.8.0.2", interface_id: 7 }, "interface_id"],
    [{ destination: "10.50.0.0/24" }, "gateway"],
    [{ destination: "10.50.0.0/24", gateway: "10.8.0.2", table: 5 }, "table"],
  ];
  for (const [json, text] of cases) {
    const res = await api.post("/routes", json);
    assertEquals([res.status, res.body.status], [400, 400], JSON.stringify(json));
    assertStringIncludes(res.body.error, text, JSON.stringify(json));
  }
  assertEquals((await api.get("/routes")).body.routes, []);
});

Deno.test("POST /routes answers 422 for a metric out of range, an unknown interface and a gateway no managed interface reaches", async () => {
  const { t, api, wg1 } = await setup();
  await using _ = t;
  const d = "10.50.0.0/24";
  const cases: [unknown, string][] = [
    [{ destination: d, gateway: "10.8.0.2", metric: -1 }, "metric -1 is outside 0-4294967295"],
    [
      { destination: d, gateway: "10.8.0.2", metric: 4294967296 },
      "metric 4294967296 is outside 0-4294967295",
    ],
    [
      { destination: d, gateway: "192.0.2.1" },
      'gateway "192.0.2.1" is not reachable through any managed interface',
    ],
    [
      { destination: d, gateway: "10.8.0.1" },
      'gateway "10.8.0.1" is the address of interface "wg1" itself',
    ],
    [{ destination: d, gateway: "10.8.0.255" }, 'gateway "10.8.0.255" is not a host address'],
    [
      { destination: d, gateway: "10.8.0.2", interface_id: UNKNOWN },
      `interface_id "${UNKNOWN}" is not a managed interface`,
    ],
    [
      { destination: d, gateway: "10.9.0.2", interface_id: wg1.id },
      'gateway "10.9.0.2" is not inside "10.8.0.0/24" of interface "wg1"',
    ],
    [
      { destination: "10.9.0.128/25", gateway: "10.8.0.2" },
      'destination "10.9.0.128/25" lies inside "10.9.0.0/24" of interface "wg2"',
    ],
  ];
  for (const [json, text] of cases) {
    const res = await api.post("/routes", json);
    assertEquals([res.status, res.body.status], [422, 422], JSON.stringify(json));
    assertStringIncludes(res.body.error, text);
  }
  assertEquals((await api.get("/routes")).body.routes, []);
});

Deno.test("POST /routes answers 409 for a destination and metric already routed", async () => {
  const { t, api } = await setup();
  await using _ = t;
  const first = { destination: "10.50.0.0/24", gateway: "10.8.0.2", metric: 10 };
  assertEquals((await api.post("/routes", first)).status, 201);
  const dup = await api.post("/routes", { ...first, gateway: "10.9.0.2" });
  assertEquals(dup.status, 409);
  assertEquals(
    dup.body.error,
    'Cannot create route "10.50.0.0/24": a route to "10.50.0.0/24" with metric 10 already exists',
  );
  assertEquals((await api.get("/routes")).body.routes.length, 1);
});

Deno.test("DELETE /routes/{id} removes the route (200), then 404; GET and DELETE of an unknown id are 404", async () => {
  const { t, api } = await setup();
  await using _ = t;
  const r = (await api.post("/routes", { destination: "10.50.0.0/24", gateway: "10.8.0.2" })).body;
  const del = await api.del(`/routes/${r.id}`);
  assertEquals([del.status, del.body], [200, { success: true, message: "Route deleted" }]);
  assertEquals((await api.get("/routes")).body.routes, []);
  for (const res of [await api.get(`/routes/${r.id}`), await api.del(`/routes/${r.id}`)]) {
    assertEquals(res.status, 404);
    assertEquals(res.body, { error: `Route "${r.id}" does not exist`, status: 404 });
  }
});

Deno.test("RouteChanged goes out on /api/v1/ws with the route's id for create and delete, and every change is audited", async () => {
  const { t, api, cookie } = await setup();
  await using _ = t;
  await using ws = await collectFrames(t.admin, { cookie });
  const r = (await api.post("/routes", { destination: "10.50.0.0/24", gateway: "10.8.0.2" })).body;
  await api.del(`/routes/${r.id}`);
  await ws.waitFor(
    (f) => f.type === "RouteChanged" && f.payload.action === "deleted",
    5000,
    "RouteChanged deleted",
  );
  assertEquals(ws.frames.filter((f) => f.type === "RouteChanged").map((f) => f.payload), [
    { id: r.id, action: "created" },
    { id: r.id, action: "deleted" },
  ]);
  const audit = await auditOf(t, "route");
  assertEquals(audit.map((a) => [a.event_type, a.resource_id, a.actor]), [
    ["route.created", r.id, "admin"],
    ["route.deleted", r.id, "admin"],
  ]);
  assertEquals(
    audit[0].message,
    'Created route "10.50.0.0/24" via "10.8.0.2" on interface "wg1" (metric 0)',
  );
  const auditFrames = ws.frames.filter((f) =>
    f.type === "AuditEvent" && f.payload.resource_type === "route"
  );
  assertEquals(auditFrames.map((f) => f.payload.event_type), ["route.created", "route.deleted"]);
  // A refused create writes nothing and announces nothing.
  assertEquals((await api.post("/routes", { destination: "x", gateway: "10.8.0.2" })).status, 400);
  assertEquals((await auditOf(t, "route")).length, 2);
});

Deno.test("an interface with routes: disabling it makes them inactive, deleting it is 409 naming them, a new block must keep the gateway", async () => {
  const { t, api, wg1 } = await setup();
  await using _ = t;
  const r = (await api.post("/routes", { destination: "10.50.0.0/24", gateway: "10.8.0.2" })).body;
  await api.post(`/interfaces/${wg1.id}/disable`);
  assertEquals((await api.get(`/routes/${r.id}`)).body.active, false);
  await api.post(`/interfaces/${wg1.id}/enable`);
  assertEquals((await api.get(`/routes/${r.id}`)).body.active, true);

  const del = await api.del(`/interfaces/${wg1.id}`);
  assertEquals(del.status, 409);
  assertEquals(
    del.body.error,
    'Cannot delete interface "wg1": routes "10.50.0.0/24" use it; delete them first',
  );
  assertEquals((await api.get(`/interfaces/${wg1.id}`)).status, 200);

  const moved = await api.put(`/interfaces/${wg1.id}`, { address_v4: "10.7.0.1/24" });
  assertEquals(moved.status, 422);
  assertStringIncludes(moved.body.error, 'route "10.50.0.0/24": gateway "10.8.0.2" is not inside');
  // A larger block that still holds the gateway is fine, and so is a rename.
  assertEquals((await api.put(`/interfaces/${wg1.id}`, { address_v4: "10.8.0.1/23" })).status, 200);
  assertEquals((await api.put(`/interfaces/${wg1.id}`, { name: "office" })).status, 200);
  assertEquals((await api.get(`/routes/${r.id}`)).body.interface_name, "office");

  await api.del(`/routes/${r.id}`);
  assertEquals((await api.del(`/interfaces/${wg1.id}`)).status, 200);
});

Deno.test("a viewer lists and reads routes but gets 403 creating or deleting one", async () => {
  const { t, api } = await setup();
  await using _ = t;
  const r = (await api.post("/routes", { destination: "10.50.0.0/24", gateway: "10.8.0.2" })).body;
  await t.addUser("vera", "viewer");
  const viewer = apiClient(t.admin, { cookie: await t.login("vera", "vera-password-123") });
  assertEquals((await viewer.get("/routes")).status, 200);
  assertEquals((await viewer.get(`/routes/${r.id}`)).status, 200);
  assertEquals(
    (await viewer.post("/routes", { destination: "10.51.0.0/24", gateway: "10.8.0.2" })).status,
    403,
  );
  assertEquals((await viewer.del(`/routes/${r.id}`)).status, 403);
  assertEquals((await api.get("/routes")).body.routes.length, 1);
});
