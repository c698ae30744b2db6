/**
 * POST /interfaces/upstreams/preview and /import over HTTP with the host
 * layer off: what a provider's configuration becomes, secret redaction,
 * errors naming line and key, and that preview changes nothing. The keys are
 * fixed: the interface's public key was computed by `wg pubkey`, not by
 * the code under test. Real WireGuard: tests/tunnels/upstream_system_test.ts.
 */
import { assertEquals, assertMatch, assertStringIncludes } from "../assert.ts";
import { apiClient } from "../helpers/api_client.ts";
import { startTestServer } from "../helpers/test_server.ts";

const PRIVATE = "WN1+5HoC2cfNESfCaQQm/mcPtM8mgoC4dsuKYwj1LFw=";
/** `echo $PRIVATE | wg pubkey` */
const PUBLIC = "r785rmXSgO5w3rYJI37hsSyzFMZZre+4D+vIbHLyxw4=";
const PROVIDER = "966CSnF7MKaLAZAVDGHqn6qkk4IrDpOun/OI/+WCsEk=";
const PSK = "Ab5gHwpB0COsQj6kazEi1XssuFoxBmFlNJcpd8Hd0uw=";

/** As a provider writes it: v4 and v6 addresses, DNS, hooks, a host name endpoint. */
const CONFIG = `# Provider: example VPN, server nl-7
[Interface]
PrivateKey = ${PRIVATE}
Address = 10.64.12.7/32, fd00:64::c07/128
DNS = 10.64.0.1, 2001:db8::53
MTU = 1380
ListenPort = 51000
Table = off
PostUp = iptables -A OUTPUT -j DROP
PreDown = echo down
SaveConfig = false

[Peer]
PublicKey = ${PROVIDER}
PresharedKey = ${PSK}
Endpoint = nl-7.vpn.example.net:51820
AllowedIPs = 0.0.0.0/0, ::/0
PersistentKeepalive = 25
`;

Deno.test("POST /interfaces/upstreams/preview shows the interface and provider peer with every secret redacted, and changes nothing", async () => {
  await using t = await startTestServer();
  const api = apiClient(t.admin, { cookie: await t.login() });
  const res = await fetch(`${t.admin}/api/v1/interfaces/upstreams/preview`, {
    method: "POST",
    headers: { ...api.headers, "content-type": "application/json" },
    body: JSON.stringify({ config: CONFIG }),
  });
  const text = await res.text();
  assertEquals(res.status, 200, text);
  // No secret of the input appears anywhere in the answer, in any form.
  for (const secret of [PRIVATE, PSK]) {
    assertEquals(text.includes(secret), false, "a secret is in the response");
    assertEquals(text.includes(secret.slice(0, 20)), false, "part of a secret is in the response");
    assertEquals(text.includes(JSON.stringify(secret).slice(1, 21)), false);
  }
  const body = JSON.parse(text);
  assertEquals(body.interface, {
    name: "upstream",
    role: "upstream",
    address_v4: "10.64.12.7/32",
    addresses_v4: ["10.64.12.7/32"],
    addresses_v6: ["fd00:64::c07/128"],
    listen_port: null,
    mtu: 1380,
    dns: ["10.64.0.1", "2001:db8::53"],
    public_key: PUBLIC,
    private_key: "[redacted]",
  });
  assertEquals(body.peer, {
    name: "provider",
    public_key: PROVIDER,
    preshared_key: "[redacted]",
    endpoint: "nl-7.vpn.example.net:51820",
    allowed_ips: ["0.0.0.0/0", "::/0"],
    keepalive: 25,
  });
  assertEquals(
    body.ignored.map((i: { line: number; key: string }) => `${i.line} ${i.key}`),
    ["4 Address", "5 DNS", "7 ListenPort", "8 Table", "9 PostUp", "10 PreDown", "11 SaveConfig"],
  );
  assertEquals((await api.get("/interfaces")).body.interfaces, []);
  assertEquals((await api.get("/peers")).body.peers.length, 0);
});

Deno.test("POST /interfaces/upstreams/import creates the upstream interface and provider peer; GET /interfaces shows role upstream", async () => {
  await using t = await startTestServer();
  const api = apiClient(t.admin, { cookie: await t.login() });
  const res = await api.post("/interfaces/upstreams/import", { name: "vpn-nl", config: CONFIG });
  assertEquals(res.status, 201, JSON.stringify(res.body));
  assertEquals(JSON.stringify(res.body).includes(PRIVATE), false);
  assertEquals(JSON.stringify(res.body).includes(PSK), false);
  const iface = res.body.interface;
  assertEquals(
    [iface.name, iface.role, iface.address_v4, iface.listen_port, iface.mtu, iface.public_key],
    ["vpn-nl", "upstream", "10.64.12.7/32", null, 1380, PUBLIC],
  );
  assertEquals(iface.peer_count, 1);
  const peer = res.body.peer;
  assertEquals(
    [peer.name, peer.public_key, peer.interface_id, peer.has_preshared_key, peer.keepalive],
    ["provider", PROVIDER, iface.id, true, 25],
  );
  // The provider peer's creation is in its history, without its preshared key.
  const history = await api.get(`/peers/${peer.id}/history`);
  assertEquals(history.body.changes.map((c: { summary: string }) => c.summary), [
    "Created (upstream import)",
  ]);
  assertEquals(JSON.stringify(history.body).includes(PSK), false);
  const list = await api.get("/interfaces");
  assertEquals(
    list.body.interfaces.map((i: { name: string; role: string }) => [i.name, i.role]),
    [["vpn-nl", "upstream"]],
  );
  // An upstream is no address pool: no network was made for its /32.
  const nets = await api.get("/networks");
  assertEquals(nets.status, 200);
  assertEquals(nets.body.networks.length, 0);
  // The same configuration again: its address and keys are taken.
  const again = await api.post("/interfaces/upstreams/import", { name: "vpn-2", config: CONFIG });
  assertEquals(again.status, 409);
});

