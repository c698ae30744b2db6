/**
 * The interface routes over HTTP with the host layer off (PALISADE_HOST_DRIVER
 * = none): statuses of the spec's error table, wg0's protection, roles.
 * Real WireGuard is exercised by tests/tunnels/*.
 */
import { assert, assertEquals, assertStringIncludes } from "../assert.ts";
import { apiClient } from "../helpers/api_client.ts";
import { startTestServer } from "../helpers/test_server.ts";

Deno.test("POST /interfaces creates an overlay interface (201) that GET /interfaces and GET /interfaces/{id} show", async () => {
  await using t = await startTestServer();
  const api = apiClient(t.admin, { cookie: await t.login() });
  const created = await api.post("/interfaces", { name: "wg1", address_v4: "10.8.0.1/24" });
  assertEquals(created.status, 201);
  const iface = created.body;
  assertEquals(
    [iface.name, iface.address_v4, iface.listen_port, iface.mtu, iface.role, iface.enabled],
    ["wg1", "10.8.0.1/24", 51820, 1420, "overlay", true],
  );
  assertEquals(iface.public_key.length, 44);
  assertEquals("private_key" in iface, false);
  const list = await api.get("/interfaces");
  assertEquals(list.status, 200);
  assertEquals(list.body.interfaces.map((i: { id: string }) => i.id), [iface.id]);
  const one = await api.get(`/interfaces/${iface.id}`);
  assertEquals(one.body, iface);
  // The next interface gets the next free port.
  const second = await api.post("/interfaces", { name: "wg2", address_v4: "10.9.0.1/24" });
  assertEquals(second.body.listen_port, 51821);
});

Deno.test("POST /interfaces answers 400 naming the field for bad types, a missing field and an unknown field", async () => {
  await using t = await startTestServer();
  const api = apiClient(t.admin, { cookie: await t.login() });
  const cases: [unknown, string][] = [
    [{ name: "wg1", address_v4: "10.8.0.1/24", listen_port: "51820" }, "listen_port"],
    [{ name: "wg1", address_v4: "10.8.0.1/24", mtu: 1420.5 }, "mtu"],
    [{ name: 7, address_v4: "10.8.0.1/24" }, "name"],
    [{ name: "wg1" }, "address_v4"],
    [{ name: "wg1", address_v4: "10.8.0.1/24", colour: "blue" }, "colour"],
    [{ name: "WG 1!", address_v4: "10.8.0.1/24" }, "name"],
    [{ name: "wg1", address_v4: "10.8.0/24" }, "address_v4"],
  ];
  for (const [json, field] of cases) {
    const res = await api.post("/interfaces", json);
    assertEquals(res.status, 400, JSON.stringify(json));
    assertEquals(res.body.status, 400);
    assertStringIncludes(res.body.error, field, JSON.stringify(json));
  }
  assertEquals((await api.get("/interfaces")).body.interfaces, []);
});

Deno.test("POST /interfaces answers 409 for a duplicate name, address, overlapping block and listen port", async () => {
  await using t = await startTestServer();
  const api = apiClient(t.admin, { cookie: await t.login() });
  assertEquals(
    (await api.post("/interfaces", { name: "wg1", address_v4: "10.8.0.1/24", listen_port: 51900 }))
      .status,
    201,
  );
  const cases: [unknown, string][] = [
    [{ name: "wg1", address_v4: "10.9.0.1/24" }, 'name "wg1" is already used'],
    [{ name: "wg2", address_v4: "10.8.0.1/24" }, "address 10.8.0.1/24 is already used"],
    [{ name: "wg2", address_v4: "10.8.0.129/25" }, "overlaps 10.8.0.0/24"],
    [
      { name: "wg2", address_v4: "10.9.0.1/24", listen_port: 51900 },
      "listen_port 51900 is already used",
    ],
  ];
  for (const [json, message] of cases) {
    const res = await api.post("/interfaces", json);
    assertEquals(res.status, 409, JSON.stringify(json));
    assertStringIncludes(res.body.error, message);
  }
  assertEquals((await api.get("/interfaces")).body.interfaces.length, 1);
});

