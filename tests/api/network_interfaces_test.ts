/**
 * Interfaces and their networks over HTTP: every interface's subnet is a
 * network made, moved and deleted with it; a free network of exactly the
 * interface's block is adopted and freed again; an overlap with another
 * network refuses the interface (409) and leaves nothing behind. The
 * NetworkChanged frames on /api/v1/ws carry the network's id.
 */
import { assertEquals, assertStringIncludes } from "../assert.ts";
import { apiClient, collectFrames, type Frame } from "../helpers/api_client.ts";
import { startTestServer } from "../helpers/test_server.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

Deno.test("POST /interfaces makes the interface's network, named after it (or name-1 when taken); DELETE /interfaces removes it", async () => {
  await using t = await startTestServer();
  const api = apiClient(t.admin, { cookie: await t.login() });
  const wg1 = (await api.post("/interfaces", { name: "wg1", address_v4: "10.8.0.1/24" })).body;
  await api.post(`/interfaces/${wg1.id}/peers`, { name: "laptop" });
  const [net] = (await api.get("/networks")).body.networks;
  assertEquals(
    [net.name, net.cidr, net.interface_id, net.interface_name, net.origin, net.size, net.allocated],
    ["wg1", "10.8.0.0/24", wg1.id, "wg1", "interface", 254, 2],
  );
  // The interface's audit record says what happened to its network.
  const rec =
    (await t.services.audit.list({ resource_id: wg1.id, limit: 5, offset: 0 })).records[0];
  assertEquals(
    rec.message,
    'Created interface "wg1" (10.8.0.1/24, port 51820, mtu 1420); network "wg1" (10.8.0.0/24) created',
  );
  assertEquals((await api.post("/networks", { name: "wg2", cidr: "10.50.0.0/24" })).status, 201);
  const wg2 = (await api.post("/interfaces", { name: "wg2", address_v4: "10.9.0.1/24" })).body;
  const names = (await api.get("/networks")).body.networks.map((n: Json) => [
    n.name,
    n.interface_name,
  ]);
  assertEquals(names, [["wg1", "wg1"], ["wg2", null], ["wg2-1", "wg2"]]);
  assertEquals((await api.del(`/interfaces/${wg1.id}`)).status, 200);
  assertEquals((await api.get(`/networks/${net.id}`)).status, 404);
  assertEquals((await api.del(`/interfaces/${wg2.id}`)).status, 200);
  assertEquals((await api.get("/networks")).body.networks.map((n: Json) => n.name), ["wg2"]);
});

Deno.test("an interface on exactly a free network's block adopts it, and frees it when deleted", async () => {
  await using t = await startTestServer();
  const api = apiClient(t.admin, { cookie: await t.login() });
  const pool = (await api.post("/networks", { name: "office", cidr: "10.40.0.0/24" })).body;
  const iface = (await api.post("/interfaces", { name: "wg3", address_v4: "10.40.0.1/24" })).body;
  const adopted = (await api.get(`/networks/${pool.id}`)).body;
  assertEquals(
    [adopted.name, adopted.interface_id, adopted.interface_name, adopted.origin, adopted.allocated],
    ["office", iface.id, "wg3", "api", 1],
  );
  assertEquals((await api.get("/networks")).body.networks.length, 1);
  assertEquals((await api.del(`/networks/${pool.id}`)).status, 409);
  assertEquals((await api.del(`/interfaces/${iface.id}`)).status, 200);
  const freed = (await api.get(`/networks/${pool.id}`)).body;
  assertEquals([freed.interface_id, freed.interface_name, freed.allocated], [null, null, 0]);
  assertEquals((await api.del(`/networks/${pool.id}`)).status, 200);
});

