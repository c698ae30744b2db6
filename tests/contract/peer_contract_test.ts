/**
 * The peer repository (lib/tunnel/peer_repo.ts, pg_peer_repo.ts) behaves
 * the same on SQLite and PostgreSQL: CRUD and the single-peer reads, the
 * listing's tuples (order by interface name, peer name, id; filters; the
 * name search folding ASCII case and taking `%` and `_` literally; keyset
 * and offset windows), the unique rules as the same ConflictError through
 * the service, and rollback.
 */
import { assert, assertEquals, assertRejects } from "../assert.ts";
import { isUnique } from "../../lib/tunnel/unique.ts";
import type { PeerRepo, PeerTuple } from "../../lib/tunnel/peer_repo.ts";
import { interfaceRow, peerRow } from "../../lib/tunnel/repo_fixtures_test.ts";
import { type Engine, repoContract } from "./engines.ts";
import { conflictOf, plain, reposOf, tunnelsOn } from "./tunnel_engine.ts";

/** wg1 (10.8.0.1/24) and wg0 (10.9.0.1/24), and the peer repository. */
async function setup(e: Engine): Promise<PeerRepo> {
  const { interfaceRepo, peerRepo } = reposOf(e);
  await interfaceRepo.insert(interfaceRow({ id: "w1" }));
  await interfaceRepo.insert(
    interfaceRow({ id: "w0", name: "wg0", address_v4: "10.9.0.1/24", listen_port: 51821 }),
  );
  return peerRepo;
}

const names = (ts: PeerTuple[]) => ts.map((t) => t[2]);

