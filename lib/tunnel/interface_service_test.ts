import { SqliteAsync } from "../store/sqlite_async.ts";
import { assert, assertEquals, assertNotEquals, assertRejects } from "../../tests/assert.ts";
import { tunnelHarness } from "../../tests/helpers/tunnels.ts";
import {
  ConflictError,
  ForbiddenError,
  NotFoundError,
  UnprocessableError,
  ValidationError,
} from "../errors.ts";
import { SqliteInterfaceRepo } from "./interface_repo.ts";
import { SqlitePeerRepo } from "./peer_repo.ts";

Deno.test("InterfaceService.create() validates with 400, 422 and 409 as documented", async () => {
  await using h = await tunnelHarness();
  const s = h.tunnels.interfaces;
  await assertRejects(
    () => s.create({ name: "WG-1", address_v4: "10.8.0.1/24" }, "alice"),
    ValidationError,
    "name",
  );
  await assertRejects(
    () => s.create({ name: "averyveryverylongname", address_v4: "10.8.0.1/24" }, "a"),
    ValidationError,
  );
  await assertRejects(
    () => s.create({ name: "wg1", address_v4: "10.8.0.1" }, "a"),
    ValidationError,
    "address_v4",
  );
  await assertRejects(
    () => s.create({ name: "wg1", address_v4: "10.8.0.0/24" }, "a"),
    UnprocessableError,
  );
  await assertRejects(
    () => s.create({ name: "wg1", address_v4: "10.8.0.1/24", listen_port: 70000 }, "a"),
    UnprocessableError,
    "listen_port 70000",
  );
  await assertRejects(
    () => s.create({ name: "wg1", address_v4: "10.8.0.1/24", listen_port: 0 }, "a"),
    UnprocessableError,
  );
  await assertRejects(
    () => s.create({ name: "wg1", address_v4: "10.8.0.1/24", mtu: 1279 }, "a"),
    UnprocessableError,
    "mtu",
  );
  await assertRejects(
    () => s.create({ name: "wg1", address_v4: "10.8.0.1/24", mtu: 9001 }, "a"),
    UnprocessableError,
  );
  await s.create({ name: "wg1", address_v4: "10.8.0.1/24", listen_port: 51821 }, "a");
  await assertRejects(
    () => s.create({ name: "wg1", address_v4: "10.9.0.1/24" }, "a"),
    ConflictError,
    'name "wg1"',
  );
  await assertRejects(
    () => s.create({ name: "wg2", address_v4: "10.8.0.1/24" }, "a"),
    ConflictError,
    'Cannot create interface "wg2": address 10.8.0.1/24 is already used',
  );
  await assertRejects(
    () => s.create({ name: "wg2", address_v4: "10.8.0.200/25" }, "a"),
    ConflictError,
    "overlaps",
  );
  await assertRejects(
    () => s.create({ name: "wg2", address_v4: "10.9.0.1/24", listen_port: 51821 }, "a"),
    ConflictError,
    "listen_port",
  );
  assertEquals((await s.list()).length, 1);
});

Deno.test("InterfaceService.create() generates keys, defaults port and MTU, audits and emits", async () => {
  await using h = await tunnelHarness();
  const a = await h.tunnels.interfaces.create({ name: "wg1", address_v4: "10.8.0.1/24" }, "alice");
  const b = await h.tunnels.interfaces.create({ name: "wg2", address_v4: "10.9.0.1/24" }, "alice");
  assertEquals([a.listen_port, b.listen_port, a.mtu, a.role, a.enabled], [
    51820,
    51821,
    1420,
    "overlay",
    true,
  ]);
  assertEquals(a.public_key.length, 44);
  assert(!JSON.stringify(a).includes("private"), "no private key in the view");
  const rec = (await h.audit.list({ limit: 10, offset: 0, resource_id: a.id })).records[0];
  assertEquals([rec.actor, rec.event_type], ["alice", "interface.created"]);
  assertEquals(
    h.events.filter((e) => e.type === "InterfaceChanged").map((e) => e.payload),
    [{ id: a.id, action: "created", name: "wg1" }, { id: b.id, action: "created", name: "wg2" }],
  );
  assertEquals(h.events.filter((e) => e.type === "AuditEvent").length, 2);
});

Deno.test("InterfaceService.update() keeps the key pair and refuses a subnet its peers do not fit", async () => {
  await using h = await tunnelHarness();
  const i = await h.tunnels.interfaces.create({ name: "wg1", address_v4: "10.8.0.1/24" }, "a");
  const repo = new SqliteInterfaceRepo(SqliteAsync.of(h.store));
  const key = (await repo.get(i.id))!.private_key;
  const u = await h.tunnels.interfaces.update(
    i.id,
    { listen_port: 51900, mtu: 1380, name: "wg7" },
    "a",
  );
  assertEquals([u.listen_port, u.mtu, u.name, u.public_key], [51900, 1380, "wg7", i.public_key]);
  assertEquals((await repo.get(i.id))!.private_key, key);
  await h.tunnels.peers.create(i.id, { name: "p1", address: "10.8.0.200" }, "a");
  await assertRejects(
    () => h.tunnels.interfaces.update(i.id, { address_v4: "10.8.0.1/25" }, "a"),
    UnprocessableError,
    "10.8.0.200",
  );
  const moved = await h.tunnels.interfaces.update(i.id, { address_v4: "10.8.0.2/16" }, "a");
  assertEquals(moved.address_v4, "10.8.0.2/16");
});

Deno.test("InterfaceService protects wg0 from delete, disable and rename with ForbiddenError", async () => {
  await using h = await tunnelHarness();
  const s = h.tunnels.interfaces;
  const wg0 = await s.create({ name: "wg0", address_v4: "10.8.0.1/24" }, "a");
  await assertRejects(() => s.delete(wg0.id, "a"), ForbiddenError, "protected");
  await assertRejects(() => s.disable(wg0.id, "a"), ForbiddenError, "protected");
  await assertRejects(() => s.update(wg0.id, { name: "wg9" }, "a"), ForbiddenError);
  assertEquals((await s.enable(wg0.id, "a")).enabled, true);
  assertEquals((await s.restart(wg0.id, "a")).name, "wg0");
  const other = await s.create({ name: "wg1", address_v4: "10.9.0.1/24" }, "a");
  assertEquals((await s.disable(other.id, "a")).enabled, false);
  await h.tunnels.peers.create(other.id, { name: "p" }, "a");
  await s.delete(other.id, "a");
  assertEquals(await new SqlitePeerRepo(SqliteAsync.of(h.store)).count({}), 0);
  await assertRejects(() => s.delete(other.id, "a"), NotFoundError);
});

Deno.test("InterfaceService.status() says the host layer is off with the none driver", async () => {
  await using h = await tunnelHarness();
  const i = await h.tunnels.interfaces.create({ name: "wg1", address_v4: "10.8.0.1/24" }, "a");
  const st = await h.tunnels.interfaces.status(i.id);
  assertEquals([st.driver, st.host_active, st.link, st.rx_bytes], ["none", false, "unknown", null]);
  const plan = await h.tunnels.reconciler.plan();
  assertEquals([plan.host_active, plan.in_sync, plan.items.length], [false, null, 0]);
  assertNotEquals(plan.detail.indexOf("off"), -1);
  const diag = await h.tunnels.diagnostics();
  assertEquals(diag.status, "off");
});
