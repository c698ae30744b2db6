/**
 * The tunnel history repository (lib/tunnel/history/history_repo.ts,
 * pg_history_repo.ts) behaves the same on both engines: changes stored with
 * their states before and after (or null) and read back whole, listed newest
 * first per object with paging, the next newer change of an object, trimmed
 * to the newest, and rolled back with their transaction. The tunnel services
 * keep one change per write and revert one on either engine, with the same
 * snapshots.
 */
import { assertEquals, assertRejects } from "../assert.ts";
import {
  type NewTunnelChange,
  SqliteTunnelHistoryRepo,
  type TunnelHistoryRepo,
} from "../../lib/tunnel/history/history_repo.ts";
import { PgTunnelHistoryRepo } from "../../lib/tunnel/history/pg_history_repo.ts";
import { type Engine, repoContract } from "./engines.ts";
import { tunnelsOn } from "./tunnel_engine.ts";

const P = "11111111-1111-4111-8111-111111111111";

const repoOf = (e: Engine): TunnelHistoryRepo =>
  e.pick<TunnelHistoryRepo>({
    sqlite: (db) => new SqliteTunnelHistoryRepo(db),
    postgres: (db) => new PgTunnelHistoryRepo(db),
  });

const change = (n: number, over: Partial<NewTunnelChange> = {}): NewTunnelChange => ({
  kind: "peer",
  objectId: P,
  actor: `user${n}`,
  summary: `Change number ${n}`,
  before: n === 1 ? null : { name: `p${n - 1}`, keepalive: null, has_private_key: true },
  after: { name: `p${n}`, keepalive: n, has_private_key: true },
  reverts: null,
  createdAt: 1_700_000_000_000 + n,
  ...over,
});

repoContract("TunnelHistoryRepo", {
  "a change is read back whole, a deletion's after is null; ids grow": async (e) => {
    const repo = repoOf(e);
    const a = await repo.add(change(1));
    const b = await repo.add(change(2, { after: null, reverts: a }));
    assertEquals(b > a, true);
    assertEquals(await repo.get("peer", P, a), { id: a, ...change(1) });
    assertEquals(await repo.get("peer", P, b), {
      id: b,
      ...change(2, { after: null, reverts: a }),
    });
    assertEquals(await repo.get("peer", P, b + 1), undefined);
    assertEquals(await repo.get("route", P, a), undefined);
    assertEquals(await repo.get("peer", "other", a), undefined);
  },

  "listed newest first per object and kind, paged by before; newer() is the next one": async (
    e,
  ) => {
    const repo = repoOf(e);
    const ids = [];
    for (let n = 1; n <= 4; n++) ids.push(await repo.add(change(n)));
    const other = await repo.add(change(9, { kind: "firewall_rule" }));
    const list = await repo.list("peer", P, 3);
    assertEquals(list.map((c) => c.id), [ids[3], ids[2], ids[1]]);
    assertEquals((await repo.list("peer", P, 3, ids[1])).map((c) => c.id), [ids[0]]);
    assertEquals((await repo.list("firewall_rule", P, 10)).map((c) => c.id), [other]);
    assertEquals((await repo.newer("peer", P, ids[1]))?.id, ids[2]);
    assertEquals(await repo.newer("peer", P, ids[3]), undefined);
  },

  "deleted() lists the objects whose newest change deleted them, newest first": async (e) => {
    const repo = repoOf(e);
    const a = await repo.add(change(1, { objectId: "a", after: null }));
    await repo.add(change(1, { objectId: "b", after: null }));
    // b came back (a revert of its deletion): no longer deleted.
    await repo.add(change(2, { objectId: "b" }));
    const c = await repo.add(change(1, { objectId: "c", after: null }));
    await repo.add(change(1, { objectId: "d" }));
    await repo.add(change(1, { kind: "route", objectId: "e", after: null }));
    assertEquals((await repo.deleted("peer", 10)).map((x) => x.id), [c, a]);
    assertEquals((await repo.deleted("peer", 1)).map((x) => x.id), [c]);
  },

  "trim keeps the newest of the object and leaves other objects alone": async (e) => {
    const repo = repoOf(e);
    const ids = [];
    for (let n = 1; n <= 5; n++) ids.push(await repo.add(change(n)));
    const other = await repo.add(change(1, { objectId: "other" }));
    await repo.trim("peer", P, 2);
    assertEquals((await repo.list("peer", P, 50)).map((c) => c.id), [ids[4], ids[3]]);
    assertEquals((await repo.list("peer", "other", 50)).map((c) => c.id), [other]);
  },

  "a change rolls back with its transaction": async (e) => {
    const repo = repoOf(e);
    await assertRejects(() =>
      e.transactor.tx(async () => {
        await repo.add(change(1));
        throw new Error("boom");
      })
    );
    assertEquals(await repo.list("peer", P, 50), []);
  },

  "the services keep a change per write and revert a peer edit and a rule deletion": async (e) => {
    const t = tunnelsOn(e);
    const iface = await t.interfaces.create({ name: "wg1", address_v4: "10.8.0.1/24" }, "a");
    const p = await t.peers.create(iface.id, { name: "a", keepalive: 25 }, "a");
    await t.peers.update(p.id, { name: "b", keepalive: null }, "b");
    const [edit, created] = (await t.history.list("peer", p.id)).changes;
    assertEquals(created.after?.name, "a");
    assertEquals([edit.before?.keepalive, edit.after?.keepalive], [25, null]);
    await t.history.revert("peer", p.id, edit.id, "c");
    const back = await t.peers.view(p.id);
    assertEquals([back.name, back.keepalive], ["a", 25]);
    const r = await t.firewall.create(
      { name: "ssh", protocol: "tcp", port: 22, action: "accept" },
      "a",
    );
    await t.firewall.delete(r.id, "a");
    const [deletion] = (await t.history.list("firewall_rule", r.id)).changes;
    await t.history.revert("firewall_rule", r.id, deletion.id, "c");
    assertEquals((await t.firewall.get(r.id)).position, r.position);
  },
});
