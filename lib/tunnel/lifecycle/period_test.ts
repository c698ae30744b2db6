import { assertEquals } from "../../../tests/assert.ts";
import { account, counterDelta, daysLeft, periodEnd, periodStart } from "./period.ts";

const MONTHLY = { days: null, anchor: 0 };

Deno.test("counterDelta: growth counts the difference, the first read only sets the baseline", () => {
  assertEquals(counterDelta(null, 5_000), 0);
  assertEquals(counterDelta(1_000, 1_000), 0);
  assertEquals(counterDelta(1_000, 4_500), 3_500);
});

Deno.test("counterDelta: a counter that went down was reset, so its whole value is new", () => {
  // wireguard-go restarted at 900_000 bytes; 2_048 counted since.
  assertEquals(counterDelta(900_000, 2_048), 2_048);
  assertEquals(counterDelta(900_000, 0), 0);
});

Deno.test("periodStart/periodEnd: calendar months in UTC, December into January, leap February", () => {
  // 2026-03-15T10:00:00Z
  assertEquals(periodStart(MONTHLY, Date.UTC(2026, 2, 15, 10)), Date.parse("2026-03-01T00:00:00Z"));
  // The last millisecond of a month is still in it.
  assertEquals(
    periodStart(MONTHLY, Date.parse("2026-03-31T23:59:59.999Z")),
    Date.parse("2026-03-01T00:00:00Z"),
  );
  assertEquals(
    periodEnd(MONTHLY, Date.parse("2026-12-01T00:00:00Z")),
    Date.parse("2027-01-01T00:00:00Z"),
  );
  assertEquals(
    periodEnd(MONTHLY, Date.parse("2028-02-01T00:00:00Z")),
    Date.parse("2028-03-01T00:00:00Z"),
  );
});

Deno.test("periodStart/periodEnd: every N days from the anchor, before and after it", () => {
  const p = { days: 7, anchor: Date.parse("2026-01-05T12:00:00Z") };
  assertEquals(
    periodStart(p, Date.parse("2026-01-05T12:00:00Z")),
    Date.parse("2026-01-05T12:00:00Z"),
  );
  assertEquals(
    periodStart(p, Date.parse("2026-01-12T11:59:59Z")),
    Date.parse("2026-01-05T12:00:00Z"),
  );
  assertEquals(
    periodStart(p, Date.parse("2026-01-12T12:00:00Z")),
    Date.parse("2026-01-12T12:00:00Z"),
  );
  assertEquals(
    periodStart(p, Date.parse("2026-01-30T00:00:00Z")),
    Date.parse("2026-01-26T12:00:00Z"),
  );
  assertEquals(
    periodStart(p, Date.parse("2026-01-01T00:00:00Z")),
    Date.parse("2025-12-29T12:00:00Z"),
  );
  assertEquals(
    periodEnd(p, Date.parse("2026-01-26T12:00:00Z")),
    Date.parse("2026-02-02T12:00:00Z"),
  );
});

Deno.test("account: adds rx and tx moved since the last read", () => {
  const u = {
    periodStart: Date.parse("2026-03-01T00:00:00Z"),
    usedBytes: 10_000,
    lastRx: 1_000,
    lastTx: 2_000,
  };
  assertEquals(account(MONTHLY, u, 1_500, 2_300, Date.parse("2026-03-10T00:00:00Z")), {
    periodStart: Date.parse("2026-03-01T00:00:00Z"),
    usedBytes: 10_800,
    lastRx: 1_500,
    lastTx: 2_300,
    rolled: false,
  });
});

Deno.test("account: after a restart of Palisade the persisted last-seen counters go on; after a device restart the reset counter's value is added", () => {
  // Palisade restarted: the stored row is all it has; the host kept counting.
  const stored = {
    periodStart: Date.parse("2026-03-01T00:00:00Z"),
    usedBytes: 50_000,
    lastRx: 40_000,
    lastTx: 10_000,
  };
  const afterRestart = account(MONTHLY, stored, 41_000, 10_500, Date.parse("2026-03-02T00:00:00Z"));
  assertEquals(afterRestart.usedBytes, 51_500);
  // Then wireguard-go restarted: both counters start again from zero.
  const afterReset = account(MONTHLY, afterRestart, 300, 200, Date.parse("2026-03-02T00:00:05Z"));
  assertEquals(afterReset.usedBytes, 52_000);
  assertEquals([afterReset.lastRx, afterReset.lastTx], [300, 200]);
});

Deno.test("account: at the period boundary used bytes start again from zero", () => {
  const u = {
    periodStart: Date.parse("2026-03-01T00:00:00Z"),
    usedBytes: 262_144,
    lastRx: 200_000,
    lastTx: 62_144,
  };
  assertEquals(account(MONTHLY, u, 200_100, 62_144, Date.parse("2026-04-01T00:00:00Z")), {
    periodStart: Date.parse("2026-04-01T00:00:00Z"),
    usedBytes: 100,
    lastRx: 200_100,
    lastTx: 62_144,
    rolled: true,
  });
  const days = { days: 3, anchor: Date.parse("2026-03-01T00:00:00Z") };
  const n = account(days, u, 200_000, 62_144, Date.parse("2026-03-04T00:00:00Z"));
  assertEquals([n.periodStart, n.usedBytes, n.rolled], [
    Date.parse("2026-03-04T00:00:00Z"),
    0,
    true,
  ]);
  const same = account(days, u, 200_000, 62_144, Date.parse("2026-03-03T23:59:59Z"));
  assertEquals([same.periodStart, same.usedBytes, same.rolled], [u.periodStart, 262_144, false]);
});

Deno.test("daysLeft: rounds up, zero once passed", () => {
  const now = Date.parse("2026-03-01T00:00:00Z");
  assertEquals(daysLeft(Date.parse("2026-03-01T00:00:01Z"), now), 1);
  assertEquals(daysLeft(Date.parse("2026-03-11T00:00:00Z"), now), 10);
  assertEquals(daysLeft(Date.parse("2026-02-27T00:00:00Z"), now), 0);
});
