import { assert, assertEquals, assertMatch, assertThrows } from "../../tests/assert.ts";
import { tempStore } from "../../tests/helpers/temp_store.ts";
import { dnsTestService } from "../../tests/helpers/dns_service.ts";
import { BatchError, NotFoundError, ValidationError } from "../errors.ts";
import type { Store } from "../store/store.ts";

const setup = (store: Store) => dnsTestService(store);

const zone = { name: "Example.COM.", admin_email: "hostmaster@example.com" };

Deno.test("batch() applies all operations in one transaction or none, with a result per operation", async () => {
  await using t = await tempStore();
  const { service, events } = setup(t.store);
  service.createZone("a", zone);
  const keep = service.createRecord("a", "example.com", {
    domain: "keep.example.com",
    type: "A",
    value: "192.0.2.1",
  });
  const gone = service.createRecord("a", "example.com", {
    domain: "gone.example.com",
    type: "A",
    value: "192.0.2.2",
  });
  const before = service.getZone("example.com").serial;
  const ok = service.batch("a", "example.com", [
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
  assertEquals(service.getZone("example.com").serial, before + 1, "one serial bump per batch");
  assertEquals(
    events.filter((e) => e.type === "ZoneChanged" && e.payload.action === "batch").length,
    1,
  );

  const count = service.getZone("example.com").records_count;
  const err = assertThrows(() =>
    service.batch("a", "example.com", [
      { operation: "create", domain: "a.example.com", type: "A", value: "192.0.2.3" },
      { operation: "update", id: keep.id, value: "not an address" },
      { operation: "delete", id: "missing" },
    ]), BatchError) as BatchError;
  assertEquals(err.index, 1);
  assert(err.cause instanceof ValidationError);
  assertEquals(err.results.map((r) => r.status), ["rolled_back", "failed", "skipped"]);
  assertMatch(err.results[1].error!, /IPv4/);
  assertEquals(service.getZone("example.com").records_count, count);
  assertEquals(service.getRecord("example.com", keep.id).value, "192.0.2.10");
  const nf = assertThrows(
    () => service.batch("a", "example.com", [{ operation: "delete", id: "missing" }]),
    BatchError,
  );
  assert((nf as BatchError).cause instanceof NotFoundError);
  assertThrows(() => service.batch("a", "example.com", []), ValidationError);
});
