/**
 * The firewall rule repository (lib/tunnel/firewall/firewall_repo.ts,
 * pg_firewall_repo.ts) behaves the same on SQLite and PostgreSQL: CRUD with
 * the interface's name, the order by position, the next position read and
 * then written by the service (two creates at once get two positions), the
 * unique name as the same ConflictError, and rollback.
 */
import { assert, assertEquals, assertRejects } from "../assert.ts";
import type { FirewallRuleRow } from "../../lib/tunnel/firewall/firewall_repo.ts";
import { interfaceRow } from "../../lib/tunnel/repo_fixtures_test.ts";
import { isUnique } from "../../lib/tunnel/unique.ts";
import { repoContract } from "./engines.ts";
import { conflictOf, plain, reposOf, tunnelsOn } from "./tunnel_engine.ts";

const rule = (id: string, name: string, position: number, interfaceId: string | null = null) =>
  ({
    id,
    name,
    protocol: "tcp",
    port: 443,
    action: "accept",
    direction: "input",
    interface_id: interfaceId,
    source: null,
    enabled: 1,
    position,
    created_at: 1000,
    updated_at: 1000,
  }) satisfies FirewallRuleRow;

repoContract("FirewallRepo", {
  "insert, list by position with the interface, find by name, disable, delete": async (e) => {
    const { interfaceRepo, firewallRepo: repo } = reposOf(e);
    await interfaceRepo.insert(interfaceRow({ id: "w1" }));
    assertEquals(await repo.maxPosition(), 0);
    await repo.insert(rule("f2", "b", 2, "w1"));
    await repo.insert(rule("f1", "a", 1));
    assertEquals(await repo.maxPosition(), 2);
    assertEquals(
      plain(await repo.list()).map((r) => [r.id, r.interface_name]),
      [["f1", null], ["f2", "wg1"]],
    );
    assertEquals(plain(await repo.get("f2")), {
      ...rule("f2", "b", 2, "w1"),
      interface_name: "wg1",
    });
    assertEquals(plain(await repo.byName("a")), rule("f1", "a", 1));
    assertEquals(plain(await repo.ofInterface("w1")).map((r) => r.id), ["f2"]);
    await repo.setEnabled("f1", false, 2000);
    assertEquals(
      [(await repo.get("f1"))!.enabled, (await repo.get("f1"))!.updated_at],
      [0, 2000],
    );
    await repo.delete("f1");
    assertEquals([await repo.get("f1"), await repo.byName("a")], [undefined, undefined]);
  },

  "two creates at once get the next two positions; a taken name is the same ConflictError": async (
    e,
  ) => {
    const t = tunnelsOn(e);
    const create = (name: string) =>
      t.firewall.create({ name, protocol: "tcp", port: 22, action: "accept" }, "a");
    await create("first");
    await Promise.all([create("ssh"), create("web")]);
    assertEquals(
      plain(await reposOf(e).firewallRepo.list()).map((r) => r.position),
      [1, 2, 3],
    );
    assertEquals(await conflictOf(() => create("ssh")), ["name", "duplicate_name"]);
    const err = await assertRejects(() => reposOf(e).firewallRepo.insert(rule("x", "other", 3)));
    assert(isUnique(err), String(err));
  },

  "an insert inside a transaction that throws leaves nothing": async (e) => {
    const { firewallRepo: repo } = reposOf(e);
    await assertRejects(() =>
      e.transactor.tx(async () => {
        await repo.insert(rule("gone", "a", 1));
        throw new Error("undo");
      })
    );
    assertEquals([await repo.list(), await repo.maxPosition()], [[], 0]);
  },
});
