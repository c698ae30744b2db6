/**
 * The network repository (lib/tunnel/networks/network_repo.ts,
 * pg_network_repo.ts) behaves the same on SQLite and PostgreSQL: CRUD, the
 * listing with interface names and peer counts by name, an interface's
 * network freed when the interface goes, the unique name as the same
 * ConflictError through the service, and rollback.
 */
import { assert, assertEquals, assertRejects } from "../assert.ts";
import type { NetworkRow } from "../../lib/tunnel/networks/network_repo.ts";
import { interfaceRow, peerRow } from "../../lib/tunnel/repo_fixtures_test.ts";
import { isUnique } from "../../lib/tunnel/unique.ts";
import { repoContract } from "./engines.ts";
import { conflictOf, plain, reposOf, tunnelsOn } from "./tunnel_engine.ts";

const network = (id: string, name: string, cidr: string, interfaceId: string | null = null) =>
  ({
    id,
    name,
    cidr,
    interface_id: interfaceId,
    origin: interfaceId ? "interface" : "api",
    created_at: 1000,
    updated_at: 1000,
  }) satisfies NetworkRow;

repoContract("NetworkRepo", {
  "insert, list with interface and peer count, move, attach, free, delete": async (e) => {
    const { interfaceRepo, peerRepo, networkRepo: repo } = reposOf(e);
    await interfaceRepo.insert(interfaceRow({ id: "w1" }));
    await interfaceRepo.insert(
      interfaceRow({ id: "w2", name: "wg2", address_v4: "10.21.0.1/24", listen_port: 51821 }),
    );
    await peerRepo.insert(peerRow("w1", { id: "p1" }));
    const own = network("n1", "wg1", "10.8.0.0/24", "w1");
    await repo.insert(own);
    await repo.insert(network("n2", "Pool", "10.30.0.0/16"));
    await repo.insert(network("n3", "lab", "10.20.0.0/24"));
    assertEquals(plain(await repo.get("n1")), own);
    assertEquals(plain(await repo.byInterface("w1")), own);
    assertEquals((await repo.all()).length, 3);
    assertEquals(
      plain(await repo.listed()).map((n) => [n.name, n.interface_name, n.peer_count]),
      [["Pool", null, 0], ["lab", null, 0], ["wg1", "wg1", 1]],
    );
    assertEquals(plain(await repo.getListed("n1")), {
      ...own,
      interface_name: "wg1",
      peer_count: 1,
    });
    await repo.setCidr("n3", "10.21.0.0/24", 2000);
    await repo.setInterface("n3", "w2", 2500);
    assertEquals(plain(await repo.get("n3")), {
      ...network("n3", "lab", "10.21.0.0/24"),
      interface_id: "w2",
      updated_at: 2500,
    });
    await repo.setInterface("n3", null, 3000);
    await interfaceRepo.delete("w1");
    assertEquals((await repo.get("n1"))!.interface_id, null);
    await repo.delete("n2");
    assertEquals((await repo.listed()).map((n) => n.name), ["lab", "wg1"]);
  },

  "a taken name is the same ConflictError; a raw duplicate block is a unique violation": async (
    e,
  ) => {
    const t = tunnelsOn(e);
    await t.networks.create({ name: "lab", cidr: "10.20.0.0/24" }, "a");
    assertEquals(
      await conflictOf(() => t.networks.create({ name: "lab", cidr: "10.21.0.0/24" }, "a")),
      ["name", "duplicate_name"],
    );
    const { networkRepo } = reposOf(e);
    const err = await assertRejects(() =>
      networkRepo.insert(network("x", "other", "10.20.0.0/24"))
    );
    assert(isUnique(err), String(err));
    assertEquals((await networkRepo.all()).length, 1);
  },

  "an insert inside a transaction that throws leaves nothing": async (e) => {
    const { networkRepo: repo } = reposOf(e);
    await assertRejects(() =>
      e.transactor.tx(async () => {
        await repo.insert(network("gone", "lab", "10.20.0.0/24"));
        throw new Error("undo");
      })
    );
    assertEquals(await repo.all(), []);
  },
});
