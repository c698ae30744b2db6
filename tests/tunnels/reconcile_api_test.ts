/**
 * Reconcile through the HTTP API on real WireGuard in a namespace: a peer
 * removed behind Palisade's back (`wg set … remove`) is exactly the drift
 * GET /reconcile/plan shows, and POST /reconcile/apply puts it back without
 * touching the other peers.
 */
import { assert, assertEquals } from "../assert.ts";
import { apiClient, collectFrames } from "../helpers/api_client.ts";
import { netns, randomSuffix } from "../helpers/netns.ts";
import { haveSystem } from "../helpers/system.ts";
import { startTestServer } from "../helpers/test_server.ts";

const TOOLS = ["ip", "wg", "wireguard-go"];

Deno.test("GET /reconcile/plan shows a peer removed with wg set … remove as exactly that drift; POST /reconcile/apply restores only it", async () => {
  if (!haveSystem("reconcile over HTTP", TOOLS, { root: true })) return;
  await using ns = await netns();
  await using t = await startTestServer({
    env: {
      PALISADE_HOST_DRIVER: "linux",
      PALISADE_HOST_NETNS: ns.name,
      // No periodic pass during the test: every read below is the test's own.
      PALISADE_HOST_POLL_MS: "3600000",
    },
  });
  const cookie = await t.login();
  const api = apiClient(t.admin, { cookie });
  const ifName = `pr${randomSuffix(6)}`;
  const iface = (await api.post("/interfaces", { name: ifName, address_v4: "10.98.0.1/24" })).body;
  const peers = [];
  for (const name of ["a", "b", "c"]) {
    const res = await api.post(`/interfaces/${iface.id}/peers`, { name });
    assertEquals(res.status, 201);
    peers.push(res.body);
  }
  const [pa, pb, pc] = peers;
  assertEquals((await api.get("/reconcile/plan")).body.items, []);
  // `wg show <if> dump`: one line per peer, keyed by public key (column 1).
  const dump = async () => {
    const out = await ns.exec("wg", ["show", ifName, "dump"]);
    return new Map(
      out.stdout.trim().split("\n").slice(1).map((l) => [l.split("\t")[0], l] as const),
    );
  };
  const before = await dump();
  assertEquals(before.size, 3);

  await ns.exec("wg", ["set", ifName, "peer", pb.public_key, "remove"]);

  const plan = await api.get("/reconcile/plan");
  assertEquals(plan.status, 200);
  assertEquals([plan.body.driver, plan.body.host_active, plan.body.in_sync], [
    "linux",
    true,
    false,
  ]);
  assertEquals(plan.body.items, [{
    kind: "peer_missing",
    interface: ifName,
    interface_id: iface.id,
    peer_id: pb.id,
    peer_name: "b",
    public_key: pb.public_key,
    field: null,
    route_id: null,
    rule_id: null,
    desired: "present",
    live: null,
    action: "add the peer",
  }]);
  // The plan only reads.
  assertEquals((await dump()).has(pb.public_key), false);
  assertEquals((await api.get(`/peers/${pb.id}`)).body.telemetry.on_host, false);
  const diag = (await api.get("/diagnostics/tunnels")).body;
  assertEquals(diag.checks.find((ch: { name: string }) => ch.name === "drift").status, "fail");

  await using ws = await collectFrames(t.admin, { cookie });
  const apply = await api.post("/reconcile/apply");
  assertEquals(apply.status, 200);
  assertEquals(apply.body.applied, plan.body.items);
  assertEquals([apply.body.remaining, apply.body.verified], [[], true]);
  const after = await dump();
  assertEquals(after.size, 3);
  assert(after.has(pb.public_key));
  // The others were not touched: same dump lines (keys, endpoint, handshake, counters).
  assertEquals(after.get(pa.public_key), before.get(pa.public_key));
  assertEquals(after.get(pc.public_key), before.get(pc.public_key));
  const frame = await ws.waitFor(
    (f) => f.type === "AuditEvent" && f.payload.event_type === "reconcile.applied",
    5000,
    "reconcile.applied AuditEvent",
  );
  assertEquals(frame.payload.actor, "admin");
  await ws.waitFor(
    (f) => f.type === "InterfaceChanged" && f.payload.action === "reconciled",
    5000,
    "InterfaceChanged reconciled",
  );
  assertEquals((await api.get("/reconcile/plan")).body.in_sync, true);
  assertEquals((await api.get("/diagnostics/tunnels")).body.status, "ok");
  // Nothing left: a second apply changes nothing and writes no audit record.
  assertEquals((await api.post("/reconcile/apply")).body.applied, []);
  assertEquals(
    (await api.get("/audit?event_type=reconcile.applied")).body.total,
    1,
  );
});
