/**
 * The interface repository (lib/tunnel/interface_repo.ts,
 * pg_interface_repo.ts) behaves the same on SQLite and PostgreSQL: CRUD with
 * peer counts, peers going with their interface, the unique rules (name,
 * block, listen port) as the same ConflictError through the service, the
 * listing's order by code point and its pages and cursors, and rollback.
 */
import { assert, assertEquals, assertRejects } from "../assert.ts";
import { paginateAsync } from "../../lib/paging.ts";
import type { CountedInterface } from "../../lib/tunnel/interface_repo.ts";
import { isUnique } from "../../lib/tunnel/unique.ts";
import { interfaceRow, peerRow } from "../../lib/tunnel/repo_fixtures_test.ts";
import { dnsReposOf, zoneRow } from "./dns_fixtures.ts";
import { repoContract } from "./engines.ts";
import { conflictOf, plain, reposOf, tunnelsOn } from "./tunnel_engine.ts";

repoContract("InterfaceRepo", {
  "insert, read, count peers, update, enable, delete with its peers": async (e) => {
    const { interfaceRepo: repo, peerRepo } = reposOf(e);
    const a = interfaceRow({ id: "i-a" });
    const b = interfaceRow({
      id: "i-b",
      name: "wg2",
      address_v4: "10.9.0.1/24",
      listen_port: null,
    });
    await repo.insert(b);
    await repo.insert(a);
    assertEquals(plain(await repo.get("i-a")), a);
    assertEquals(await repo.get("nope"), undefined);
    assertEquals((await repo.allByName()).map((r) => r.name), ["wg1", "wg2"]);
    assertEquals((await repo.all()).map((r) => r.id).sort(), ["i-a", "i-b"]);
    assertEquals(await repo.listenPorts(), [51820]);
    assertEquals(await repo.count(), 2);
    await peerRepo.insert(peerRow("i-a", { id: "p1" }));
    await peerRepo.insert(
      peerRow("i-a", { id: "p2", name: "b", address: "10.8.0.3", status: "disabled" }),
    );
    assertEquals(plain(await repo.getCounted("i-a")), { ...a, peer_count: 2 });
    assertEquals((await repo.listCounted()).map((r) => [r.name, r.peer_count]), [["wg1", 2], [
      "wg2",
      0,
    ]]);
    assertEquals(plain(await repo.counts()), { interfaces: 2, peers: 2, enabled_peers: 1 });
    assertEquals(
      plain(await repo.summaries()).sort((x, y) => x.id < y.id ? -1 : 1),
      [
        { id: "i-a", name: "wg1", address_v4: "10.8.0.1/24" },
        { id: "i-b", name: "wg2", address_v4: "10.9.0.1/24" },
      ],
    );

    await repo.update("i-a", {
      name: "wg5",
      address_v4: "10.8.0.1/16",
      listen_port: 51900,
      mtu: 1380,
    }, 2000);
    await repo.setEnabled("i-a", false, 3000);
    assertEquals(plain(await repo.get("i-a")), {
      ...a,
      name: "wg5",
      address_v4: "10.8.0.1/16",
      listen_port: 51900,
      mtu: 1380,
      enabled: 0,
      updated_at: 3000,
    });
    await repo.delete("i-a");
    assertEquals([await repo.get("i-a"), await peerRepo.get("p1")], [undefined, undefined]);
    assertEquals(plain(await repo.counts()), { interfaces: 1, peers: 0, enabled_peers: 0 });
  },

  "a taken name, block or port is the same ConflictError; a raw duplicate is a unique violation":
    async (e) => {
      const t = tunnelsOn(e);
      await t.interfaces.create(
        { name: "wg1", address_v4: "10.8.0.1/24", listen_port: 51820 },
        "a",
      );
      const create = (name: string, address_v4: string, listen_port?: number) => () =>
        t.interfaces.create({ name, address_v4, listen_port }, "a");
      assertEquals(await conflictOf(create("wg1", "10.9.0.1/24")), ["name", "duplicate_name"]);
      assertEquals(await conflictOf(create("wg2", "10.8.0.1/24")), [
        "address_v4",
        "duplicate_address",
      ]);
      assertEquals(await conflictOf(create("wg2", "10.8.0.9/16")), [
        "address_v4",
        "overlapping_address",
      ]);
      assertEquals(await conflictOf(create("wg2", "10.9.0.1/24", 51820)), [
        "listen_port",
        "duplicate_listen_port",
      ]);
      // Without a port, the lowest free one from 51820.
      assertEquals((await create("wg2", "10.9.0.1/24")()).listen_port, 51821);

      const { interfaceRepo } = reposOf(e);
      const taken = interfaceRow({ name: "wg1", address_v4: "10.70.0.1/24", listen_port: 52000 });
      const err = await assertRejects(() => interfaceRepo.insert(taken));
      assert(isUnique(err), String(err));
      assertEquals(await interfaceRepo.count(), 2);
    },

  "the published zone is set, cleared, and cleared when its zone is deleted": async (e) => {
    const { interfaceRepo: repo } = reposOf(e);
    const { zones } = dnsReposOf(e);
    await zones.insert(zoneRow("vpn.test"));
    await repo.insert(interfaceRow({ id: "i-a" }));
    await repo.setDnsZone("i-a", "vpn.test", 2000);
    assertEquals(
      [(await repo.get("i-a"))?.dns_zone, (await repo.get("i-a"))?.updated_at],
      ["vpn.test", 2000],
    );
    await repo.setDnsZone("i-a", null, 3000);
    assertEquals((await repo.get("i-a"))?.dns_zone, null);
    await repo.setDnsZone("i-a", "vpn.test", 4000);
    await zones.delete("vpn.test");
    assertEquals((await repo.getCounted("i-a"))?.dns_zone, null);
  },

  "listing by name in code point order, pages and cursors": async (e) => {
    const { interfaceRepo: repo } = reposOf(e);
    // Upper case and "_" sort before lower case by code point, whatever the locale.
    const names = ["wg_b", "Wg9", "wg1", "WG0", "wga", "wg10"];
    for (const [n, name] of names.entries()) {
      await repo.insert(interfaceRow({
        id: `i${n}`,
        name,
        address_v4: `10.${10 + n}.0.1/24`,
        listen_port: 51820 + n,
      }));
    }
    const sorted = ["WG0", "Wg9", "wg1", "wg10", "wg_b", "wga"];
    assertEquals((await repo.listCounted()).map((r) => r.name), sorted);
    assertEquals((await repo.allByName()).map((r) => r.name), sorted);
    const pager = {
      kind: "interfaces",
      shape: ["s", "s"] as const,
      keyOf: (r: CountedInterface) => [r.name, r.id],
      rows: (w: Parameters<typeof repo.listCounted>[0]) => repo.listCounted(w),
      count: () => repo.count(),
    };
    const seen: string[][] = [];
    const cursors: (string | null)[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 5; i++) {
      const page = await paginateAsync({ limit: 4, cursor }, pager);
      seen.push(page.items.map((r) => r.name));
      cursors.push(page.next_cursor);
      if (!page.next_cursor) break;
      cursor = page.next_cursor;
    }
    assertEquals(seen, [sorted.slice(0, 4), sorted.slice(4)]);
    assertEquals(cursors[1], null);
    const byOffset = await paginateAsync({ limit: 2, offset: 3 }, pager);
    assertEquals([byOffset.items.map((r) => r.name), byOffset.total], [["wg10", "wg_b"], 6]);
  },

  "an insert inside a transaction that throws leaves nothing": async (e) => {
    const { interfaceRepo: repo } = reposOf(e);
    await assertRejects(() =>
      e.transactor.tx(async () => {
        await repo.insert(interfaceRow({ id: "gone" }));
        assertEquals((await repo.get("gone"))?.name, "wg1");
        throw new Error("undo");
      })
    );
    assertEquals([await repo.get("gone"), await repo.count()], [undefined, 0]);
  },
});
