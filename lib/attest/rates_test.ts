import { assertEquals } from "../../tests/assert.ts";
import { ManualClock } from "../clock.ts";
import { type BusEvent, EventBus } from "../events/bus.ts";
import type { AttestService } from "./attest.ts";
import { AttestCounters } from "./metrics.ts";
import { AttestRates } from "./rates.ts";

/** The two things AttestRates reads from the service. */
function fakeAttest(): AttestService & { counters: AttestCounters } {
  const counters = new AttestCounters();
  return {
    counters,
    stats: () => ({ sessions: 3, expired_sessions: 1, max_chain_length: 9 }),
  } as unknown as AttestService & { counters: AttestCounters };
}

Deno.test("AttestRates.tick() measures rates over the window and emits AttestStats only when a figure changed", () => {
  const clock = new ManualClock();
  const bus = new EventBus();
  const sent: BusEvent[] = [];
  bus.subscribe((e) => sent.push(e));
  const attest = fakeAttest();
  const rates = new AttestRates(attest, bus, clock, 5000);

  clock.advance(5000);
  attest.counters.accepted = 50;
  attest.counters.reject("signature");
  attest.counters.reject("signature");
  let snap = rates.tick();
  assertEquals(snap.accepted_per_second, 10);
  assertEquals(snap.rejected_per_second, 0.4);
  assertEquals(snap.window_seconds, 5);
  assertEquals(snap.rejected_by_reason, { signature: 2 });
  assertEquals([snap.sessions, snap.expired_sessions, snap.max_chain_length], [3, 1, 9]);
  assertEquals(sent.length, 1);
  assertEquals(sent[0].type, "AttestStats");

  // Traffic stops: one more event brings the rates to zero, then silence.
  clock.advance(5000);
  snap = rates.tick();
  assertEquals([snap.accepted_per_second, snap.rejected_per_second], [0, 0]);
  assertEquals(sent.length, 2);
  clock.advance(5000);
  rates.tick();
  assertEquals(sent.length, 2);

  // snapshot() reports without closing the window.
  attest.counters.accepted = 60;
  assertEquals(rates.snapshot().accepted, 60);
  assertEquals(rates.snapshot().accepted_per_second, 0);
  assertEquals(sent.length, 2);
});

Deno.test("AttestRates sends nothing while the attestation service stays idle", () => {
  const clock = new ManualClock();
  const bus = new EventBus();
  const sent: BusEvent[] = [];
  bus.subscribe((e) => sent.push(e));
  const rates = new AttestRates(fakeAttest(), bus, clock, 5000);
  rates.start();
  try {
    for (let i = 0; i < 3; i++) {
      clock.advance(5000);
      rates.tick();
    }
  } finally {
    rates.stop();
  }
  assertEquals(sent, []);
});
