/**
 * The reconcile page in headless Chromium against real WireGuard
 * (wireguard-go in a namespace the test makes): a peer removed on the host
 * with `wg set <if> peer <key> remove` is listed as missing on the host under
 * its interface; Apply, confirmed, puts it back, and the page then says In
 * sync and the host has the peer again.
 */
import { assert, assertEquals } from "../assert.ts";
import { browserTest, signIn, watchConsole } from "../helpers/browser.ts";
import { accessibilityProblems, screenshots } from "../helpers/dashboard.ts";
import { netns, randomSuffix } from "../helpers/netns.ts";
import { haveSystem } from "../helpers/system.ts";
import { ADMIN, startTestServer } from "../helpers/test_server.ts";

const NAME =
  "dashboard: a peer removed on the real host shows as missing on /reconcile; Apply, confirmed, brings it back and the page says In sync";
/** Bounds waits against a hang only: a busy machine stretches how long each takes. */
const HANG_MS = 20_000;

browserTest(NAME, async (browser) => {
  if (!haveSystem(NAME, ["ip", "wg", "wireguard-go"], { root: true })) return;
  await using ns = await netns();
  await using t = await startTestServer({
    env: {
      PALISADE_HOST_DRIVER: "linux",
      PALISADE_HOST_NETNS: ns.name,
      // No periodic pass: the drift stays until the page applies it.
      PALISADE_HOST_POLL_MS: "3600000",
    },
  });
  const { tunnels } = t.services;
  const ifName = `rc${randomSuffix(6)}`;
  const iface = await tunnels.interfaces.create({ name: ifName, address_v4: "10.96.0.1/24" }, "t");
  const [laptop] = await tunnels.peers.createMany(
    iface.id,
    [{ name: "laptop" }, { name: "phone" }],
    "t",
  );
  /** Public keys of the peers `wg show <if> peers` lists in the namespace. */
  const hostPeers = async () =>
    (await ns.exec("wg", ["show", ifName, "peers"])).stdout.trim().split("\n");
  assert((await hostPeers()).includes(laptop.public_key));

  // Behind Palisade's back, as an administrator on the host would.
  await ns.exec("wg", ["set", ifName, "peer", laptop.public_key, "remove"]);
  assertEquals((await hostPeers()).includes(laptop.public_key), false);

  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.setDefaultTimeout(HANG_MS);
  const errors = watchConsole(page);
  try {
    await signIn(page, t.admin, ADMIN.username, ADMIN.password);
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Reconcile" })
      .click();
    await page.waitForURL(/\/reconcile$/);

    const section = page.getByRole("region", { name: `Interface ${ifName}` });
    const rows = section.locator("tbody tr");
    assertEquals(await rows.count(), 1, "exactly one difference");
    const cells = (await rows.first().innerText()).split("\t").map((c) => c.trim());
    assertEquals(cells[0], "+ Missing on the host");
    assertEquals(cells[1].split("\n").map((s) => s.trim()), ["Peer laptop", laptop.public_key]);
    assertEquals(cells.slice(2), ["present", "absent", "add the peer"]);
    assert(!(await page.getByText("In sync").isVisible()));
    assertEquals(await accessibilityProblems(page), []);
    await screenshots(page, "reconcile");
    // At phone width nothing but the table scrolls sideways.
    await page.setViewportSize({ width: 390, height: 800 });
    assert(
      await page.evaluate(() =>
        document.documentElement.scrollWidth <= document.documentElement.clientWidth
      ),
      "the page scrolls sideways at 390 px",
    );
    await page.setViewportSize({ width: 1280, height: 800 });

    await page.getByRole("link", { name: "Apply…" }).click();
    await page.waitForURL(/\/reconcile\/apply$/);
    assertEquals(
      await page.getByRole("listitem").filter({ hasText: "add the peer" }).innerText(),
      `${ifName}: add the peer (peer laptop)`,
    );
    await page.getByRole("button", { name: "Apply to the host" }).click();
    await page.waitForURL(/\/reconcile\?done=applied$/);
    await page.getByRole("status").filter({ hasText: "Reconcile applied and verified" }).waitFor();
    await page.getByText("In sync", { exact: true }).waitFor();
    assertEquals(await page.locator("tr[data-kind]").count(), 0, "the plan is empty");
    assertEquals(await page.getByRole("link", { name: "Apply…" }).count(), 0);

    assert((await hostPeers()).includes(laptop.public_key), "the host has the peer again");
    assertEquals((await tunnels.reconciler.plan()).items, []);
    assertEquals(errors, []);
  } finally {
    await page.close();
  }
});