Deno.test("POST /interfaces answers 422 for an MTU or port out of range and for unusable CIDR semantics", async () => {
  await using t = await startTestServer();
  const api = apiClient(t.admin, { cookie: await t.login() });
  const cases: unknown[] = [
    { name: "wg1", address_v4: "10.8.0.1/24", mtu: 1279 },
    { name: "wg1", address_v4: "10.8.0.1/24", mtu: 9001 },
    { name: "wg1", address_v4: "10.8.0.1/24", listen_port: 0 },
    { name: "wg1", address_v4: "10.8.0.1/24", listen_port: 65536 },
    { name: "wg1", address_v4: "10.8.0.0/24" }, // network address
    { name: "wg1", address_v4: "10.8.0.255/24" }, // broadcast address
    { name: "wg1", address_v4: "10.8.0.1/31" }, // no room for peers
  ];
  for (const json of cases) {
    const res = await api.post("/interfaces", json);
    assertEquals(res.status, 422, JSON.stringify(json));
    assertEquals(res.body.status, 422);
  }
  const mtu = await api.post("/interfaces", cases[0]);
  assertStringIncludes(mtu.body.error, "mtu");
});

Deno.test("PUT /interfaces/{id} updates and keeps the key pair; 404 for an unknown id on every interface route", async () => {
  await using t = await startTestServer();
  const api = apiClient(t.admin, { cookie: await t.login() });
  const iface = (await api.post("/interfaces", { name: "wg1", address_v4: "10.8.0.1/24" })).body;
  const put = await api.put(`/interfaces/${iface.id}`, {
    name: "office",
    mtu: 1380,
    listen_port: 51999,
  });
  assertEquals(put.status, 200);
  assertEquals([put.body.name, put.body.mtu, put.body.listen_port], ["office", 1380, 51999]);
  assertEquals(put.body.public_key, iface.public_key);
  assertEquals((await api.put(`/interfaces/${iface.id}`, { mtu: 100 })).status, 422);
  assertEquals((await api.put(`/interfaces/${iface.id}`, { mtu: "big" })).status, 400);

  const unknown = "00000000-0000-4000-8000-000000000000";
  for (
    const res of [
      await api.get(`/interfaces/${unknown}`),
      await api.put(`/interfaces/${unknown}`, { mtu: 1400 }),
      await api.del(`/interfaces/${unknown}`),
      await api.post(`/interfaces/${unknown}/enable`),
      await api.post(`/interfaces/${unknown}/disable`),
      await api.post(`/interfaces/${unknown}/restart`),
      await api.get(`/interfaces/${unknown}/status`),
      await api.get(`/interfaces/${unknown}/peers`),
      await api.post(`/interfaces/${unknown}/peers`, { name: "a" }),
    ]
  ) {
    assertEquals(res.status, 404);
    assertEquals(res.body, { error: `Interface "${unknown}" does not exist`, status: 404 });
  }
});

Deno.test("wg0 is protected: DELETE and POST /disable answer 403, and so does renaming it", async () => {
  await using t = await startTestServer();
  const api = apiClient(t.admin, { cookie: await t.login() });
  const wg0 = (await api.post("/interfaces", { name: "wg0", address_v4: "10.7.0.1/24" })).body;
  const del = await api.del(`/interfaces/${wg0.id}`);
  assertEquals(del.status, 403);
  assertEquals(
    del.body.error,
    'Cannot delete interface "wg0": it is the protected default interface',
  );
  const disable = await api.post(`/interfaces/${wg0.id}/disable`);
  assertEquals(disable.status, 403);
  assertStringIncludes(disable.body.error, "protected");
  assertEquals((await api.put(`/interfaces/${wg0.id}`, { name: "wg9" })).status, 403);
  // Everything else stays allowed.
  assertEquals((await api.post(`/interfaces/${wg0.id}/enable`)).status, 200);
  assertEquals((await api.post(`/interfaces/${wg0.id}/restart`)).status, 200);
  assertEquals((await api.put(`/interfaces/${wg0.id}`, { mtu: 1400 })).body.mtu, 1400);
  const after = (await api.get(`/interfaces/${wg0.id}`)).body;
  assertEquals([after.name, after.enabled], ["wg0", true]);
});

