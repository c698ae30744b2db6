/**
 * Reconcile and diagnostics routes with the host layer off (the shapes and
 * statuses); their behaviour on real WireGuard is in tests/tunnels/.
 */
import { migrations } from "../../lib/store/migrations/mod.ts";
import { assertEquals, assertStringIncludes } from "../assert.ts";
import { apiClient } from "../helpers/api_client.ts";
import { startTestServer } from "../helpers/test_server.ts";

Deno.test("GET /reconcile/plan and POST /reconcile/apply say the host layer is off and change nothing", async () => {
  await using t = await startTestServer();
  const api = apiClient(t.admin, { cookie: await t.login() });
  await api.post("/interfaces", { name: "wg1", address_v4: "10.8.0.1/24" });
  const plan = await api.get("/reconcile/plan");
  assertEquals(plan.status, 200);
  assertEquals(
    [plan.body.driver, plan.body.host_active, plan.body.in_sync, plan.body.items],
    ["none", false, null, []],
  );
  assertStringIncludes(plan.body.detail, "host layer is off");
  const apply = await api.post("/reconcile/apply");
  assertEquals(apply.status, 200);
  assertEquals(
    [apply.body.applied, apply.body.remaining, apply.body.verified],
    [[], [], false],
  );
  assertEquals(
    (await t.services.audit.list({ event_type: "reconcile.applied", limit: 5, offset: 0 })).total,
    0,
  );
});

Deno.test("GET /diagnostics/all reports every subsystem; /diagnostics/{subsystem} one of them, 404 for another name", async () => {
  await using t = await startTestServer();
  const api = apiClient(t.admin, { cookie: await t.login() });
  const all = await api.get("/diagnostics/all");
  assertEquals(all.status, 200);
  assertEquals(all.body.status, "ok");
  assertEquals(
    all.body.subsystems.map((s: { subsystem: string; status: string }) =>
      `${s.subsystem}:${s.status}`
    ),
    [
      "database:ok",
      "tunnels:off",
      "firewall:off",
      "routes:off",
      "dns:ok",
      "attestation:ok",
      "backups:off",
    ],
  );
  const tunnels = await api.get("/diagnostics/tunnels");
  assertEquals(tunnels.status, 200);
  assertEquals([tunnels.body.host.driver, tunnels.body.host.active], ["none", false]);
  assertEquals(tunnels.body.checks.map((c: { name: string }) => c.name), ["host_driver"]);
  const db = await api.get("/diagnostics/database");
  assertEquals(
    db.body.checks.map((c: { name: string; status: string }) => `${c.name}:${c.status}`),
    ["query:ok", "journal_mode:ok", "integrity:ok", "wal_size:ok", "schema_version:ok"],
  );
  for (const c of db.body.checks) {
    assertEquals([typeof c.message, typeof c.details], ["string", "object"], c.name);
  }
  // The newest migration this build has, and the file at it.
  const newest = Math.max(...migrations.map((m) => m.version));
  assertEquals(db.body.checks[4].details, { version: newest, expected: newest });
  const unknown = await api.get("/diagnostics/kitchen");
  assertEquals(unknown.status, 404);
  assertEquals(
    unknown.body.error,
    'Diagnostics subsystem "kitchen" does not exist; use one of database, tunnels, firewall, routes, dns, attestation, backups',
  );
});
