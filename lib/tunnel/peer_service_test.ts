import { SqliteAsync } from "../store/sqlite_async.ts";
import {
  assert,
  assertEquals,
  assertMatch,
  assertRejects,
  assertStringIncludes,
} from "../../tests/assert.ts";
import { haveSystem, run } from "../../tests/helpers/system.ts";
import { tunnelHarness } from "../../tests/helpers/tunnels.ts";
import { ConflictError, NotFoundError, UnprocessableError, ValidationError } from "../errors.ts";
import { keys } from "./keys.ts";
import { SqlitePeerRepo } from "./peer_repo.ts";

async function setup() {
  const h = await tunnelHarness();
  const iface = await h.tunnels.interfaces.create(
    { name: "wg1", address_v4: "10.8.0.1/29" },
    "alice",
  );
  return { h, iface };
}

Deno.test("PeerService.create() allocates the lowest free address and reports a full subnet with 409", async () => {
  const { h, iface } = await setup();
  await using _ = h;
  const p = h.tunnels.peers;
  const a = await p.create(iface.id, { name: "a" }, "alice");
  const b = await p.create(iface.id, { name: "b", address: "10.8.0.5" }, "alice");
  const c = await p.create(iface.id, { name: "c" }, "alice");
  assertEquals([a.address, b.address, c.address], ["10.8.0.2", "10.8.0.5", "10.8.0.3"]);
  await assertRejects(
    () => p.create(iface.id, { name: "d", address: "10.8.0.5" }, "a"),
    ConflictError,
    "10.8.0.5",
  );
  await assertRejects(
    () => p.create(iface.id, { name: "d", address: "10.8.0.7" }, "a"),
    UnprocessableError,
  );
  await assertRejects(
    () => p.create(iface.id, { name: "d", address: "10.8.1.2" }, "a"),
    UnprocessableError,
  );
  await assertRejects(() => p.create(iface.id, { name: "a" }, "a"), ConflictError, 'name "a"');
  await p.create(iface.id, { name: "d" }, "a");
  await p.create(iface.id, { name: "e" }, "a");
  await assertRejects(
    () => p.create(iface.id, { name: "f" }, "a"),
    ConflictError,
    "no free address",
  );
  await assertRejects(() => p.create("nope", { name: "x" }, "a"), NotFoundError);
  await assertRejects(() => p.create(iface.id, { name: "bad\nname" }, "a"), ValidationError);
  await assertRejects(() => p.create(iface.id, { name: "x", mtu: 100 }, "a"), UnprocessableError);
  await assertRejects(
    () => p.create(iface.id, { name: "x", keepalive: -1 }, "a"),
    UnprocessableError,
  );
  await assertRejects(
    () => p.create(iface.id, { name: "x", allowed_ips: "10.0.0.0/8, foo" }, "a"),
    ValidationError,
  );
  await assertRejects(
    () => p.create(iface.id, { name: "x", dns: "1.1.1.1\nPostUp = rm -rf" }, "a"),
    ValidationError,
  );
});

Deno.test("PeerService listings and audit never carry private or preshared keys", async () => {
  const { h, iface } = await setup();
  await using _ = h;
  const peer = await h.tunnels.peers.create(
    iface.id,
    { name: "a", dns: "1.1.1.1, example.org" },
    "alice",
  );
  const row = (await new SqlitePeerRepo(SqliteAsync.of(h.store)).get(peer.id))!;
  assert(row.private_key && row.preshared_key);
  const listing = JSON.stringify(await h.tunnels.peers.list());
  const audit = JSON.stringify(await h.audit.list({ limit: 100, offset: 0 }));
  const events = JSON.stringify(h.events);
  for (const text of [listing, audit, events]) {
    assert(!text.includes(row.private_key) && !text.includes(row.preshared_key));
  }
  const [item] = await h.tunnels.peers.list();
  assertEquals([item.id, item.has_private_key, item.has_preshared_key, item.telemetry], [
    peer.id,
    true,
    true,
    null,
  ]);
  assertEquals(item.allowed_ips, "0.0.0.0/0, ::/0");
  assertEquals(item.dns, "1.1.1.1, example.org");
});

Deno.test("PeerService.revoke() is final: keys erased, enable and update refused, config refused", async () => {
  const { h, iface } = await setup();
  await using _ = h;
  const p = h.tunnels.peers;
  const peer = await p.create(iface.id, { name: "a" }, "alice");
  assertEquals((await p.disable(peer.id, "alice")).status, "disabled");
  assertEquals((await p.enable(peer.id, "alice")).status, "enabled");
  const revoked = await p.revoke(peer.id, "alice");
  assertEquals([revoked.status, revoked.has_private_key, revoked.has_preshared_key], [
    "revoked",
    false,
    false,
  ]);
  await assertRejects(() => p.enable(peer.id, "alice"), ConflictError, "revoked");
  await assertRejects(() => p.disable(peer.id, "alice"), ConflictError, "revoked");
  await assertRejects(() => p.update(peer.id, { name: "b" }, "alice"), ConflictError, "revoked");
  await assertRejects(
    () => p.config(peer.id, { endpoint: "vpn.example.net" }, "alice"),
    ConflictError,
  );
  assertEquals((await p.revoke(peer.id, "alice")).status, "revoked");
  assertEquals(
    h.events.filter((e) => e.type === "PeerChanged").map((e) => e.payload.action),
    ["created", "disabled", "enabled", "revoked"],
  );
  await p.delete(peer.id, "alice");
  assertEquals(await p.count(), 0);
});

