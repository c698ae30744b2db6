/**
 * The history of peers, firewall rules and routes through their services
 * (docs/tunnels.md, "History and revert"): one change per write with its
 * actor, a revert that puts the object back through its service (row and
 * host), refusals for later changes and for what keys would be needed for,
 * and secrets absent from every row of history.
 */
import {
  assert,
  assertEquals,
  assertRejects,
  assertStringIncludes,
} from "../../../tests/assert.ts";
import { MemoryDriver } from "../../../tests/helpers/memory_driver.ts";
import { rawRows } from "../../../tests/helpers/raw_sql.ts";
import { tunnelHarness } from "../../../tests/helpers/tunnels.ts";
import { ConflictError } from "../../errors.ts";
import { sqliteTunnelRepos } from "../tunnel_repos.ts";
import { asRevert, HISTORY_KEEP } from "./history_write.ts";

async function setup() {
  const driver = new MemoryDriver();
  const h = await tunnelHarness(driver);
  const iface = await h.tunnels.interfaces.create(
    { name: "wg1", address_v4: "10.8.0.1/24" },
    "alice",
  );
  return { h, driver, iface };
}

/** The stored peer without the timestamp every write moves. */
function storedPeer(h: Awaited<ReturnType<typeof setup>>["h"], id: string) {
  const [row] = rawRows<Record<string, unknown>>(h.store, "peers", ["*"], "id", { id });
  const { updated_at: _, ...rest } = row;
  return rest;
}

Deno.test("a peer written three times (created, edited twice) reverted to its second version: the stored peer and the host's peer equal version two", async () => {
  const { h, driver, iface } = await setup();
  await using _ = h;
  const peers = h.tunnels.peers;
  const p = await peers.create(iface.id, { name: "laptop", keepalive: 25 }, "alice");
  await peers.update(p.id, { name: "laptop-2", address: "10.8.0.9", dns: "9.9.9.9" }, "bob");
  const v2 = storedPeer(h, p.id);
  const hostV2 = driver.live.get("wg1")!.peers.get(p.public_key);
  assertEquals(hostV2?.allowedIps, ["10.8.0.9/32"]);
  await peers.update(p.id, { name: "phone", address: "10.8.0.20", keepalive: 5 }, "carol");
  assertEquals(driver.live.get("wg1")!.peers.get(p.public_key)?.allowedIps, ["10.8.0.20/32"]);

  const before = await h.tunnels.history.list("peer", p.id);
  assertEquals(before.changes.map((c) => [c.actor, c.summary]), [
    ["carol", "Updated name, keepalive, address"],
    ["bob", "Updated name, dns, address"],
    ["alice", "Created"],
  ]);
  const latest = before.changes[0];
  const res = await h.tunnels.history.revert("peer", p.id, latest.id, "dave");
  assertEquals(res, { kind: "peer", object_id: p.id, reverted: latest.id });

  assertEquals(storedPeer(h, p.id), v2);
  assertEquals(driver.live.get("wg1")!.peers.get(p.public_key), hostV2);
  const after = await h.tunnels.history.list("peer", p.id);
  assertEquals(after.changes.length, 4);
  const revert = after.changes[0];
  assertEquals([revert.actor, revert.reverts], ["dave", latest.id]);
  assertEquals(revert.after, latest.before);
  const audit = (await h.audit.list({ resource_type: "peer", limit: 50, offset: 0 })).records;
  const reverted = audit.find((r) => r.event_type === "peer.history.reverted");
  assertEquals(reverted?.actor, "dave");
  assertStringIncludes(reverted!.message, `Reverted change ${latest.id} of peer "phone"`);
  // The revert went through the service: its own audit record and event too.
  assert(audit.some((r) => r.event_type === "peer.updated" && r.actor === "dave"));
  assert(h.events.some((e) => e.type === "PeerChanged" && e.payload.action === "updated"));
});

