import { assertEquals, assertThrows } from "../../tests/assert.ts";
import { rawDelete, rawSet } from "../../tests/helpers/raw_sql.ts";
import { tempStore } from "../../tests/helpers/temp_store.ts";
import { ManualClock } from "../clock.ts";
import { EventBus } from "../events/bus.ts";
import { sqliteAuditLog } from "./sqlite_audit.ts";

const entry = (n: number) => ({
  actor: n % 2 ? "alice" : "bob",
  event_type: n % 3 ? "settings.updated" : "auth.login",
  message: `change ${n}`,
  resource_type: "setting",
  resource_id: `k${n}`,
});

Deno.test("audit table refuses changes and deletions at the database", async () => {
  await using t = await tempStore();
  const audit = sqliteAuditLog(t.store, new EventBus(), new ManualClock());
  audit.record(entry(1));
  assertThrows(() => rawSet(t.store, "audit", { message: "x" }), Error, "append-only");
  assertThrows(() => rawDelete(t.store, "audit"), Error, "append-only");
  assertEquals((await audit.list({ limit: 10, offset: 0 })).records[0].message, "change 1");
});
