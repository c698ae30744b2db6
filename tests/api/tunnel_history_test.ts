/**
 * The history of peers, firewall rules and routes over HTTP (docs/tunnels.md,
 * "History and revert"): GET …/history lists each change with its states and
 * the fields that differ, without a secret; POST …/history/{entry}/revert
 * answers 200 and puts the object back, 409 after a later change or for a
 * peer's deletion, and 404 for an unknown change or object.
 */
import { assert, assertEquals, assertStringIncludes } from "../assert.ts";
import { apiClient } from "../helpers/api_client.ts";
import { rawRows } from "../helpers/raw_sql.ts";
import { startTestServer } from "../helpers/test_server.ts";

async function setup() {
  const t = await startTestServer();
  const api = apiClient(t.admin, { cookie: await t.login() });
  const wg1 = (await api.post("/interfaces", { name: "wg1", address_v4: "10.8.0.1/24" })).body;
  return { t, api, wg1 };
}

Deno.test("GET /peers/{id}/history shows each change with its fields and no secret; revert puts the peer back; a later change refuses it with 409", async () => {
  const { t, api, wg1 } = await setup();
  await using _ = t;
  const p = (await api.post(`/interfaces/${wg1.id}/peers`, { name: "a", preshared_key: true }))
    .body;
  assertEquals((await api.put(`/peers/${p.id}`, { name: "b", dns: "9.9.9.9" })).status, 200);
  const res = await api.get(`/peers/${p.id}/history`);
  assertEquals(res.status, 200);
  assertEquals([res.body.kind, res.body.object_id, res.body.exists], ["peer", p.id, true]);
  const [edit, created] = res.body.changes;
  assertEquals([edit.actor, edit.summary, edit.reverts], ["admin", "Updated name, dns", null]);
  assertEquals(edit.fields, [
    { field: "dns", before: "", after: "9.9.9.9" },
    { field: "name", before: "a", after: "b" },
  ]);
  assertEquals(created.before, null);
  assertEquals([created.after.has_private_key, created.after.has_preshared_key], [true, true]);
  const [keys] = rawRows<{ private_key: string; preshared_key: string }>(
    t.store,
    "peers",
    ["private_key", "preshared_key"],
    "id",
    { id: p.id },
  );
  const secrets = [keys.private_key, keys.preshared_key];
  assert(secrets.every((k) => k.length > 0));
  const body = JSON.stringify(res.body);
  for (const s of secrets) assert(!body.includes(s), "a key in the history output");
  assert(!/"(private|preshared)_key"/.test(body));

  const done = await api.post(`/peers/${p.id}/history/${edit.id}/revert`);
  assertEquals([done.status, done.body], [200, {
    kind: "peer",
    object_id: p.id,
    reverted: edit.id,
  }]);
  const back = (await api.get(`/peers/${p.id}`)).body;
  assertEquals([back.name, back.dns], ["a", ""]);
  const again = await api.post(`/peers/${p.id}/history/${edit.id}/revert`);
  assertEquals(again.status, 409);
  assertStringIncludes(again.body.error, "revert it first");
  assertEquals((await api.post(`/peers/${p.id}/history/999999/revert`)).status, 404);
  assertEquals((await api.get(`/peers/00000000-0000-4000-8000-000000000000/history`)).status, 404);

  assertEquals((await api.del(`/peers/${p.id}`)).status, 200);
  const gone = await api.get(`/peers/${p.id}/history`);
  assertEquals([gone.status, gone.body.exists], [200, false]);
  const refused = await api.post(`/peers/${p.id}/history/${gone.body.changes[0].id}/revert`);
  assertEquals(refused.status, 409);
  assertStringIncludes(refused.body.error, "a deleted peer cannot be restored");
});

Deno.test("a deleted firewall rule and a deleted route come back by reverting their deletion over the API", async () => {
  const { t, api } = await setup();
  await using _ = t;
  const rule = (await api.post("/firewall/rules", {
    name: "ssh",
    protocol: "tcp",
    port: 22,
    action: "accept",
  })).body;
  assertEquals((await api.del(`/firewall/rules/${rule.id}`)).status, 200);
  const [deletion] = (await api.get(`/firewall/rules/${rule.id}/history`)).body.changes;
  assertEquals(deletion.after, null);
  const r1 = await api.post(`/firewall/rules/${rule.id}/history/${deletion.id}/revert`);
  assertEquals(r1.status, 200);
  assertEquals((await api.get(`/firewall/rules/${rule.id}`)).body.name, "ssh");

  const route =
    (await api.post("/routes", { destination: "10.50.0.0/24", gateway: "10.8.0.2" })).body;
  assertEquals((await api.del(`/routes/${route.id}`)).status, 200);
  const [gone] = (await api.get(`/routes/${route.id}/history`)).body.changes;
  assertEquals((await api.post(`/routes/${route.id}/history/${gone.id}/revert`)).status, 200);
  assertEquals((await api.get(`/routes/${route.id}`)).body.destination, "10.50.0.0/24");
  const audit = await t.services.audit.list({ resource_type: "route", limit: 10, offset: 0 });
  const reverted = audit.records.find((r) => r.event_type === "route.history.reverted");
  assertStringIncludes(reverted!.message, `Reverted change ${gone.id} of route "10.50.0.0/24"`);
});