Deno.test("PeerService.config() uses the query endpoint, else the settings, else 422", async () => {
  const { h, iface } = await setup();
  await using _ = h;
  const p = h.tunnels.peers;
  const peer = await p.create(iface.id, { name: "laptop", profile: "split-tunnel" }, "alice");
  await assertRejects(
    () => p.config(peer.id, {}, "alice"),
    UnprocessableError,
    "no server endpoint",
  );
  h.endpoint.host = "vpn.example.net";
  await assertRejects(
    () => p.config(peer.id, {}, "alice"),
    UnprocessableError,
    "no server endpoint",
  );
  h.endpoint.enabled = true;
  let cfg = await p.config(peer.id, {}, "alice");
  assertStringIncludes(cfg.content, `Endpoint = vpn.example.net:${iface.listen_port}`);
  h.endpoint.port = 443;
  cfg = await p.config(peer.id, {}, "alice");
  assertStringIncludes(cfg.content, "Endpoint = vpn.example.net:443");
  cfg = await p.config(peer.id, {
    endpoint: "[2001:db8::1]:5000",
    device: "mobile",
    connection: "cellular",
  }, "alice");
  assertStringIncludes(cfg.content, "Endpoint = [2001:db8::1]:5000");
  assertStringIncludes(cfg.content, "MTU = 1280");
  assertStringIncludes(cfg.content, "PersistentKeepalive = 25");
  assertStringIncludes(cfg.content, "AllowedIPs = 10.8.0.0/29");
  assertStringIncludes(cfg.content, "Address = 10.8.0.2/32");
  assertStringIncludes(cfg.content, `PublicKey = ${iface.public_key}`);
  assertMatch(cfg.content, /PrivateKey = [A-Za-z0-9+/]{43}=/);
  assertEquals(cfg.filename, "laptop.conf");
  await assertRejects(
    () => p.config(peer.id, { endpoint: "vpn.example.net:70000" }, "alice"),
    UnprocessableError,
  );
  await assertRejects(() => p.config(peer.id, { endpoint: "bad host" }, "alice"), ValidationError);
  await assertRejects(() => p.config(peer.id, { device: "toaster" }, "alice"), ValidationError);
  // An explicit peer MTU wins over the profile.
  await p.update(peer.id, { mtu: 1300 }, "alice");
  assertStringIncludes(
    (await p.config(peer.id, { endpoint: "h", device: "mobile", connection: "cellular" }, "a"))
      .content,
    "MTU = 1300",
  );
  const exported = await h.audit.list({ event_type: "peer.config_exported", limit: 10, offset: 0 });
  assert(exported.total >= 4);
  const own = await p.create(
    iface.id,
    { name: "byok", public_key: (await keys()).publicKey },
    "alice",
  );
  await assertRejects(
    () => p.config(own.id, { endpoint: "h" }, "alice"),
    UnprocessableError,
    "held by the client",
  );
});

Deno.test("PeerService.qr() returns svg and a PNG (data URL and base64) that decodes to the exact config", async () => {
  const { h, iface } = await setup();
  await using _ = h;
  const peer = await h.tunnels.peers.create(iface.id, { name: "phone" }, "alice");
  const q = await h.tunnels.peers.qr(peer.id, {
    endpoint: "vpn.example.net:51820",
    qr_format: "svg",
  }, "alice");
  assertEquals(q.format, "svg");
  assertStringIncludes(q.svg, "<svg");
  assertEquals(q.data_url, `data:image/png;base64,${q.png_base64}`);
  await assertRejects(
    () => h.tunnels.peers.qr(peer.id, { endpoint: "h", qr_format: "gif" }, "a"),
    ValidationError,
  );
  if (!haveSystem("PeerService.qr() zbarimg", ["zbarimg"])) return;
  const config =
    (await h.tunnels.peers.config(peer.id, { endpoint: "vpn.example.net:51820" }, "alice")).content;
  const file = `${h.dir}/qr.png`;
  await Deno.writeFile(file, Uint8Array.from(atob(q.png_base64), (c) => c.charCodeAt(0)));
  const decoded = await run("zbarimg", ["--raw", "-q", "--oneshot", file]);
  assertEquals(decoded.stdout, config, "the QR code decodes to the exact config text");
});

Deno.test("PeerService.update() changes parameters and keeps keys; createMany() allocates in one batch", async () => {
  const { h, iface } = await setup();
  await using _ = h;
  const p = h.tunnels.peers;
  const peer = await p.create(iface.id, { name: "a" }, "alice");
  const u = await p.update(peer.id, {
    address: "10.8.0.6",
    keepalive: 25,
    preshared_key: false,
    allowed_ips: "192.168.0.0/16",
  }, "bob");
  assertEquals([u.address, u.keepalive, u.has_preshared_key, u.allowed_ips, u.public_key], [
    "10.8.0.6",
    25,
    false,
    "192.168.0.0/16",
    peer.public_key,
  ]);
  const many = await p.createMany(
    iface.id,
    [{ name: "m1" }, { name: "m2" }, { name: "m3" }],
    "bob",
  );
  assertEquals(many.map((m) => m.address).sort(), ["10.8.0.2", "10.8.0.3", "10.8.0.4"]);
  await assertRejects(
    () => p.createMany(iface.id, [{ name: "m4" }, { name: "m5" }, { name: "m6" }], "bob"),
    ConflictError,
  );
  assertEquals(await p.count({ interface_id: iface.id }), 4);
});

Deno.test("PeerService.create() allocates from the interface's block as it is when the peer is stored", async () => {
  const { h, iface } = await setup();
  await using _ = h;
  // The create starts (and waits for its keys) before the block changes.
  const creating = h.tunnels.peers.create(iface.id, { name: "late" }, "alice");
  await h.tunnels.interfaces.update(iface.id, { name: "wg1", address_v4: "10.9.0.1/29" }, "alice");
  const peer = await creating;
  assertMatch(peer.address, /^10\.9\.0\./);
});
