/**
 * A route through a peer gives that peer the route's destination in its
 * server-side AllowedIPs (WireGuard sends a packet to the peer whose
 * AllowedIPs hold its destination); a block routed through two peers goes to
 * the route with the lowest metric, since AllowedIPs cannot hold it twice.
 */
import { assertEquals } from "../../tests/assert.ts";
import { tunnelHarness } from "../../tests/helpers/tunnels.ts";
import { desiredState } from "./desired_state.ts";
import { sqliteTunnelRepos } from "./tunnel_repos.ts";

Deno.test("a route's destination joins its gateway peer's AllowedIPs; one block goes to the lowest metric", async () => {
  await using h = await tunnelHarness();
  const t = h.tunnels;
  const wg = await t.interfaces.create({ name: "wg7", address_v4: "10.7.0.1/24" }, "a");
  const [a, b] = await t.peers.createMany(wg.id, [{ name: "a" }, { name: "b" }], "a");
  const allowed = async () =>
    Object.fromEntries(
      (await desiredState(sqliteTunnelRepos(h.store)))[0].desired.peers.map((p) => [
        p.publicKey === a.public_key ? "a" : "b",
        p.allowedIps,
      ]),
    );
  assertEquals(await allowed(), { a: [`${a.address}/32`], b: [`${b.address}/32`] });
  const site = await t.routes.create(
    { destination: "10.60.0.0/24", gateway: a.address, metric: 10 },
    "a",
  );
  await t.routes.create({ destination: "10.50.0.0/16", gateway: a.address, metric: 10 }, "a");
  await t.routes.create({ destination: "10.60.0.0/24", gateway: b.address, metric: 5 }, "a");
  assertEquals(await allowed(), {
    a: [`${a.address}/32`, "10.50.0.0/16"],
    b: [`${b.address}/32`, "10.60.0.0/24"],
  });
  await t.routes.delete(site.id, "a");
  assertEquals((await allowed()).b, [`${b.address}/32`, "10.60.0.0/24"]);
});
