/**
 * The peer routes over HTTP with the host layer off: creation and its
 * statuses, listings with pagination and filters, state changes, events on
 * /api/v1/ws, and that no listing, audit record or event carries a secret.
 */
import { assert, assertEquals, assertStringIncludes } from "../assert.ts";
import { apiClient, collectFrames } from "../helpers/api_client.ts";
import { startTestServer } from "../helpers/test_server.ts";
import { sqliteTunnelRepos } from "../../lib/tunnel/tunnel_repos.ts";

Deno.test("POST /interfaces/{id}/peers allocates addresses (201); GET /peers lists every peer across interfaces with a total", async () => {
  await using t = await startTestServer();
  const api = apiClient(t.admin, { cookie: await t.login() });
  const a = (await api.post("/interfaces", { name: "wg1", address_v4: "10.8.0.1/24" })).body;
  const b = (await api.post("/interfaces", { name: "wg2", address_v4: "10.9.0.1/24" })).body;
  const created = await api.post(`/interfaces/${a.id}/peers`, { name: "laptop" });
  assertEquals(created.status, 201);
  const p = created.body;
  assertEquals(
    [p.interface_id, p.interface_name, p.address, p.profile, p.status, p.allowed_ips],
    [a.id, "wg1", "10.8.0.2", "full-tunnel", "enabled", "0.0.0.0/0, ::/0"],
  );
  assertEquals([p.has_private_key, p.has_preshared_key], [true, true]);
  assertEquals("private_key" in p || "preshared_key" in p, false);
  await api.post(`/interfaces/${a.id}/peers`, { name: "phone", profile: "split-tunnel" });
  await api.post(`/interfaces/${b.id}/peers`, { name: "router", address: "10.9.0.50" });
  const all = await api.get("/peers");
  assertEquals(all.status, 200);
  assertEquals([all.body.total, all.body.limit, all.body.offset], [3, null, 0]);
  assertEquals(
    all.body.peers.map((x: { interface_name: string; name: string; address: string }) =>
      `${x.interface_name}/${x.name}/${x.address}`
    ),
    ["wg1/laptop/10.8.0.2", "wg1/phone/10.8.0.3", "wg2/router/10.9.0.50"],
  );
  assertEquals(
    all.body.peers.map((x: { allowed_ips: string }) => x.allowed_ips),
    ["0.0.0.0/0, ::/0", "10.8.0.0/24", "0.0.0.0/0, ::/0"],
  );
  // Host layer off: no telemetry rather than made-up zeros.
  assertEquals(all.body.peers[0].telemetry, null);
  const one = await api.get(`/peers/${p.id}`);
  assertEquals(one.body, { ...p, telemetry: null, limits: null });
  // The listing builds rows its own (faster) way; they must equal the detail view.
  assertEquals(all.body.peers[0], one.body);
  const ofB = await api.get(`/interfaces/${b.id}/peers`);
  assertEquals(ofB.body.peers.map((x: { name: string }) => x.name), ["router"]);
  assertEquals(ofB.body.total, 1);
});

