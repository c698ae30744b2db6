/**
 * The route repository (lib/tunnel/routes/route_repo.ts, pg_route_repo.ts)
 * behaves the same on SQLite and PostgreSQL: CRUD with the interface's name
 * and state, the unique (destination, metric) as the same ConflictError
 * through the service, also when two creates of one route run at once, and
 * rollback.
 */
import { assert, assertEquals, assertRejects } from "../assert.ts";
import { ConflictError } from "../../lib/errors.ts";
import type { RouteRow } from "../../lib/tunnel/routes/route_repo.ts";
import { interfaceRow } from "../../lib/tunnel/repo_fixtures_test.ts";
import { isUnique } from "../../lib/tunnel/unique.ts";
import { repoContract } from "./engines.ts";
import { conflictOf, plain, reposOf, tunnelsOn } from "./tunnel_engine.ts";

const route = (id: string, destination: string, metric = 0): RouteRow => ({
  id,
  destination,
  gateway: "10.8.0.2",
  metric,
  interface_id: "w1",
  created_at: 1000,
});

repoContract("RouteRepo", {
  "insert, read with the interface, find by destination and metric, delete": async (e) => {
    const { interfaceRepo, routeRepo: repo } = reposOf(e);
    await interfaceRepo.insert(interfaceRow({ id: "w1" }));
    await repo.insert(route("r2", "10.60.0.0/24", 4294967295));
    await repo.insert(route("r1", "10.50.0.0/16"));
    assertEquals(plain(await repo.get("r1")), {
      ...route("r1", "10.50.0.0/16"),
      interface_name: "wg1",
      interface_enabled: 1,
    });
    assertEquals(
      plain(await repo.findByDestination("10.60.0.0/24", 4294967295)),
      route("r2", "10.60.0.0/24", 4294967295),
    );
    assertEquals(await repo.findByDestination("10.60.0.0/24", 1), undefined);
    assertEquals(plain(await repo.ofInterface("w1")).map((r) => r.id), ["r1", "r2"]);
    await interfaceRepo.setEnabled("w1", false, 2000);
    assertEquals((await repo.all()).map((r) => r.interface_enabled), [0, 0]);
    await repo.delete("r1");
    assertEquals([await repo.get("r1"), (await repo.all()).length], [undefined, 1]);
  },

  "a destination and metric already routed is the same ConflictError, also for two at once": async (
    e,
  ) => {
    const t = tunnelsOn(e);
    await t.interfaces.create({ name: "wg1", address_v4: "10.8.0.1/24" }, "a");
    const create = () =>
      t.routes.create({ destination: "10.50.0.0/16", gateway: "10.8.0.2", metric: 5 }, "a");
    const both = await Promise.allSettled([create(), create()]);
    assertEquals(both.map((r) => r.status).sort(), ["fulfilled", "rejected"]);
    const refused = both.find((r) => r.status === "rejected") as PromiseRejectedResult;
    assert(refused.reason instanceof ConflictError, String(refused.reason));
    assertEquals([refused.reason.field, refused.reason.code], ["destination", "duplicate_route"]);
    assertEquals(await conflictOf(create), ["destination", "duplicate_route"]);
    const { routeRepo } = reposOf(e);
    const [stored] = await routeRepo.all();
    const err = await assertRejects(() =>
      routeRepo.insert({ ...route("x", "10.50.0.0/16", 5), interface_id: stored.interface_id })
    );
    assert(isUnique(err), String(err));
    assertEquals((await routeRepo.all()).length, 1);
  },

  "an insert inside a transaction that throws leaves nothing": async (e) => {
    const { interfaceRepo, routeRepo: repo } = reposOf(e);
    await interfaceRepo.insert(interfaceRow({ id: "w1" }));
    await assertRejects(() =>
      e.transactor.tx(async () => {
        await repo.insert(route("gone", "10.50.0.0/16"));
        throw new Error("undo");
      })
    );
    assertEquals(await repo.all(), []);
  },
});
