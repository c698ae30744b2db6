/**
 * The default interface on a real host: a first start with the linux driver
 * in a namespace leaves a WireGuard device wg0 with 10.8.0.1/24 listening on
 * 51820, read back with `ip` and `wg` (not the driver).
 */
import { assertEquals } from "../assert.ts";
import { netns } from "../helpers/netns.ts";
import { haveSystem } from "../helpers/system.ts";
import { startTestServer } from "../helpers/test_server.ts";

Deno.test("first start on a host creates the wg0 device with 10.8.0.1/24 and port 51820", async () => {
  if (!haveSystem("default interface on a host", ["ip", "wg", "wireguard-go"], { root: true })) {
    return;
  }
  await using ns = await netns();
  await using _t = await startTestServer({
    env: {
      PALISADE_HOST_DRIVER: "linux",
      PALISADE_HOST_NETNS: ns.name,
      PALISADE_HOST_POLL_MS: "3600000",
      PALISADE_DEFAULT_INTERFACE: "true",
    },
  });
  const addr = JSON.parse((await ns.exec("ip", ["-j", "-4", "addr", "show", "dev", "wg0"])).stdout);
  assertEquals(
    addr[0].addr_info.map((a: { local: string; prefixlen: number }) => `${a.local}/${a.prefixlen}`),
    ["10.8.0.1/24"],
  );
  assertEquals((await ns.exec("wg", ["show", "wg0", "listen-port"])).stdout.trim(), "51820");
});