Deno.test("GET /peers paginates with limit and offset and filters by interface_id, status and search", async () => {
  await using t = await startTestServer();
  const api = apiClient(t.admin, { cookie: await t.login() });
  const a = (await api.post("/interfaces", { name: "wg1", address_v4: "10.8.0.1/24" })).body;
  const b = (await api.post("/interfaces", { name: "wg2", address_v4: "10.9.0.1/24" })).body;
  for (let i = 0; i < 6; i++) {
    await api.post(`/interfaces/${i < 4 ? a.id : b.id}/peers`, {
      name: `host-${i}`,
      enabled: i !== 1,
    });
  }
  await api.post(`/interfaces/${a.id}/peers`, { name: "Alice.Laptop" });
  await api.post(`/interfaces/${a.id}/peers`, { name: "alice phone" });
  const names = (r: { body: { peers: { name: string }[] } }) => r.body.peers.map((p) => p.name);

  const page = await api.get("/peers?limit=3&offset=2");
  assertEquals([page.body.total, page.body.limit, page.body.offset], [8, 3, 2]);
  assertEquals(names(page), ["host-0", "host-1", "host-2"]);
  assertEquals(names(await api.get("/peers?limit=3&offset=6")), ["host-4", "host-5"]);
  assertEquals((await api.get("/peers?limit=3&offset=60")).body.peers, []);

  const ofB = await api.get(`/peers?interface_id=${b.id}`);
  assertEquals([names(ofB), ofB.body.total], [["host-4", "host-5"], 2]);
  const disabled = await api.get("/peers?status=disabled");
  assertEquals([names(disabled), disabled.body.total], [["host-1"], 1]);
  // Case-insensitive substring; % and _ are literal characters, not patterns.
  assertEquals(names(await api.get("/peers?search=ALICE")), ["Alice.Laptop", "alice phone"]);
  assertEquals(names(await api.get("/peers?search=%25")), []);
  assertEquals(names(await api.get("/peers?search=e_p")), []);
  assertEquals(names(await api.get("/peers?search=e%20p")), ["alice phone"]);
  const combined = await api.get(`/peers?interface_id=${a.id}&search=host&limit=2`);
  assertEquals([names(combined), combined.body.total], [["host-0", "host-1"], 4]);
  const perInterface = await api.get(`/interfaces/${a.id}/peers?status=enabled&limit=1&offset=1`);
  assertEquals([names(perInterface), perInterface.body.total], [["alice phone"], 5]);

  for (
    const bad of ["limit=0", "limit=abc", "offset=-1", "status=sleeping", "limit=1001"]
  ) {
    const res = await api.get(`/peers?${bad}`);
    assertEquals(res.status, 400, bad);
    assertStringIncludes(res.body.error, bad.split("=")[0]);
  }
});

Deno.test("POST /interfaces/{id}/peers answers 400, 409 and 422 as the error table says", async () => {
  await using t = await startTestServer();
  const api = apiClient(t.admin, { cookie: await t.login() });
  const a = (await api.post("/interfaces", { name: "wg1", address_v4: "10.8.0.1/29" })).body;
  const first = (await api.post(`/interfaces/${a.id}/peers`, { name: "a", address: "10.8.0.2" }))
    .body;
  const cases: [unknown, number, string][] = [
    [{ name: 5 }, 400, "name"],
    [{}, 400, "name"],
    [{ name: "b", mtu: "1400" }, 400, "mtu"],
    [{ name: "b", profile: "half-tunnel" }, 400, "profile"],
    [{ name: "b", public_key: "not-a-key" }, 400, "public_key"],
    [{ name: "b", address: "10.8.0" }, 400, "address"],
    [{ name: "b", secret: true }, 400, "secret"],
    [{ name: "a" }, 409, 'name "a" is already used'],
    [{ name: "b", address: "10.8.0.2" }, 409, "address 10.8.0.2 is already used"],
    [{ name: "b", public_key: first.public_key }, 409, "public_key is already used"],
    [{ name: "b", address: "10.8.0.1" }, 409, "address 10.8.0.1 is already used"],
    [{ name: "b", address: "10.9.0.2" }, 422, "not a host address of 10.8.0.1/29"],
    [{ name: "b", address: "10.8.0.7" }, 422, "not a host address"],
    [{ name: "b", mtu: 20000 }, 422, "mtu"],
    [{ name: "b", keepalive: 70000 }, 422, "keepalive"],
  ];
  for (const [json, status, message] of cases) {
    const res = await api.post(`/interfaces/${a.id}/peers`, json);
    assertEquals(res.status, status, JSON.stringify(json));
    assertStringIncludes(res.body.error, message, JSON.stringify(json));
  }
  // A /29 has 6 host addresses: the interface and five peers, then 409.
  for (const n of ["c", "d", "e", "f"]) {
    assertEquals((await api.post(`/interfaces/${a.id}/peers`, { name: n })).status, 201);
  }
  const full = await api.post(`/interfaces/${a.id}/peers`, { name: "g" });
  assertEquals(full.status, 409);
  assertStringIncludes(full.body.error, "no free address left in 10.8.0.1/29");
});