repoContract("PeerRepo", {
  "insert, the single-peer reads, update, revoke, delete": async (e) => {
    const repo = await setup(e);
    const p = peerRow("w1", { id: "p1", allowed_ips: "10.50.0.0/16", keepalive: 25 });
    await repo.insert(p);
    await repo.insert(
      peerRow("w1", { id: "p2", name: "b", address: "10.8.0.3", private_key: null }),
    );
    assertEquals(plain(await repo.get("p1")), p);
    assertEquals(await repo.get("nope"), undefined);
    assertEquals(plain(await repo.getWithInterfaceName("p1")), { ...p, interface_name: "wg1" });
    const { private_key: _k, preshared_key: _s, endpoint: _e, ...open } = p;
    const listed = {
      ...open,
      interface_name: "wg1",
      interface_address: "10.8.0.1/24",
      has_private_key: true,
      has_preshared_key: true,
    };
    assertEquals(plain(await repo.getListed("p1")), listed);
    assertEquals(
      plain(await repo.listedOf("w1")).map((r) => [r.name, r.has_private_key]),
      [["a", true], ["b", false]].sort(),
    );
    assertEquals(plain(await repo.summariesOf("w1")), [
      { id: "p1", name: "a", public_key: "pub-p1", status: "enabled" },
      { id: "p2", name: "b", public_key: "pub-p2", status: "enabled" },
    ]);
    assertEquals(await repo.countOf("w1"), 2);
    assertEquals(await repo.idByName("w1", "b"), "p2");
    assertEquals(await repo.idByName("w0", "b"), undefined);
    assertEquals(plain(await repo.byPublicKey("pub-p2")), { id: "p2", interface_id: "w1" });
    assertEquals(plain(await repo.namesAndAddresses("w1")).length, 2);
    assertEquals((await repo.identities()).length, 2);

    await repo.update("p1", { ...p, name: "c", mtu: 1380, dns: "1.1.1.1" }, 2000);
    await repo.setStatus("p2", "disabled", 2500);
    assertEquals(plain(await repo.enabledForHost()), [{
      interface_id: "w1",
      public_key: "pub-p1",
      preshared_key: "psk-p1",
      address: "10.8.0.2",
      allowed_ips: "10.50.0.0/16",
      keepalive: 25,
      endpoint: null,
    }]);
    await repo.setStatus("p1", "revoked", 3000);
    const revoked = (await repo.get("p1"))!;
    assertEquals(
      [revoked.name, revoked.mtu, revoked.status, revoked.private_key, revoked.preshared_key],
      ["c", 1380, "revoked", null, null],
    );
    assertEquals(revoked.updated_at, 3000);
    await repo.delete("p1");
    assertEquals([await repo.get("p1"), await repo.countOf("w1")], [undefined, 1]);
  },

  "listing tuples: order, filters, a literal search in any ASCII case, windows": async (e) => {
    const repo = await setup(e);
    const rows: [string, string, string, string][] = [
      ["w1", "q1", "b_1", "enabled"],
      ["w1", "q2", "B%2", "disabled"],
      ["w1", "q3", "a", "enabled"],
      ["w0", "q4", "zed", "enabled"],
      ["w1", "q5", "bx1", "revoked"],
    ];
    for (const [n, [iface, id, name, status]] of rows.entries()) {
      await repo.insert(peerRow(iface, {
        id,
        name,
        status: status as "enabled",
        address: `10.${iface === "w1" ? 8 : 9}.0.${n + 2}`,
        private_key: n % 2 ? null : `priv-${id}`,
      }));
    }
    const all = await repo.listTuples({});
    // Interface wg0 before wg1; upper case before lower case by code point.
    assertEquals(names(all), ["zed", "B%2", "a", "b_1", "bx1"]);
    assertEquals([...all[1]], [
      "q2",
      "w1",
      "B%2",
      "pub-q2",
      "10.8.0.3",
      null,
      "",
      null,
      null,
      "full-tunnel",
      "disabled",
      0,
      1,
      1000,
      1000,
    ]);
    assertEquals(names(await repo.listTuples({ interface_id: "w0" })), ["zed"]);
    assertEquals(names(await repo.listTuples({ status: "enabled" })), ["zed", "a", "b_1"]);
    assertEquals(names(await repo.listTuples({ search: "B" })), ["B%2", "b_1", "bx1"]);
    assertEquals(names(await repo.listTuples({ search: "_" })), ["b_1"]);
    assertEquals(names(await repo.listTuples({ search: "%" })), ["B%2"]);
    assertEquals(
      await Promise.all([
        repo.count({}),
        repo.count({ interface_id: "w1", status: "enabled" }),
        repo.count({ search: "b" }),
      ]),
      [5, 2, 3],
    );
    assertEquals(names(await repo.listTuples({ limit: 2, offset: 1 })), ["B%2", "a"]);
    assertEquals(names(await repo.listTuples({ after: ["wg1", "a", "q3"], limit: 2 })), [
      "b_1",
      "bx1",
    ]);
    assertEquals(
      names(await repo.listTuples({ after: ["wg0", "zed", "q4"], search: "b" })),
      ["B%2", "b_1", "bx1"],
    );
  },

  "a taken name or public key is the same ConflictError; a raw duplicate is a unique violation":
    async (e) => {
      const t = tunnelsOn(e);
      const iface = await t.interfaces.create({ name: "wg1", address_v4: "10.8.0.1/24" }, "a");
      const first = await t.peers.create(iface.id, { name: "laptop" }, "a");
      assertEquals(await conflictOf(() => t.peers.create(iface.id, { name: "laptop" }, "a")), [
        "name",
        "duplicate_name",
      ]);
      assertEquals(
        await conflictOf(() =>
          t.peers.create(iface.id, { name: "own", public_key: first.public_key }, "a")
        ),
        ["public_key", "duplicate_public_key"],
      );
      assertEquals(
        await conflictOf(() =>
          t.peers.create(iface.id, { name: "x", address: first.address }, "a")
        ),
        ["address", "duplicate_address"],
      );
      const { peerRepo } = reposOf(e);
      const err = await assertRejects(() =>
        peerRepo.insert(peerRow(iface.id, { name: "y", address: first.address }))
      );
      assert(isUnique(err), String(err));
      assertEquals(await peerRepo.countOf(iface.id), 1);
    },

  "writes inside a transaction that throws leave nothing": async (e) => {
    const repo = await setup(e);
    await repo.insert(peerRow("w1", { id: "kept" }));
    await assertRejects(() =>
      e.transactor.tx(async () => {
        await repo.insert(peerRow("w1", { id: "gone", name: "b", address: "10.8.0.3" }));
        await repo.setStatus("kept", "revoked", 2000);
        throw new Error("undo");
      })
    );
    assertEquals(await repo.get("gone"), undefined);
    assertEquals((await repo.get("kept"))!.status, "enabled");
  },
});
