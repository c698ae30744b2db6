/**
 * The consistency model on a real host failure: the change is saved, the
 * caller gets a HostError saying so, the drift is visible, and fixing the
 * cause converges without a manual reconcile.
 */
import { assertEquals, assertRejects, assertStringIncludes } from "../assert.ts";
import { netns, randomSuffix } from "../helpers/netns.ts";
import { haveSystem } from "../helpers/system.ts";
import { tunnelHarness } from "../helpers/tunnels.ts";
import { HostError } from "../../lib/errors.ts";
import { LinuxDriver } from "../../lib/host/linux_driver.ts";

Deno.test("InterfaceService.create() saves and reports HostError when the port is taken on the host", async () => {
  if (!haveSystem("host failure", ["ip", "wg", "wireguard-go"], { root: true })) return;
  await using ns = await netns();
  await using h = await tunnelHarness(new LinuxDriver({ netns: ns.name }), { pollMs: 3_600_000 });
  // Another WireGuard device, not managed by Palisade, holds UDP port 51990.
  const foreign = `pf${randomSuffix(6)}`;
  await ns.exec("wireguard-go", [foreign], {
    env: { WG_I_PREFER_BUGGY_USERSPACE_TO_POLISHED_KMOD: "1", LOG_LEVEL: "" },
  });
  await ns.exec("wg", ["set", foreign, "listen-port", "51990"]);

  const name = `pr${randomSuffix(6)}`;
  const err = await assertRejects(
    () =>
      h.tunnels.interfaces.create(
        { name, address_v4: "10.94.0.1/24", listen_port: 51990 },
        "alice",
      ),
    HostError,
  );
  assertStringIncludes(
    err.message,
    `Interface "${name}" was saved, but applying it to the host failed`,
  );
  const [saved] = await h.tunnels.interfaces.list();
  assertEquals([saved.name, saved.listen_port], [name, 51990]);
  const plan = await h.tunnels.reconciler.plan();
  assertEquals(plan.items.some((i) => i.kind === "listen_port" && i.interface === name), true);

  // A start with this drift does not throw: it reports, and diagnostics show it.
  const started = await h.tunnels.start();
  assertEquals(started.verified, false);
  assertStringIncludes(started.detail, "Reconcile could not apply every change");
  const diag = await h.tunnels.diagnostics();
  assertEquals([diag.status, diag.checks.find((c) => c.name === "startup_apply")?.status], [
    "fail",
    "fail",
  ]);
  await h.tunnels.stop();

  // Fixing the cause converges it.
  await h.tunnels.interfaces.update(saved.id, { listen_port: 51991 }, "alice");
  assertEquals((await h.tunnels.reconciler.plan()).in_sync, true);
});
