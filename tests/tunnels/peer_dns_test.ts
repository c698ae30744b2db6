/**
 * Peer names in DNS (docs/tunnels.md), end to end on a test server: the
 * interface's `dns_zone` is set over the admin API, and `dig` against the
 * server's DNS listener shows each enabled peer as `<label>.<zone>` A,
 * following create, rename, address change, disable, enable and delete; a
 * hand-made record at a peer's name is refused (and left alone), two peers
 * sanitizing to one label are refused, and a refused DNS part leaves no peer
 * change either.
 */
import { assert, assertEquals, assertRejects } from "../assert.ts";
import { ConflictError, NotFoundError } from "../../lib/errors.ts";
import { type ApiClient, apiClient } from "../helpers/api_client.ts";
import { type DnsApi, dnsApi } from "../helpers/dns_api.ts";
import { haveSystem } from "../helpers/system.ts";
import { startTestServer, type TestServer } from "../helpers/test_server.ts";
import { dig } from "../dns/dig.ts";

const Z = "vpn.test";

/** The A answers for `name` as "owner ttl IN A address" lines, from dig. */
async function a(t: TestServer, name: string): Promise<string[]> {
  const r = await dig(t.dns.port, [name, "A"]);
  return r.answer.map((l) => l.split(/\s+/).filter((_, i) => i !== 1).join(" "));
}

async function setup(t: TestServer): Promise<{ api: ApiClient; dns: DnsApi; iface: string }> {
  const api = apiClient(t.admin, { cookie: await t.login() });
  const dns = await dnsApi(t);
  const z = await dns.post("/zones", { name: Z, admin_email: `h@${Z}`, default_ttl: 300 });
  assertEquals(z.status, 201, JSON.stringify(z.body));
  const i = await api.post("/interfaces", {
    name: "wgdns",
    address_v4: "10.77.0.1/24",
    dns_zone: Z,
  });
  assertEquals(i.status, 201, JSON.stringify(i.body));
  assertEquals(i.body.dns_zone, Z);
  return { api, dns, iface: i.body.id as string };
}

async function addPeer(api: ApiClient, iface: string, body: Record<string, unknown>) {
  const r = await api.post(`/interfaces/${iface}/peers`, body);
  assertEquals(r.status, 201, JSON.stringify(r.body));
  return r.body.id as string;
}

Deno.test("peer names appear in dig answers from the DNS listener and follow rename, address change, disable and delete", async () => {
  if (!haveSystem("peer dns", ["dig"])) return;
  await using t = await startTestServer();
  const { api, iface } = await setup(t);
  const id = await addPeer(api, iface, { name: "Alice@Laptop  2", address: "10.77.0.10" });
  assertEquals(await a(t, `alice-laptop-2.${Z}`), [`alice-laptop-2.${Z}. IN A 10.77.0.10`]);

  assertEquals((await api.put(`/peers/${id}`, { name: "bob" })).status, 200);
  assertEquals(await a(t, `alice-laptop-2.${Z}`), []);
  assertEquals(await a(t, `bob.${Z}`), [`bob.${Z}. IN A 10.77.0.10`]);

  assertEquals((await api.put(`/peers/${id}`, { address: "10.77.0.20" })).status, 200);
  assertEquals(await a(t, `bob.${Z}`), [`bob.${Z}. IN A 10.77.0.20`]);

  assertEquals((await api.post(`/peers/${id}/disable`)).status, 200);
  assertEquals(await a(t, `bob.${Z}`), []);
  assertEquals((await api.post(`/peers/${id}/enable`)).status, 200);
  assertEquals(await a(t, `bob.${Z}`), [`bob.${Z}. IN A 10.77.0.20`]);

  assertEquals((await api.del(`/peers/${id}`)).status, 200);
  assertEquals(await a(t, `bob.${Z}`), []);
});