Deno.test("PUT, enable, disable, revoke and DELETE of a peer; a revoked peer answers 409; unknown ids 404", async () => {
  await using t = await startTestServer();
  const api = apiClient(t.admin, { cookie: await t.login() });
  const a = (await api.post("/interfaces", { name: "wg1", address_v4: "10.8.0.1/24" })).body;
  const p = (await api.post(`/interfaces/${a.id}/peers`, { name: "a" })).body;
  const put = await api.put(`/peers/${p.id}`, {
    name: "a2",
    dns: "10.8.0.1",
    keepalive: 25,
    allowed_ips: "10.8.0.0/24",
  });
  assertEquals(put.status, 200);
  assertEquals(
    [put.body.name, put.body.dns, put.body.keepalive, put.body.allowed_ips, put.body.public_key],
    ["a2", "10.8.0.1", 25, "10.8.0.0/24", p.public_key],
  );
  assertEquals((await api.put(`/peers/${p.id}`, { public_key: p.public_key })).status, 400);
  assertEquals((await api.put(`/peers/${p.id}`, { mtu: 99 })).status, 422);
  assertEquals((await api.post(`/peers/${p.id}/disable`)).body.status, "disabled");
  assertEquals((await api.post(`/peers/${p.id}/enable`)).body.status, "enabled");
  const revoked = await api.post(`/peers/${p.id}/revoke`);
  assertEquals([revoked.body.status, revoked.body.has_private_key], ["revoked", false]);
  // Idempotent, and final.
  assertEquals((await api.post(`/peers/${p.id}/revoke`)).status, 200);
  for (
    const res of [
      await api.post(`/peers/${p.id}/enable`),
      await api.post(`/peers/${p.id}/disable`),
      await api.put(`/peers/${p.id}`, { name: "again" }),
      await api.get(`/peers/${p.id}/config?endpoint=vpn.example.org`),
      await api.get(`/peers/${p.id}/qr?endpoint=vpn.example.org`),
    ]
  ) {
    assertEquals(res.status, 409);
    assertStringIncludes(res.body.error, "it is revoked");
  }
  assertEquals((await api.del(`/peers/${p.id}`)).status, 200);
  const unknown = "00000000-0000-4000-8000-000000000000";
  for (
    const res of [
      await api.get(`/peers/${p.id}`),
      await api.put(`/peers/${unknown}`, { name: "x" }),
      await api.del(`/peers/${unknown}`),
      await api.post(`/peers/${unknown}/enable`),
      await api.post(`/peers/${unknown}/disable`),
      await api.post(`/peers/${unknown}/revoke`),
      await api.get(`/peers/${unknown}/config?endpoint=vpn.example.org`),
      await api.get(`/peers/${unknown}/qr`),
    ]
  ) {
    assertEquals(res.status, 404);
    assertEquals(res.body.status, 404);
  }
  const types = (await t.services.audit.list({ resource_id: p.id, limit: 50, offset: 0 })).records
    .map((r) => r.event_type).reverse();
  assertEquals(types, [
    "peer.created",
    "peer.updated",
    "peer.disabled",
    "peer.enabled",
    "peer.revoked",
    "peer.deleted",
  ]);
});

