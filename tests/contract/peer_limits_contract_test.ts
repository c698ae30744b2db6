/**
 * The peer limits repository (lib/tunnel/lifecycle/limits_repo.ts,
 * pg_limits_repo.ts) behaves the same on SQLite and PostgreSQL: a row put
 * and read back with every field (byte counts beyond 32 bits), replaced,
 * listed with its peer by peer id, read for a listing's ids, removed, gone
 * with its peer, and rolled back with its transaction; the peer listing
 * over it carries the limits on both engines.
 */
import { assertEquals } from "../assert.ts";
import type { PeerLimits } from "../../lib/tunnel/lifecycle/limits_repo.ts";
import { interfaceRow, peerRow } from "../../lib/tunnel/repo_fixtures_test.ts";
import { type Engine, repoContract } from "./engines.ts";
import { reposOf, tunnelsOn } from "./tunnel_engine.ts";

async function setup(e: Engine) {
  const repos = reposOf(e);
  await repos.interfaceRepo.insert(interfaceRow({ id: "w1" }));
  await repos.peerRepo.insert(peerRow("w1", { id: "p1", name: "a", address: "10.8.0.2" }));
  await repos.peerRepo.insert(peerRow("w1", { id: "p2", name: "b", address: "10.8.0.3" }));
  return repos;
}

const row = (over: Partial<PeerLimits> = {}): PeerLimits => ({
  peerId: "p1",
  expiresAt: 1_780_000_000_000,
  quotaBytes: 5_000_000_000_000,
  periodDays: 30,
  periodAnchor: 1_770_000_000_000,
  periodStart: 1_772_592_000_000,
  usedBytes: 4_294_967_296,
  lastRx: 3_000_000_000,
  lastTx: 1_294_967_296,
  disabledReason: "quota_reached",
  disabledAt: 1_772_600_000_000,
  updatedAt: 1_772_600_000_001,
  ...over,
});

repoContract("LimitsRepo", {
  "put, get, replace, list with the peer, remove": async (e) => {
    const { limitsRepo, peerRepo } = await setup(e);
    assertEquals(await limitsRepo.get("p1"), undefined);
    await limitsRepo.put(row());
    assertEquals(await limitsRepo.get("p1"), row());
    const monthly = row({
      expiresAt: null,
      quotaBytes: null,
      periodDays: null,
      lastRx: null,
      lastTx: null,
      disabledReason: null,
      disabledAt: null,
    });
    await limitsRepo.put(monthly);
    assertEquals(await limitsRepo.get("p1"), monthly);
    await limitsRepo.put(row({ peerId: "p2", disabledReason: "expired" }));
    const p2 = (await peerRepo.get("p2"))!;
    const all = await limitsRepo.all();
    assertEquals(all.map((l) => l.peerId), ["p1", "p2"]);
    assertEquals(all[1], {
      ...row({ peerId: "p2", disabledReason: "expired" }),
      name: "b",
      publicKey: p2.public_key,
      status: p2.status,
      interfaceId: "w1",
      peerUpdatedAt: p2.updated_at,
    });
    await limitsRepo.remove("p1");
    assertEquals(await limitsRepo.get("p1"), undefined);
    assertEquals((await limitsRepo.all()).map((l) => l.peerId), ["p2"]);
  },
  "forPeers reads the rows of the listed peers in one call": async (e) => {
    const { limitsRepo, peerRepo } = await setup(e);
    await peerRepo.insert(peerRow("w1", { id: "p3", name: "c", address: "10.8.0.4" }));
    assertEquals(await limitsRepo.forPeers([]), []);
    await limitsRepo.put(row());
    await limitsRepo.put(row({ peerId: "p3", quotaBytes: null, usedBytes: 7 }));
    assertEquals(await limitsRepo.forPeers(["p2"]), [], "a peer without limits has no row");
    const got = await limitsRepo.forPeers(["p3", "p2", "p1", "nope"]);
    assertEquals(
      got.sort((a, b) => a.peerId.localeCompare(b.peerId)),
      [row(), row({ peerId: "p3", quotaBytes: null, usedBytes: 7 })],
    );
    assertEquals((await limitsRepo.forPeers(["p3"])).map((l) => l.usedBytes), [7]);
    // Many ids at once (a whole listing without a limit) are still one statement.
    const many = Array.from({ length: 5000 }, (_, i) => `x${i}`);
    assertEquals((await limitsRepo.forPeers([...many, "p1"])).map((l) => l.peerId), ["p1"]);
  },
  "the peer listing and the peer carry the limits, and setWithPeer writes no limit with a refused peer":
    async (e) => {
      const tunnels = tunnelsOn(e);
      const iface = await tunnels.interfaces.create(
        { name: "wg5", address_v4: "10.9.0.1/24" },
        "t",
      );
      const a = await tunnels.peers.create(iface.id, { name: "a" }, "t");
      await tunnels.peers.create(iface.id, { name: "b" }, "t");
      await tunnels.limits.set(a.id, { quota_bytes: 5_000_000_000_000 }, "t");
      const page = await tunnels.peers.page({ limit: 10 });
      const limits = page.peers.map((p) => [p.name, p.limits?.quota_bytes ?? null]);
      assertEquals(limits, [["a", 5_000_000_000_000], ["b", null]]);
      assertEquals((await tunnels.peers.get(a.id)).limits?.used_bytes, 0);
      // The name is taken: the peer's update is refused, and no limit is written with it.
      let refused = false;
      await tunnels.limits.setWithPeer(
        a.id,
        { quota_bytes: 7 },
        "t",
        (within) => tunnels.peers.update(a.id, { name: "b" }, "t", within),
      ).catch(() => (refused = true));
      assertEquals(refused, true);
      assertEquals((await tunnels.limits.get(a.id)).quota_bytes, 5_000_000_000_000);
      await tunnels.limits.setWithPeer(
        a.id,
        { quota_bytes: 7 },
        "t",
        (within) => tunnels.peers.update(a.id, { name: "c" }, "t", within),
      );
      assertEquals((await tunnels.peers.get(a.id)).limits?.quota_bytes, 7);
      assertEquals((await tunnels.peers.view(a.id)).name, "c");
    },
  "a row goes with its peer": async (e) => {
    const { limitsRepo, peerRepo } = await setup(e);
    await limitsRepo.put(row());
    await peerRepo.delete("p1");
    assertEquals(await limitsRepo.get("p1"), undefined);
  },
  "a write rolls back with its transaction": async (e) => {
    const { limitsRepo } = await setup(e);
    await limitsRepo.put(row({ usedBytes: 1 }));
    await e.transactor.tx(async () => {
      await limitsRepo.put(row({ usedBytes: 2 }));
      throw new Error("rollback");
    }).catch(() => {});
    assertEquals((await limitsRepo.get("p1"))?.usedBytes, 1);
  },
});