Deno.test("a revert is refused with 409 (history_conflict) when the object changed after the change, and nothing changes", async () => {
  const { h, iface } = await setup();
  await using _ = h;
  const peers = h.tunnels.peers;
  const p = await peers.create(iface.id, { name: "a" }, "alice");
  await peers.update(p.id, { dns: "9.9.9.9" }, "alice");
  await peers.disable(p.id, "bob");
  const [disabled, edited] = (await h.tunnels.history.list("peer", p.id)).changes;
  const stored = storedPeer(h, p.id);
  const err = await assertRejects(
    () => h.tunnels.history.revert("peer", p.id, edited.id, "carol"),
    ConflictError,
    `Change ${disabled.id} ("Disabled") changed this peer after change ${edited.id}; revert it first`,
  );
  assertEquals((err as ConflictError).code, "history_conflict");
  assertEquals(storedPeer(h, p.id), stored);
  assertEquals((await h.tunnels.history.list("peer", p.id)).changes.length, 3);
  // The latest one reverts: the peer is enabled again.
  await h.tunnels.history.revert("peer", p.id, disabled.id, "carol");
  assertEquals((await peers.view(p.id)).status, "enabled");
});

Deno.test("a deleted firewall rule is restored by reverting its deletion: same id, fields and position, on the host again", async () => {
  const { h, driver, iface } = await setup();
  await using _ = h;
  const fw = h.tunnels.firewall;
  const ssh = await fw.create({
    name: "ssh",
    protocol: "tcp",
    port: 22,
    action: "accept",
    interface_id: iface.id,
    source: "10.8.0.0/24",
  }, "alice");
  await fw.create({ name: "drop-rest", protocol: "any", action: "drop" }, "alice");
  await fw.delete(ssh.id, "bob");
  assertEquals(driver.firewall.at(-1)!.length, 1);
  const history = await h.tunnels.history.list("firewall_rule", ssh.id);
  assertEquals(history.exists, false);
  const [deletion] = history.changes;
  assertEquals([deletion.summary, deletion.after], ["Deleted", null]);

  await h.tunnels.history.revert("firewall_rule", ssh.id, deletion.id, "carol");
  const back = await fw.get(ssh.id);
  const strip = ({ created_at: _c, updated_at: _u, ...r }: typeof ssh) => r;
  assertEquals(strip(back), strip(ssh));
  assertEquals(driver.firewall.at(-1)!.length, 2);
  const audit = (await h.audit.list({ resource_type: "firewall_rule", limit: 50, offset: 0 }))
    .records;
  assert(audit.some((r) => r.event_type === "firewall_rule.history.reverted"));
  assert(audit.some((r) => r.event_type === "firewall.created" && r.actor === "carol"));
  // Enabling reverts to disabled, and the creation reverts by deleting.
  await fw.disable(ssh.id, "dave");
  const [disabling] = (await h.tunnels.history.list("firewall_rule", ssh.id)).changes;
  await h.tunnels.history.revert("firewall_rule", ssh.id, disabling.id, "dave");
  assertEquals((await fw.get(ssh.id)).enabled, true);
});

Deno.test("routes: reverting a creation deletes the route, reverting the deletion restores it with its id", async () => {
  const { h } = await setup();
  await using _ = h;
  const routes = h.tunnels.routes;
  const r = await routes.create({ destination: "10.50.0.0/24", gateway: "10.8.0.2" }, "alice");
  const [created] = (await h.tunnels.history.list("route", r.id)).changes;
  await h.tunnels.history.revert("route", r.id, created.id, "bob");
  assertEquals(await routes.list(), []);
  const [deleted] = (await h.tunnels.history.list("route", r.id)).changes;
  assertEquals(deleted.reverts, created.id);
  await h.tunnels.history.revert("route", r.id, deleted.id, "bob");
  const back = await routes.get(r.id);
  assertEquals([back.destination, back.gateway, back.metric], ["10.50.0.0/24", "10.8.0.2", 0]);
});

Deno.test("a peer's deletion and revoke cannot be reverted (history_irreversible): its keys are not kept", async () => {
  const { h, iface } = await setup();
  await using _ = h;
  const peers = h.tunnels.peers;
  const a = await peers.create(iface.id, { name: "a" }, "alice");
  await peers.revoke(a.id, "alice");
  const [revoke] = (await h.tunnels.history.list("peer", a.id)).changes;
  const e1 = await assertRejects(
    () => h.tunnels.history.revert("peer", a.id, revoke.id, "bob"),
    ConflictError,
    `Cannot revert change ${revoke.id} of peer "a": revoking is final`,
  );
  assertEquals((e1 as ConflictError).code, "history_irreversible");
  await peers.delete(a.id, "alice");
  const [deletion] = (await h.tunnels.history.list("peer", a.id)).changes;
  const e2 = await assertRejects(
    () => h.tunnels.history.revert("peer", a.id, deletion.id, "bob"),
    ConflictError,
    "a deleted peer cannot be restored, its keys were erased with it",
  );
  assertEquals((e2 as ConflictError).code, "history_irreversible");
});

