import { assertEquals } from "../../tests/assert.ts";
import { tempStore } from "../../tests/helpers/temp_store.ts";
import { ManualClock } from "../clock.ts";
import { type BusEvent, EventBus } from "../events/bus.ts";
import { sqliteAuditLog } from "./sqlite_audit.ts";

const entry = (n: number) => ({
  actor: n % 2 ? "alice" : "bob",
  event_type: n % 3 ? "settings.updated" : "auth.login",
  message: `change ${n}`,
  resource_type: "setting",
  resource_id: `k${n}`,
});

Deno.test("AuditLog.list() filters by actor and event type, newest first, paginated", async () => {
  await using t = await tempStore();
  const clock = new ManualClock();
  const audit = sqliteAuditLog(t.store, new EventBus(), clock);
  for (let i = 1; i <= 9; i++) {
    audit.record(entry(i));
    clock.advance(1000);
  }
  const alice = await audit.list({ actor: "alice", limit: 2, offset: 0 });
  assertEquals(alice.total, 5);
  assertEquals(alice.records.map((r) => r.message), ["change 9", "change 7"]);
  const logins = await audit.list({ event_type: "auth.login", limit: 10, offset: 0 });
  assertEquals(logins.records.map((r) => r.resource_id), ["k9", "k6", "k3"]);
  const since = clock.now() - 3000;
  assertEquals((await audit.list({ since, limit: 10, offset: 0 })).total, 3);
});

Deno.test("AuditLog.record() emits AuditEvent only after the transaction commits", async () => {
  await using t = await tempStore();
  const bus = new EventBus();
  const seen: BusEvent[] = [];
  bus.subscribe((e) => seen.push(e));
  const audit = sqliteAuditLog(t.store, bus, new ManualClock());
  try {
    t.store.tx(() => {
      audit.record(entry(1));
      throw new Error("abort");
    });
  } catch { /* expected */ }
  assertEquals(seen.length, 0);
  assertEquals((await audit.list({ limit: 10, offset: 0 })).total, 0);
  t.store.tx(() => audit.record(entry(2)));
  assertEquals(seen.length, 1);
  assertEquals(seen[0].type, "AuditEvent");
  if (seen[0].type === "AuditEvent") assertEquals(seen[0].payload.message, "change 2");
});
