import { assert, assertEquals, assertRejects } from "../../../tests/assert.ts";
import { rawDelete, rawRow } from "../../../tests/helpers/raw_sql.ts";
import { tunnelHarness } from "../../../tests/helpers/tunnels.ts";
import { ConflictError, DomainError, NotFoundError, ValidationError } from "../../errors.ts";

async function fieldOf(
  fn: () => Promise<unknown>,
  cls: typeof DomainError,
): Promise<[string?, string?]> {
  const err = await assertRejects(fn, cls) as DomainError;
  return [err.field, err.code];
}

Deno.test("NetworkService refusals carry the field they are about and, for conflicts, a code", async () => {
  await using h = await tunnelHarness();
  const n = h.tunnels.networks;
  await n.create({ name: "pool", cidr: "10.20.0.0/16" }, "a");
  const iface = await h.tunnels.interfaces.create({ name: "wg1", address_v4: "10.8.0.1/24" }, "a");
  assertEquals(
    await fieldOf(() => n.create({ name: "a b", cidr: "10.30.0.0/16" }, "a"), ValidationError),
    [
      "name",
      undefined,
    ],
  );
  assertEquals(
    await fieldOf(() => n.create({ name: "x", cidr: "10.30.0.1/16" }, "a"), ValidationError),
    [
      "cidr",
      undefined,
    ],
  );
  assertEquals(
    await fieldOf(() => n.create({ name: "pool", cidr: "10.30.0.0/16" }, "a"), ConflictError),
    [
      "name",
      "duplicate_name",
    ],
  );
  assertEquals(
    await fieldOf(() => n.create({ name: "x", cidr: "10.8.0.0/16" }, "a"), ConflictError),
    [
      "cidr",
      "overlapping_network",
    ],
  );
  const own = (await n.list()).find((x) => x.interface_id === iface.id)!;
  assertEquals(await fieldOf(() => n.delete(own.id, "a"), ConflictError), [
    "interface_id",
    "network_in_use",
  ]);
  assertEquals(await fieldOf(() => n.available(own.id, { limit: 0 }), ValidationError), [
    "limit",
    undefined,
  ]);
  assertEquals(await fieldOf(() => n.available(own.id, { after: "10.9.0.1" }), ValidationError), [
    "after",
    undefined,
  ]);
  await assertRejects(() => n.get("nope"), NotFoundError);
  const err = await h.tunnels.interfaces.create({ name: "wg2", address_v4: "10.20.1.1/24" }, "a")
    .then(() => null, (e) => e);
  assert(err instanceof ConflictError);
  assertEquals([err.field, err.code], ["address_v4", "overlapping_network"]);
});

Deno.test("start() gives interfaces stored without a network theirs, once", async () => {
  await using h = await tunnelHarness();
  const a = await h.tunnels.interfaces.create({ name: "wg1", address_v4: "10.8.0.1/24" }, "a");
  const b = await h.tunnels.interfaces.create({ name: "wg2", address_v4: "10.9.0.1/24" }, "a");
  // As a store written before migration 7 holds them: interfaces, no networks.
  rawDelete(h.store, "networks");
  await h.tunnels.start();
  const made = (await h.tunnels.networks.list()).map((
    x,
  ) => [x.name, x.cidr, x.interface_id, x.origin]);
  assertEquals(made, [
    ["wg1", "10.8.0.0/24", a.id, "interface"],
    ["wg2", "10.9.0.0/24", b.id, "interface"],
  ]);
  const ids = (await h.tunnels.networks.list()).map((x) => x.id);
  const row = rawRow<{ actor: string; event_type: string }>(h.store, "audit", [
    "actor",
    "event_type",
  ], { resource_id: ids[0] });
  assertEquals([row?.actor, row?.event_type], ["system", "network.created"]);
  await h.tunnels.start();
  assertEquals((await h.tunnels.networks.list()).map((x) => x.id), ids);
  const created = h.events.filter((e) => e.type === "NetworkChanged").map((e) => e.payload);
  // Two at creation, two from the first start, none from the second.
  assertEquals(created.length, 4);
  assertEquals(created.slice(2), ids.map((id) => ({ id, action: "created" })));
});
