/**
 * The network routes (IPAM) over HTTP: creation and its 400/409 rules,
 * listing with size and utilization, deletion, and the available-address
 * pages, including a /16 with 5,000 peers answered well within 50 ms.
 * Interfaces and their networks: tests/api/network_interfaces_test.ts.
 */
import { SqliteAsync } from "../../lib/store/sqlite_async.ts";
import { assert, assertEquals, assertStringIncludes } from "../assert.ts";
import { apiClient } from "../helpers/api_client.ts";
import { startTestServer } from "../helpers/test_server.ts";
import { sqliteTunnelRepos } from "../../lib/tunnel/tunnel_repos.ts";

Deno.test("POST /networks creates a network (201) that GET /networks and GET /networks/{id} show with size and allocation", async () => {
  await using t = await startTestServer();
  const api = apiClient(t.admin, { cookie: await t.login() });
  const created = await api.post("/networks", { name: "pool.a", cidr: "10.20.0.0/16" });
  assertEquals(created.status, 201);
  const n = created.body;
  assertEquals(
    [n.name, n.cidr, n.interface_id, n.interface_name, n.origin, n.size, n.allocated],
    ["pool.a", "10.20.0.0/16", null, null, "api", 65534, 0],
  );
  assert(!Number.isNaN(Date.parse(n.created_at)));
  const small = (await api.post("/networks", { name: "Edge_30", cidr: "192.168.7.4/30" })).body;
  assertEquals([small.size, small.cidr], [2, "192.168.7.4/30"]);
  const wide = (await api.post("/networks", { name: "big", cidr: "11.0.0.0/8" })).body;
  assertEquals(wide.size, 16777214);
  const list = await api.get("/networks");
  assertEquals(list.status, 200);
  // By name (byte order: upper case first).
  assertEquals(list.body.networks.map((x: { name: string }) => x.name), [
    "Edge_30",
    "big",
    "pool.a",
  ]);
  assertEquals((await api.get(`/networks/${n.id}`)).body, n);
  const audit = (await t.services.audit.list({ resource_id: n.id, limit: 10, offset: 0 })).records;
  assertEquals(audit.map((r) => [r.event_type, r.actor, r.resource_type]), [
    ["network.created", "admin", "network"],
  ]);
});

Deno.test("POST /networks answers 400 naming the field for a bad name, a bad or non-canonical block and a prefix out of /8-/30", async () => {
  await using t = await startTestServer();
  const api = apiClient(t.admin, { cookie: await t.login() });
  const cases: [unknown, string][] = [
    [{ name: "a b", cidr: "10.20.0.0/16" }, "name"],
    [{ name: "x".repeat(65), cidr: "10.20.0.0/16" }, "name"],
    [{ name: "", cidr: "10.20.0.0/16" }, "name"],
    [{ name: "ok", cidr: "10.20.0.0/16", mode: "x" }, "mode"],
    [{ cidr: "10.20.0.0/16" }, "name"],
    [{ name: "ok" }, "cidr"],
    [{ name: "ok", cidr: 42 }, "cidr"],
    [{ name: "ok", cidr: "10.20.0.0" }, "cidr"],
    [{ name: "ok", cidr: "fd00::/64" }, "cidr"],
    [{ name: "ok", cidr: "10.20.0.0/33" }, "cidr"],
    [{ name: "ok", cidr: " 10.20.0.0/16" }, "cidr"],
    [{ name: "ok", cidr: "10.0.0.0/7" }, "prefix from /8 to /30"],
    [{ name: "ok", cidr: "10.20.0.0/31" }, "prefix from /8 to /30"],
    [{ name: "ok", cidr: "10.20.0.4/32" }, "prefix from /8 to /30"],
    [{ name: "ok", cidr: "10.20.1.0/16" }, 'not canonical (host bits set): write "10.20.0.0/16"'],
    [{ name: "ok", cidr: "10.8.0.1/24" }, 'write "10.8.0.0/24"'],
    [{ name: "ok", cidr: "10.0.0.0/08" }, 'write "10.0.0.0/8"'],
  ];
  for (const [json, message] of cases) {
    const res = await api.post("/networks", json);
    assertEquals(res.status, 400, JSON.stringify(json));
    assertEquals(res.body.status, 400);
    assertStringIncludes(res.body.error, message, JSON.stringify(json));
  }
  assertEquals((await api.get("/networks")).body.networks, []);
});