Deno.test("no secret enters history: a peer's private and preshared keys are only has_ flags", async () => {
  const { h, iface } = await setup();
  await using _ = h;
  const peers = h.tunnels.peers;
  const p = await peers.create(iface.id, { name: "a", preshared_key: true }, "alice");
  await peers.update(p.id, { preshared_key: false, name: "b" }, "alice");
  const [keys] = rawRows<{ private_key: string }>(h.store, "peers", ["private_key"], "id");
  assert(keys.private_key.length > 0);
  await peers.delete(p.id, "alice");
  const rows = rawRows<{ before_state: string | null; after_state: string | null }>(
    h.store,
    "tunnel_history",
    ["before_state", "after_state"],
    "id",
  );
  assertEquals(rows.length, 3);
  const text = JSON.stringify(rows);
  assert(!text.includes(keys.private_key), "private key in history");
  assert(!text.includes('private_key\\":\\"'), "a private key field in history");
  assert(!text.includes('preshared_key\\":\\"'), "a preshared key field in history");
  const created = JSON.parse(rows[0].after_state!);
  assertEquals([created.has_private_key, created.has_preshared_key], [true, true]);
  assertEquals("private_key" in created || "preshared_key" in created, false);
  assertEquals(JSON.parse(rows[1].after_state!).has_preshared_key, false);
});

Deno.test("a change that slips in after the revert's first check rolls the revert back: the write checks again in its transaction", async () => {
  const { h, iface } = await setup();
  await using _ = h;
  const peers = h.tunnels.peers;
  const p = await peers.create(iface.id, { name: "a" }, "alice");
  await peers.update(p.id, { dns: "9.9.9.9" }, "alice");
  const [edit] = (await h.tunnels.history.list("peer", p.id)).changes;
  await peers.update(p.id, { name: "b" }, "bob");
  const stored = storedPeer(h, p.id);
  // As revert() would run the service after its first check had passed.
  const err = await assertRejects(
    () =>
      asRevert(
        { kind: "peer", objectId: p.id, entry: edit.id },
        () => peers.update(p.id, { dns: "" }, "carol"),
      ),
    ConflictError,
    "revert it first",
  );
  assertEquals((err as ConflictError).code, "history_conflict");
  assertEquals(storedPeer(h, p.id), stored);
  assertEquals((await h.tunnels.history.list("peer", p.id)).changes.length, 3);
});

Deno.test("history keeps the newest HISTORY_KEEP changes of an object", async () => {
  const { h, iface } = await setup();
  await using _ = h;
  const p = await h.tunnels.peers.create(iface.id, { name: "a" }, "alice");
  for (let i = 0; i < HISTORY_KEEP; i++) {
    await h.tunnels.peers.update(p.id, { keepalive: i + 1 }, "alice");
  }
  const rows = rawRows<{ summary: string }>(h.store, "tunnel_history", ["summary"], "id");
  assertEquals(rows.length, HISTORY_KEEP);
  assertEquals(rows[0].summary, "Updated keepalive");
});

Deno.test("a change of nothing the service can set back is refused (history_irreversible) rather than answered as done", async () => {
  const { h, iface } = await setup();
  await using _ = h;
  const p = await h.tunnels.peers.create(iface.id, { name: "a" }, "alice");
  // A field PUT does not take (a provider peer's endpoint), as a later column might be.
  const id = await sqliteTunnelRepos(h.store).historyRepo.add({
    kind: "peer",
    objectId: p.id,
    actor: "system",
    summary: "Endpoint moved",
    before: { name: "a", endpoint: "192.0.2.1:51820" },
    after: { name: "a", endpoint: "192.0.2.2:51820" },
    reverts: null,
    createdAt: Date.now(),
  });
  const err = await assertRejects(
    () => h.tunnels.history.revert("peer", p.id, id, "bob"),
    ConflictError,
    "none of what it changed can be set back",
  );
  assertEquals((err as ConflictError).code, "history_irreversible");
});