Deno.test("POST /interfaces answers 409 naming address_v4 for a block overlapping a network, and stores nothing", async () => {
  await using t = await startTestServer();
  const api = apiClient(t.admin, { cookie: await t.login() });
  await api.post("/networks", { name: "lab", cidr: "10.60.0.0/16" });
  const cases: [string, string][] = [
    ["10.60.5.1/24", 'address_v4 10.60.5.1/24 overlaps network "lab" (10.60.0.0/16)'],
    ["10.0.0.1/8", 'overlaps network "lab" (10.60.0.0/16)'],
  ];
  for (const [address_v4, message] of cases) {
    const res = await api.post("/interfaces", { name: "wg1", address_v4 });
    assertEquals(res.status, 409, address_v4);
    assertStringIncludes(res.body.error, message);
  }
  assertEquals((await api.get("/interfaces")).body.interfaces, []);
  assertEquals((await api.get("/networks")).body.networks.map((n: Json) => n.name), ["lab"]);
});

Deno.test("PUT /interfaces/{id} moves its network with a new block, adopts a free network of exactly it, and refuses an overlap", async () => {
  await using t = await startTestServer();
  const api = apiClient(t.admin, { cookie: await t.login() });
  const iface = (await api.post("/interfaces", { name: "wg1", address_v4: "10.8.0.1/24" })).body;
  const own = (await api.get("/networks")).body.networks[0];
  // Another host address in the same block leaves the network as it is.
  assertEquals(
    (await api.put(`/interfaces/${iface.id}`, { address_v4: "10.8.0.9/24" })).status,
    200,
  );
  assertEquals((await api.get(`/networks/${own.id}`)).body.cidr, "10.8.0.0/24");
  assertEquals(
    (await api.put(`/interfaces/${iface.id}`, { address_v4: "10.70.0.1/23" })).status,
    200,
  );
  assertEquals((await api.get(`/networks/${own.id}`)).body.cidr, "10.70.0.0/23");
  const lab = (await api.post("/networks", { name: "lab", cidr: "10.60.0.0/16" })).body;
  const refused = await api.put(`/interfaces/${iface.id}`, { address_v4: "10.60.1.1/24" });
  assertEquals(refused.status, 409);
  assertStringIncludes(refused.body.error, 'overlaps network "lab" (10.60.0.0/16)');
  assertEquals((await api.get(`/interfaces/${iface.id}`)).body.address_v4, "10.70.0.1/23");
  const moved = await api.put(`/interfaces/${iface.id}`, { address_v4: "10.60.0.1/16" });
  assertEquals(moved.status, 200);
  // The network the interface made went; the free one it moved onto is now its network.
  assertEquals((await api.get(`/networks/${own.id}`)).status, 404);
  const adopted = (await api.get(`/networks/${lab.id}`)).body;
  assertEquals([adopted.interface_id, adopted.origin], [iface.id, "api"]);
});

Deno.test("NetworkChanged frames on /api/v1/ws carry the network's id for API networks and interfaces' networks", async () => {
  await using t = await startTestServer();
  const cookie = await t.login();
  const api = apiClient(t.admin, { cookie });
  await using ws = await collectFrames(t.admin, { cookie });
  const changed = (id: string, action: string) => (f: Frame) =>
    f.type === "NetworkChanged" && f.payload.id === id && f.payload.action === action;
  const pool = (await api.post("/networks", { name: "pool", cidr: "10.20.0.0/16" })).body;
  const created = await ws.waitFor(changed(pool.id, "created"), 5000, "pool created");
  assertEquals(created.payload, { id: pool.id, action: "created" });
  await api.del(`/networks/${pool.id}`);
  await ws.waitFor(changed(pool.id, "deleted"), 5000, "pool deleted");
  const iface = (await api.post("/interfaces", { name: "wg1", address_v4: "10.8.0.1/24" })).body;
  const net = (await api.get("/networks")).body.networks[0];
  await ws.waitFor(changed(net.id, "created"), 5000, "interface network created");
  await api.del(`/interfaces/${iface.id}`);
  await ws.waitFor(changed(net.id, "deleted"), 5000, "interface network deleted");
  const audit = await ws.waitFor(
    (f) => f.type === "AuditEvent" && f.payload.event_type === "network.deleted",
    5000,
    "audit of the deletion",
  );
  assertEquals(audit.payload.resource_id, pool.id);
  assertEquals(
    ws.frames.filter((f) => f.type === "NetworkChanged").map((f) => f.payload.action),
    ["created", "deleted", "created", "deleted"],
  );
});
