import { assert, assertEquals, assertMatch, assertRejects } from "../../tests/assert.ts";
import { tempStore } from "../../tests/helpers/temp_store.ts";
import { dnsTestService } from "../../tests/helpers/dns_service.ts";
import { BatchError, NotFoundError, ValidationError } from "../errors.ts";
import type { Store } from "../store/store.ts";

const setup = (store: Store) => dnsTestService(store);

const zone = { name: "Example.COM.", admin_email: "hostmaster@example.com" };

Deno.test("batch() applies all operations in one transaction or none, with a result per operation", async () => {
  await using t = await tempStore();
  const { service, events } = setup(t.store);
  await service.createZone("a", zone);
  const keep = await service.createRecord("a", "example.com", {
    domain: "keep.example.com",
    type: "A",
    value: "192.0.2.1",
  });
  const gone = await service.createRecord("a", "example.com", {
    domain: "gone.example.com",
    type: "A",
    value: "192.0.2.2",
  });
  const before = (await service.getZone("example.com")).serial;
  const ok = await service.batch("a", "example.com", [
    { operation: "create", domain: "new.example.com", type: "TXT", value: "hello" },
    { operation: "update", id: keep.id, value: "192.0.2.10" },
    { operation: "delete", id: gone.id },
  ]);
  assertEquals(ok.success, true);
  assertEquals(ok.results.map((r) => [r.operation, r.status]), [["create", "created"], [
    "update",
    "updated",
  ], [
    "delete",
    "deleted",
  ]]);
  assertEquals(
    (await service.getZone("example.com")).serial,
    before + 1,
    "one serial bump per batch",
  );
  assertEquals(
    events.filter((e) => e.type === "ZoneChanged" && e.payload.action === "batch").length,
    1,
  );

  const count = (await service.getZone("example.com")).records_count;
  const err = await assertRejects(() =>
    service.batch("a", "example.com", [
      { operation: "create", domain: "a.example.com", type: "A", value: "192.0.2.3" },
      { operation: "update", id: keep.id, value: "not an address" },
      { operation: "delete", id: "missing" },
    ]), BatchError) as BatchError;
  assertEquals(err.index, 1);
  assert(err.cause instanceof ValidationError);
  assertEquals(err.results.map((r) => r.status), ["rolled_back", "failed", "skipped"]);
  assertMatch(err.results[1].error!, /IPv4/);
  assertEquals((await service.getZone("example.com")).records_count, count);
  assertEquals((await service.getRecord("example.com", keep.id)).value, "192.0.2.10");
  const nf = await assertRejects(
    () => service.batch("a", "example.com", [{ operation: "delete", id: "missing" }]),
    BatchError,
  );
  assert((nf as BatchError).cause instanceof NotFoundError);
  await assertRejects(() => service.batch("a", "example.com", []), ValidationError);
});