Deno.test("tunnel mutations stream InterfaceChanged, PeerChanged and an AuditEvent each on /api/v1/ws", async () => {
  await using t = await startTestServer();
  const cookie = await t.login();
  const api = apiClient(t.admin, { cookie });
  await using ws = await collectFrames(t.admin, { cookie });
  const iface = (await api.post("/interfaces", { name: "wg1", address_v4: "10.8.0.1/24" })).body;
  const peer = (await api.post(`/interfaces/${iface.id}/peers`, { name: "a" })).body;
  await api.post(`/peers/${peer.id}/disable`);
  await api.post(`/interfaces/${iface.id}/restart`);
  await api.del(`/peers/${peer.id}`);
  await ws.waitFor(
    (f) => f.type === "AuditEvent" && f.payload.event_type === "peer.deleted",
    5000,
    "peer.deleted AuditEvent",
  );
  const changes = ws.frames.filter((f) => f.type !== "AuditEvent").map((f) => f.payload);
  const network = (await api.get("/networks")).body.networks[0];
  assertEquals(changes, [
    // The interface's subnet became a network in the same transaction.
    { id: network.id, action: "created" },
    { id: iface.id, action: "created", name: "wg1" },
    { id: peer.id, action: "created", interface_id: iface.id, name: "a" },
    { id: peer.id, action: "disabled", interface_id: iface.id, name: "a" },
    { id: iface.id, action: "restarted", name: "wg1" },
    { id: peer.id, action: "deleted", interface_id: iface.id, name: "a" },
  ]);
  assertEquals(
    ws.frames.filter((f) => f.type !== "AuditEvent").map((f) => f.type),
    [
      "NetworkChanged",
      "InterfaceChanged",
      "PeerChanged",
      "PeerChanged",
      "InterfaceChanged",
      "PeerChanged",
    ],
  );
  const audits = ws.frames.filter((f) => f.type === "AuditEvent").map((f) => f.payload);
  assertEquals(audits.map((a) => a.event_type), [
    "interface.created",
    "peer.created",
    "peer.disabled",
    "interface.restarted",
    "peer.deleted",
  ]);
  assert(audits.every((a) => a.actor === "admin"));
});

Deno.test("no listing, detail, status, plan, audit record or event carries a private or preshared key", async () => {
  await using t = await startTestServer();
  const cookie = await t.login();
  const api = apiClient(t.admin, { cookie });
  await using ws = await collectFrames(t.admin, { cookie });
  await api.put("/system/settings", { key: "wireguard.server_host", value: "vpn.example.org" });
  const iface = (await api.post("/interfaces", { name: "wg1", address_v4: "10.8.0.1/24" })).body;
  const peer = (await api.post(`/interfaces/${iface.id}/peers`, { name: "a", dns: "10.8.0.1" }))
    .body;
  await api.put(`/peers/${peer.id}`, { preshared_key: false });
  await api.put(`/peers/${peer.id}`, { preshared_key: true });
  await api.post(`/peers/${peer.id}/disable`);
  await api.post(`/peers/${peer.id}/enable`);
  const config = await (await api.fetch(`/peers/${peer.id}/config`)).text();
  const qr = (await api.get(`/peers/${peer.id}/qr`)).body;
  await api.post(`/interfaces/${iface.id}/peers`, { name: "b" });

  const { interfaceRepo, peerRepo } = sqliteTunnelRepos(t.store);
  const peerRows = await Promise.all(
    (await peerRepo.identities()).map(async (p) => (await peerRepo.get(p.id))!),
  );
  const secrets = [
    ...(await interfaceRepo.all()).map((r) => r.private_key),
    ...peerRows.map((r) => r.private_key!),
    ...peerRows.map((r) => r.preshared_key!),
  ];
  assertEquals(secrets.length, 5);
  // The download is the one place a peer's keys appear (and prove the secrets are real).
  const peerRow = (await peerRepo.get(peer.id))!;
  assertStringIncludes(config, `PrivateKey = ${peerRow.private_key}`);
  assertStringIncludes(config, `PresharedKey = ${peerRow.preshared_key}`);
  assert(qr.svg.length > 0);

  await ws.waitFor((f) => f.payload?.name === "b" && f.type === "PeerChanged");
  const outputs: [string, string][] = [];
  for (
    const path of [
      "/interfaces",
      `/interfaces/${iface.id}`,
      `/interfaces/${iface.id}/status`,
      `/interfaces/${iface.id}/peers`,
      "/peers",
      `/peers/${peer.id}`,
      "/reconcile/plan",
      "/diagnostics/all",
      "/audit?limit=500",
      "/system",
    ]
  ) {
    const res = await api.get(path);
    assertEquals(res.status, 200, path);
    outputs.push([path, JSON.stringify(res.body)]);
  }
  outputs.push(["events", JSON.stringify(ws.frames)]);
  const audit = (await t.services.audit.list({ limit: 500, offset: 0 })).records;
  assert(audit.some((r) => r.event_type === "peer.config_exported"));
  for (const [where, text] of outputs) {
    for (const s of secrets) assert(!text.includes(s), `a secret appears in ${where}`);
  }
});