Deno.test("peer names are sanitized to DNS labels and a second peer with the same label is refused", async () => {
  if (!haveSystem("peer dns", ["dig"])) return;
  await using t = await startTestServer();
  const { api, iface } = await setup(t);
  const long = "x".repeat(64);
  await addPeer(api, iface, { name: "Ops.Box+01-", address: "10.77.0.11" });
  await addPeer(api, iface, { name: long, address: "10.77.0.12" });
  assertEquals(await a(t, `ops-box-01.${Z}`), [`ops-box-01.${Z}. IN A 10.77.0.11`]);
  const label = "x".repeat(63);
  assertEquals(await a(t, `${label}.${Z}`), [`${label}.${Z}. IN A 10.77.0.12`]);

  const dup = await api.post(`/interfaces/${iface}/peers`, { name: "ops box 01" });
  assertEquals(dup.status, 409, JSON.stringify(dup.body));
  const err = await assertRejects(
    () => t.services.tunnels.peers.create(iface, { name: "OPS  box 01" }, "test"),
    ConflictError,
  ) as ConflictError;
  assertEquals([err.field, err.code], ["name", "duplicate_dns_label"]);
  const names = (await api.get(`/peers?interface_id=${iface}`)).body.peers.map((
    p: { name: string },
  ) => p.name);
  assertEquals(names.sort(), ["Ops.Box+01-", long].sort(), "the refused peer was not stored");
});

Deno.test("a hand-made record at a peer's name is refused, left alone, and the peer change rolls back with it", async () => {
  if (!haveSystem("peer dns", ["dig"])) return;
  await using t = await startTestServer();
  const { api, dns, iface } = await setup(t);
  const rec = await dns.post(`/zones/${Z}/records`, {
    domain: `carol.${Z}`,
    type: "A",
    value: "192.0.2.7",
  });
  assertEquals(rec.status, 201, JSON.stringify(rec.body));
  const serialOf = async () => (await dns.get(`/zones/${Z}`)).body as { serial: number };
  const serial = (await serialOf()).serial;

  const refused = await api.post(`/interfaces/${iface}/peers`, { name: "carol" });
  assertEquals(refused.status, 409, JSON.stringify(refused.body));
  const err = await assertRejects(
    () => t.services.tunnels.peers.create(iface, { name: "carol" }, "test"),
    ConflictError,
  ) as ConflictError;
  assertEquals([err.field, err.code], ["name", "dns_name_taken"]);
  assertEquals((await api.get(`/peers?interface_id=${iface}`)).body.peers, []);

  const id = await addPeer(api, iface, { name: "dave", address: "10.77.0.30" });
  const rename = await api.put(`/peers/${id}`, { name: "carol" });
  assertEquals(rename.status, 409, JSON.stringify(rename.body));
  assertEquals((await api.get(`/peers/${id}`)).body.name, "dave", "the rename rolled back");
  assertEquals(await a(t, `dave.${Z}`), [`dave.${Z}. IN A 10.77.0.30`]);
  assertEquals(await a(t, `carol.${Z}`), [`carol.${Z}. IN A 192.0.2.7`]);
  assert((await serialOf()).serial > serial, "dave's record bumped the serial");

  // Turning publishing off removes only the published record.
  const off = await api.put(`/interfaces/${iface}`, { dns_zone: null });
  assertEquals(off.status, 200, JSON.stringify(off.body));
  assertEquals(off.body.dns_zone, null);
  assertEquals(await a(t, `dave.${Z}`), []);
  assertEquals(await a(t, `carol.${Z}`), [`carol.${Z}. IN A 192.0.2.7`]);

  const missing = await api.put(`/interfaces/${iface}`, { dns_zone: "absent.test" });
  assertEquals(missing.status, 404, JSON.stringify(missing.body));
  const bad = await assertRejects(
    () => t.services.tunnels.interfaces.update(iface, { dns_zone: "absent.test" }, "test"),
    NotFoundError,
  ) as NotFoundError;
  assertEquals([bad.field, bad.code], ["dns_zone", "zone_not_found"]);
});

Deno.test("deleting an interface withdraws its peers' names", async () => {
  if (!haveSystem("peer dns", ["dig"])) return;
  await using t = await startTestServer();
  const { api, iface } = await setup(t);
  await addPeer(api, iface, { name: "erin", address: "10.77.0.40" });
  assertEquals(await a(t, `erin.${Z}`), [`erin.${Z}. IN A 10.77.0.40`]);
  assertEquals((await api.del(`/interfaces/${iface}`)).status, 200);
  assertEquals(await a(t, `erin.${Z}`), []);
});
