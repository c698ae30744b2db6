/**
 * Upstream import end to end on real WireGuard: a "provider" namespace runs
 * a WireGuard server set up by hand with `ip` and `wg` (wireguard-go), and a
 * Palisade server whose linux driver acts in its own namespace imports a
 * configuration whose [Peer] is that provider. Palisade must dial the
 * provider (Endpoint) with the imported private key: the test sees a
 * handshake and pings the provider's tunnel address through the imported
 * interface, and the reconcile plan finds no drift (the endpoint compares
 * equal to what the host reports).
 */
import { assert, assertEquals } from "../assert.ts";
import { apiClient } from "../helpers/api_client.ts";
import { netns, randomSuffix } from "../helpers/netns.ts";
import { haveSystem, run } from "../helpers/system.ts";
import { startTestServer } from "../helpers/test_server.ts";

const TOOLS = ["ip", "wg", "wireguard-go", "ping"];
const USERSPACE = { WG_I_PREFER_BUGGY_USERSPACE_TO_POLISHED_KMOD: "1" };

/** A key pair from `wg genkey` and `wg pubkey`: the test's keys come from WireGuard's own tools. */
async function wgKeys(): Promise<{ privateKey: string; publicKey: string }> {
  const privateKey = (await run("wg", ["genkey"])).stdout.trim();
  const publicKey = (await run("wg", ["pubkey"], { stdin: `${privateKey}\n` })).stdout.trim();
  return { privateKey, publicKey };
}

Deno.test("upstream import system: Palisade dials the imported provider, handshakes and pings through the upstream", async () => {
  if (!haveSystem("upstream import system", TOOLS, { root: true })) return;
  await using provider = await netns();
  await using palisade = await netns();
  const dir = await Deno.makeTempDir({ prefix: "palisade-up-" });
  try {
    // The underlay: a veth pair between the two namespaces.
    await run("ip", [
      ...["-n", provider.name, "link", "add", "vp0", "type", "veth"],
      ...["peer", "name", "vq0", "netns", palisade.name],
    ]);
    await provider.exec("ip", ["addr", "add", "192.168.79.1/24", "dev", "vp0"]);
    await provider.exec("ip", ["link", "set", "vp0", "up"]);
    await palisade.exec("ip", ["addr", "add", "192.168.79.2/24", "dev", "vq0"]);
    await palisade.exec("ip", ["link", "set", "vq0", "up"]);

    // The provider: a WireGuard server that knows only the subscriber's public key.
    const prov = await wgKeys();
    const sub = await wgKeys();
    const psk = (await run("wg", ["genpsk"])).stdout.trim();
    const provIf = `pv${randomSuffix(6)}`;
    await provider.exec("wireguard-go", [provIf], { env: USERSPACE });
    const keyFile = `${dir}/prov.key`, pskFile = `${dir}/psk`;
    await Deno.writeTextFile(keyFile, `${prov.privateKey}\n`, { mode: 0o600 });
    await Deno.writeTextFile(pskFile, `${psk}\n`, { mode: 0o600 });
    await provider.exec("wg", [
      ...["set", provIf, "private-key", keyFile, "listen-port", "51820"],
      ...["peer", sub.publicKey, "preshared-key", pskFile, "allowed-ips", "10.66.0.2/32"],
    ]);
    await provider.exec("ip", ["addr", "add", "10.66.0.1/24", "dev", provIf]);
    await provider.exec("ip", ["link", "set", provIf, "up"]);

    await using t = await startTestServer({
      env: { PALISADE_HOST_DRIVER: "linux", PALISADE_HOST_NETNS: palisade.name },
    });
    const api = apiClient(t.admin, { cookie: await t.login() });
    const name = `up${randomSuffix(6)}`;
    const config = [
      "[Interface]",
      `PrivateKey = ${sub.privateKey}`,
      "Address = 10.66.0.2/24, fd66::2/64",
      "DNS = 10.66.0.1",
      "PostUp = touch /tmp/palisade-upstream-must-not-run",
      "",
      "[Peer]",
      `PublicKey = ${prov.publicKey}`,
      `PresharedKey = ${psk}`,
      "Endpoint = 192.168.79.1:51820",
      "AllowedIPs = 10.66.0.0/24",
      "PersistentKeepalive = 5",
    ].join("\n");
    const res = await api.post("/interfaces/upstreams/import", { name, config });
    assertEquals(res.status, 201, JSON.stringify(res.body));
    assertEquals(res.body.interface.role, "upstream");
    assertEquals(res.body.interface.public_key, sub.publicKey);
    assertEquals(res.body.reconcile.verified, true, JSON.stringify(res.body.reconcile));

    // The device Palisade made: the imported key, a dynamic port, the provider dialled.
    const dump = (await palisade.exec("wg", ["show", name, "dump"])).stdout.trim().split("\n");
    const [, ownPublic, port] = dump[0].split("\t");
    assertEquals(ownPublic, sub.publicKey);
    assert(Number(port) > 0, `listen port ${port}`);
    const peer = dump[1].split("\t");
    assertEquals([peer[0], peer[2], peer[3], peer[7]], [
      prov.publicKey,
      "192.168.79.1:51820",
      "10.66.0.0/24",
      "5",
    ]);

    // Traffic through the upstream to the provider's tunnel address.
    await palisade.exec("ping", ["-c", "2", "-w", "10", "10.66.0.1"]);
    const provDump = (await provider.exec("wg", ["show", provIf, "latest-handshakes"])).stdout;
    assert(Number(provDump.trim().split("\t")[1]) > 0, `no handshake at the provider: ${provDump}`);

    // The hook was reported, never run; the host agrees with the store.
    assertEquals(
      await Deno.stat("/tmp/palisade-upstream-must-not-run").then(() => true, () => false),
      false,
    );
    const plan = await api.get("/reconcile/plan");
    assertEquals(plan.body.in_sync, true, JSON.stringify(plan.body));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