Deno.test("enable, disable and restart answer the interface; DELETE removes it with its peers; status shows the host layer off", async () => {
  await using t = await startTestServer();
  const api = apiClient(t.admin, { cookie: await t.login() });
  const iface = (await api.post("/interfaces", { name: "wg1", address_v4: "10.8.0.1/24" })).body;
  await api.post(`/interfaces/${iface.id}/peers`, { name: "laptop" });
  const disabled = await api.post(`/interfaces/${iface.id}/disable`);
  assertEquals([disabled.status, disabled.body.enabled], [200, false]);
  const enabled = await api.post(`/interfaces/${iface.id}/enable`);
  assertEquals([enabled.status, enabled.body.enabled], [200, true]);
  assertEquals((await api.post(`/interfaces/${iface.id}/restart`)).body.id, iface.id);
  const status = await api.get(`/interfaces/${iface.id}/status`);
  assertEquals(status.status, 200);
  assertEquals(
    [status.body.driver, status.body.host_active, status.body.link, status.body.read_at],
    ["none", false, "unknown", null],
  );
  assertEquals(status.body.peers, { stored: 1, enabled: 1, on_host: 0, connected: 0 });
  const del = await api.del(`/interfaces/${iface.id}`);
  assertEquals(del.status, 200);
  assertEquals((await api.get(`/interfaces/${iface.id}`)).status, 404);
  assertEquals((await api.get("/peers")).body.total, 0);
  const types = (await t.services.audit.list({ resource_id: iface.id, limit: 50, offset: 0 }))
    .records
    .map((r) => r.event_type).reverse();
  assertEquals(types, [
    "interface.created",
    "interface.disabled",
    "interface.enabled",
    "interface.restarted",
    "interface.deleted",
  ]);
  assert(
    (await t.services.audit.list({ resource_id: iface.id, limit: 50, offset: 0 })).records.every((
      r,
    ) => r.actor === "admin"),
  );
});

Deno.test("a viewer reads tunnels but gets 403 on every tunnel mutation; an operator may mutate", async () => {
  await using t = await startTestServer();
  const admin = apiClient(t.admin, { cookie: await t.login() });
  const iface = (await admin.post("/interfaces", { name: "wg1", address_v4: "10.8.0.1/24" })).body;
  const peer = (await admin.post(`/interfaces/${iface.id}/peers`, { name: "a" })).body;
  await t.addUser("vera", "viewer");
  await t.addUser("otto", "operator");
  const viewer = apiClient(t.admin, { cookie: await t.login("vera", "vera-password-123") });
  for (
    const path of [
      "/interfaces",
      `/interfaces/${iface.id}`,
      `/interfaces/${iface.id}/status`,
      `/interfaces/${iface.id}/peers`,
      "/peers",
      `/peers/${peer.id}`,
      "/client-profiles",
      "/client-profiles/resolve",
      "/reconcile/plan",
      "/diagnostics/all",
      "/diagnostics/tunnels",
    ]
  ) {
    assertEquals((await viewer.get(path)).status, 200, path);
  }
  const mutations = [
    viewer.post("/interfaces", { name: "wg2", address_v4: "10.9.0.1/24" }),
    viewer.put(`/interfaces/${iface.id}`, { mtu: 1400 }),
    viewer.del(`/interfaces/${iface.id}`),
    viewer.post(`/interfaces/${iface.id}/enable`),
    viewer.post(`/interfaces/${iface.id}/disable`),
    viewer.post(`/interfaces/${iface.id}/restart`),
    viewer.post(`/interfaces/${iface.id}/peers`, { name: "b" }),
    viewer.put(`/peers/${peer.id}`, { dns: "10.8.0.1" }),
    viewer.del(`/peers/${peer.id}`),
    viewer.post(`/peers/${peer.id}/enable`),
    viewer.post(`/peers/${peer.id}/disable`),
    viewer.post(`/peers/${peer.id}/revoke`),
    viewer.get(`/peers/${peer.id}/config?endpoint=vpn.example.org`),
    viewer.get(`/peers/${peer.id}/qr?endpoint=vpn.example.org`),
    viewer.post("/reconcile/apply"),
  ];
  for (const res of await Promise.all(mutations)) {
    assertEquals(res.status, 403);
    assertEquals(res.body.error, 'This action needs the "operator" role; you have "viewer"');
  }
  assertEquals((await admin.get(`/peers/${peer.id}`)).body.status, "enabled");
  assertEquals((await admin.get("/interfaces")).body.interfaces.length, 1);
  const operator = apiClient(t.admin, { cookie: await t.login("otto", "otto-password-123") });
  assertEquals((await operator.post(`/peers/${peer.id}/disable`)).status, 200);
  assertEquals((await operator.post("/reconcile/apply")).status, 200);
});