Deno.test("POST /networks answers 409 for a taken name and for a block overlapping a network or an interface's subnet", async () => {
  await using t = await startTestServer();
  const api = apiClient(t.admin, { cookie: await t.login() });
  assertEquals((await api.post("/networks", { name: "pool", cidr: "10.20.0.0/16" })).status, 201);
  assertEquals(
    (await api.post("/interfaces", { name: "wg1", address_v4: "10.8.0.1/24" })).status,
    201,
  );
  const cases: [unknown, string][] = [
    [{ name: "pool", cidr: "10.30.0.0/16" }, 'name "pool" is already used'],
    [{ name: "p2", cidr: "10.20.0.0/16" }, 'overlaps network "pool" (10.20.0.0/16)'],
    [{ name: "p2", cidr: "10.20.5.0/24" }, 'overlaps network "pool" (10.20.0.0/16)'],
    [{ name: "p2", cidr: "10.0.0.0/8" }, "overlaps network"],
    [{ name: "p2", cidr: "10.8.0.0/24" }, 'cidr 10.8.0.0/24 overlaps network "wg1" (10.8.0.0/24)'],
    [{ name: "p2", cidr: "10.8.0.128/25" }, 'overlaps network "wg1" (10.8.0.0/24)'],
    // The interface's network carries the interface's name; it is taken like any other.
    [{ name: "wg1", cidr: "10.40.0.0/24" }, 'name "wg1" is already used'],
  ];
  for (const [json, message] of cases) {
    const res = await api.post("/networks", json);
    assertEquals(res.status, 409, JSON.stringify(json));
    assertStringIncludes(res.body.error, message, JSON.stringify(json));
  }
  assertEquals((await api.get("/networks")).body.networks.length, 2);
  // Adjacent blocks share no address.
  assertEquals((await api.post("/networks", { name: "next", cidr: "10.21.0.0/16" })).status, 201);
});

Deno.test("DELETE /networks/{id} removes a free network and answers 409 for one an interface uses; unknown ids are 404", async () => {
  await using t = await startTestServer();
  const api = apiClient(t.admin, { cookie: await t.login() });
  const pool = (await api.post("/networks", { name: "pool", cidr: "10.20.0.0/16" })).body;
  await api.post("/interfaces", { name: "wg0", address_v4: "10.8.0.1/24" });
  const used = (await api.get("/networks")).body.networks.find((n: { name: string }) =>
    n.name === "wg0"
  );
  const refused = await api.del(`/networks/${used.id}`);
  assertEquals(refused.status, 409);
  assertEquals(refused.body.error, 'Cannot delete network "wg0": it is used by interface "wg0"');
  const del = await api.del(`/networks/${pool.id}`);
  assertEquals([del.status, del.body.success], [200, true]);
  assertEquals((await api.get(`/networks/${pool.id}`)).status, 404);
  assertEquals((await api.get("/networks")).body.networks.map((n: { id: string }) => n.id), [
    used.id,
  ]);
  const audit =
    (await t.services.audit.list({ resource_id: pool.id, limit: 10, offset: 0 })).records;
  assertEquals(audit.map((r) => r.event_type), ["network.deleted", "network.created"]);
  for (
    const res of [
      await api.get("/networks/nope"),
      await api.del("/networks/nope"),
      await api.get("/networks/nope/available"),
    ]
  ) {
    assertEquals(res.status, 404);
    assertEquals(res.body.error, 'Network "nope" does not exist');
  }
});

Deno.test("GET /networks/{id}/available pages ascending free addresses without the interface's, the peers' (revoked too), network and broadcast", async () => {
  await using t = await startTestServer();
  const api = apiClient(t.admin, { cookie: await t.login() });
  const iface = (await api.post("/interfaces", { name: "wg1", address_v4: "10.8.0.3/29" })).body;
  await api.post(`/interfaces/${iface.id}/peers`, { name: "a", address: "10.8.0.1" });
  const revoked = (await api.post(`/interfaces/${iface.id}/peers`, {
    name: "b",
    address: "10.8.0.5",
  })).body;
  assertEquals((await api.post(`/peers/${revoked.id}/revoke`)).status, 200);
  const net = (await api.get("/networks")).body.networks[0];
  assertEquals([net.cidr, net.size, net.allocated], ["10.8.0.0/29", 6, 3]);
  const base = `/networks/${net.id}/available`;
  const all = await api.get(base);
  assertEquals(all.status, 200);
  assertEquals(all.body, {
    network_id: net.id,
    cidr: "10.8.0.0/29",
    size: 6,
    allocated: 3,
    addresses: ["10.8.0.2", "10.8.0.4", "10.8.0.6"],
    next_after: null,
  });
  const first = (await api.get(`${base}?limit=2`)).body;
  assertEquals([first.addresses, first.next_after], [["10.8.0.2", "10.8.0.4"], "10.8.0.4"]);
  const second = (await api.get(`${base}?limit=2&after=${first.next_after}`)).body;
  assertEquals([second.addresses, second.next_after], [["10.8.0.6"], null]);
  // A page that ends on the last free address has nothing after it.
  assertEquals((await api.get(`${base}?limit=3`)).body.next_after, null);
  assertEquals((await api.get(`${base}?after=10.8.0.0`)).body.addresses.length, 3);
  assertEquals((await api.get(`${base}?after=10.8.0.7`)).body.addresses, []);
  assertEquals((await api.get(`${base}?after=10.8.0.3&limit=1`)).body, {
    ...all.body,
    addresses: ["10.8.0.4"],
    next_after: "10.8.0.4",
  });
  const free = (await api.post("/networks", { name: "tiny", cidr: "10.9.0.0/30" })).body;
  assertEquals((await api.get(`/networks/${free.id}/available`)).body.addresses, [
    "10.9.0.1",
    "10.9.0.2",
  ]);
});

