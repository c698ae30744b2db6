/**
 * A history entry is only ever reached through its own object (docs/security.md,
 * "Review of operator features"): an entry id of one peer or zone put in the
 * URL of another is 404 and changes nothing, and a viewer cannot revert.
 */
import { assertEquals } from "../assert.ts";
import { apiClient } from "../helpers/api_client.ts";
import { dnsApi } from "../helpers/dns_api.ts";
import { startTestServer } from "../helpers/test_server.ts";

Deno.test("tunnel history: an entry of another peer in the URL is 404 and changes nothing; a viewer's revert is 403", async () => {
  await using t = await startTestServer();
  const api = apiClient(t.admin, { cookie: await t.login() });
  const iface = await api.post("/interfaces", { name: "wg9", address_v4: "10.64.0.1/24" });
  const a = (await api.post(`/interfaces/${iface.body.id}/peers`, { name: "alpha" })).body;
  const b = (await api.post(`/interfaces/${iface.body.id}/peers`, { name: "bravo" })).body;
  assertEquals((await api.put(`/peers/${a.id}`, { name: "alpha2" })).status, 200);
  const [rename] = (await api.get(`/peers/${a.id}/history`)).body.changes;
  const crafted = await api.post(`/peers/${b.id}/history/${rename.id}/revert`, {});
  assertEquals(crafted.status, 404, JSON.stringify(crafted.body));
  assertEquals(
    (await api.post(`/firewall/rules/${a.id}/history/${rename.id}/revert`, {})).status,
    404,
  );
  assertEquals((await api.get(`/peers/${b.id}`)).body.name, "bravo");
  assertEquals((await api.get(`/peers/${a.id}`)).body.name, "alpha2");

  await t.addUser("vera", "viewer", "viewer-password-1");
  const viewer = apiClient(t.admin, { cookie: await t.login("vera", "viewer-password-1") });
  assertEquals((await viewer.get(`/peers/${a.id}/history`)).status, 200);
  assertEquals((await viewer.post(`/peers/${a.id}/history/${rename.id}/revert`, {})).status, 403);
  assertEquals((await viewer.put(`/peers/${a.id}/limits`, { quota_bytes: 5 })).status, 403);
  assertEquals((await viewer.del(`/peers/${a.id}/limits`)).status, 403);
  assertEquals((await api.get(`/peers/${a.id}`)).body.name, "alpha2");
});

Deno.test("zone history: a change set of another zone in the URL is 404 and changes nothing", async () => {
  await using t = await startTestServer();
  const api = await dnsApi(t);
  for (const z of ["a.example", "b.example"]) {
    assertEquals((await api.post("/zones", { name: z, admin_email: `h@${z}` })).status, 201);
  }
  await api.post("/zones/a.example/records", {
    domain: "www.a.example",
    type: "A",
    value: "192.0.2.1",
  });
  const [change] = (await api.get("/zones/a.example/history")).body.changes as { id: number }[];
  assertEquals((await api.get(`/zones/b.example/history`)).status, 200);
  const crafted = await api.post(`/zones/b.example/history/${change.id}/revert`);
  assertEquals(crafted.status, 404, JSON.stringify(crafted.body));
  const recs = await api.get("/zones/a.example/records?type=A");
  assertEquals((recs.body.records as { value: string }[]).map((r) => r.value), ["192.0.2.1"]);
});