const bad = (from: string, to: string) => CONFIG.replace(from, to);

Deno.test("upstream preview and import answer 400 for syntax errors, naming the line and key", async () => {
  await using t = await startTestServer();
  const api = apiClient(t.admin, { cookie: await t.login() });
  const cases: [string, RegExp][] = [
    [bad("MTU = 1380", "MTU 1380"), /Line 6: expected "Key = value"/],
    [bad("Table = off", "Tabel = off"), /Line 8: unknown key "Tabel" in \[Interface\]/],
    [bad("[Peer]", "[Server]"), /Line 13: unknown section "\[Server\]"/],
    [bad("MTU = 1380", "PrivateKey = x"), /Line 6: PrivateKey is given twice/],
    [bad("MTU = 1380", "MTU = big"), /Line 6: MTU is not a whole number/],
    [bad("10.64.12.7/32", "10.64.12/32"), /Line 4: Address is not a list of IPv4 or IPv6/],
    [bad(":51820", ""), /Line 16: Endpoint is not host:port or \[IPv6\]:port/],
    [bad("0.0.0.0/0, ::/0", "0.0.0.0/0, nope"), /Line 17: AllowedIPs is not a list/],
    [`PrivateKey = ${PRIVATE}\n${CONFIG}`, /Line 1: key "PrivateKey" comes before any/],
  ];
  for (const path of ["preview", "import"]) {
    for (const [config, message] of cases) {
      const res = await api.post(`/interfaces/upstreams/${path}`, { config });
      assertEquals(res.status, 400, `${path} ${message}: ${JSON.stringify(res.body)}`);
      assertMatch(res.body.error, message);
      assertEquals(res.body.error.includes(PRIVATE), false);
    }
  }
  assertEquals((await api.get("/interfaces")).body.interfaces, []);
});

Deno.test("upstream preview and import answer 422 for unusable configurations, naming the line and key", async () => {
  await using t = await startTestServer();
  const api = apiClient(t.admin, { cookie: await t.login() });
  const secondPeer = `${CONFIG}\n[Peer]\nPublicKey = ${PUBLIC}\nAllowedIPs = 10.0.0.0/8\n`;
  const cases: [string, RegExp][] = [
    [CONFIG.slice(0, CONFIG.indexOf("[Peer]")), /has no \[Peer\] section/],
    [secondPeer, /Line 20: a second \[Peer\]/],
    [bad(PROVIDER, "c2hvcnQ="), /Line 14: PublicKey is not the base64 of 32 bytes/],
    [bad(PRIVATE, `${PRIVATE.slice(0, 42)}B=`), /Line 3: PrivateKey is not the base64 of 32/],
    [bad(":51820", ":70000"), /Line 16: Endpoint port 70000 is outside 1-65535/],
    [bad("ListenPort = 51000", "ListenPort = 0"), /Line 7: ListenPort 0 is outside 1-65535/],
    [bad("MTU = 1380", "MTU = 576"), /Line 6: MTU 576 is outside 1280-9000/],
    [bad("Address = 10.64.12.7/32, ", "Address = "), /has no IPv4 Address/],
    [bad("Endpoint = nl-7.vpn.example.net:51820\n", ""), /has no Endpoint/],
  ];
  for (const path of ["preview", "import"]) {
    for (const [config, message] of cases) {
      const res = await api.post(`/interfaces/upstreams/${path}`, { config });
      assertEquals(res.status, 422, `${path} ${message}: ${JSON.stringify(res.body)}`);
      assertMatch(res.body.error, message);
    }
  }
  assertEquals((await api.get("/interfaces")).body.interfaces, []);
});

Deno.test("upstream preview and import answer 409 for a name, address or block already in use", async () => {
  await using t = await startTestServer();
  const api = apiClient(t.admin, { cookie: await t.login() });
  assertEquals(
    (await api.post("/interfaces", { name: "wg1", address_v4: "10.64.0.1/16" })).status,
    201,
  );
  for (const path of ["preview", "import"]) {
    const dup = await api.post(`/interfaces/upstreams/${path}`, { name: "wg1", config: CONFIG });
    assertEquals(dup.status, 409);
    assertStringIncludes(dup.body.error, `name "wg1" is already used`);
    // 10.64.12.7/32 lies in wg1's block: routing to either would break.
    const overlap = await api.post(`/interfaces/upstreams/${path}`, { config: CONFIG });
    assertEquals(overlap.status, 409);
    assertStringIncludes(overlap.body.error, "overlaps 10.64.0.0/16");
  }
  assertEquals((await api.get("/interfaces")).body.interfaces.length, 1);
});