Deno.test("GET /networks/{id}/available answers 400 for limit outside 1-1000 and an after that is not an address inside the network", async () => {
  await using t = await startTestServer();
  const api = apiClient(t.admin, { cookie: await t.login() });
  const net = (await api.post("/networks", { name: "pool", cidr: "10.20.0.0/24" })).body;
  const base = `/networks/${net.id}/available`;
  const cases: [string, string][] = [
    ["limit=0", "limit"],
    ["limit=1001", "limit"],
    ["limit=1.5", "limit"],
    ["limit=abc", "limit"],
    ["after=10.21.0.1", 'after "10.21.0.1" is not an address inside 10.20.0.0/24'],
    ["after=10.20.0", "after"],
    ["after=10.20.0.300", "after"],
    ["after=10.20.0.1%2F24", "after"],
  ];
  for (const [query, message] of cases) {
    const res = await api.get(`${base}?${query}`);
    assertEquals(res.status, 400, query);
    assertStringIncludes(res.body.error, message, query);
  }
  assertEquals((await api.get(`${base}?limit=1000`)).body.addresses.length, 254);
  assertEquals((await api.get(`${base}?limit=1`)).body.next_after, "10.20.0.1");
});

Deno.test("GET /networks/{id}/available on a /16 with 5,000 peers answers in well under 50 ms", async () => {
  await using t = await startTestServer();
  const api = apiClient(t.admin, { cookie: await t.login() });
  const iface = (await api.post("/interfaces", { name: "wg1", address_v4: "10.20.0.1/16" })).body;
  const setup = performance.now();
  const { peerRepo } = sqliteTunnelRepos(t.store);
  await SqliteAsync.of(t.store).tx(async () => {
    for (let i = 0; i < 5000; i++) {
      // 10.20.0.2 upwards: the first 5,001 host addresses are taken.
      const n = i + 2;
      await peerRepo.insert({
        id: crypto.randomUUID(),
        interface_id: iface.id,
        name: `p${i}`,
        public_key: `key-${i}`,
        private_key: null,
        preshared_key: null,
        address: `10.20.${n >> 8}.${n & 255}`,
        allowed_ips: null,
        dns: "",
        keepalive: null,
        mtu: null,
        profile: "full-tunnel",
        status: "enabled",
        created_at: 0,
        updated_at: 0,
      });
    }
  });
  assert(performance.now() - setup < 10_000, "setup stays bounded");
  const net = (await api.get("/networks")).body.networks[0];
  assertEquals([net.size, net.allocated], [65534, 5001]);
  const url = `/networks/${net.id}/available?limit=100`;
  const times: number[] = [];
  let page;
  for (let i = 0; i < 7; i++) {
    const t0 = performance.now();
    page = await api.get(url);
    times.push(performance.now() - t0);
  }
  assertEquals(page!.status, 200);
  assertEquals(page!.body.allocated, 5001);
  assertEquals(page!.body.addresses.length, 100);
  assertEquals(page!.body.addresses[0], "10.20.19.138");
  assertEquals(page!.body.next_after, "10.20.19.237");
  times.sort((a, b) => a - b);
  const median = times[3];
  assert(median < 50, `median ${median.toFixed(1)} ms of ${times.map((x) => x.toFixed(1))}`);
  // The last page of the block: the broadcast address is never offered.
  const last = (await api.get(`/networks/${net.id}/available?after=10.20.255.250`)).body;
  assertEquals([last.addresses, last.next_after], [[
    "10.20.255.251",
    "10.20.255.252",
    "10.20.255.253",
    "10.20.255.254",
  ], null]);
});

Deno.test("a viewer reads networks but gets 403 creating or deleting one", async () => {
  await using t = await startTestServer();
  const admin = apiClient(t.admin, { cookie: await t.login() });
  const net = (await admin.post("/networks", { name: "pool", cidr: "10.20.0.0/24" })).body;
  await t.addUser("vera", "viewer");
  await t.addUser("otto", "operator");
  const viewer = apiClient(t.admin, { cookie: await t.login("vera", "vera-password-123") });
  for (const path of ["/networks", `/networks/${net.id}`, `/networks/${net.id}/available`]) {
    assertEquals((await viewer.get(path)).status, 200, path);
  }
  for (
    const res of [
      await viewer.post("/networks", { name: "p2", cidr: "10.21.0.0/24" }),
      await viewer.del(`/networks/${net.id}`),
    ]
  ) {
    assertEquals(res.status, 403);
    assertEquals(res.body.error, 'This action needs the "operator" role; you have "viewer"');
  }
  const operator = apiClient(t.admin, { cookie: await t.login("otto", "otto-password-123") });
  assertEquals(
    (await operator.post("/networks", { name: "p2", cidr: "10.21.0.0/24" })).status,
    201,
  );
  assertEquals((await operator.del(`/networks/${net.id}`)).status, 200);
});
